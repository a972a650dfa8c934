import { Op, type Transaction } from 'sequelize';
import { Location, LocationUser, User } from '../models';
import { tenantScoped } from './common';

/**
 * Users whose dashboard was on a location about to disappear are moved to another location of theirs:
 * an assigned one for team members, the first remaining one of their account for owners, else none.
 */
export async function moveDashboardsOff(locationIds: number[], transaction: Transaction): Promise<void> {
  if (locationIds.length === 0) return;
  const users = await User.findAll({ where: { dashboardLocationId: { [Op.in]: locationIds } }, transaction });
  for (const user of users) {
    let next: number | null = null;
    if (user.role === 'team_member') {
      const assigned = await LocationUser.findOne({
        where: { ...tenantScoped(user), userId: user.id, locationId: { [Op.notIn]: locationIds } },
        order: [['locationId', 'ASC']],
        transaction,
      });
      next = assigned?.locationId ?? null;
    } else {
      const where: Record<string, unknown> = { tenantId: user.tenantId, id: { [Op.notIn]: locationIds } };
      if (user.role === 'organization_owner') where.customerId = user.customerId;
      const other = await Location.findOne({ where, order: [['id', 'ASC']], transaction });
      next = other?.id ?? null;
    }
    await user.update({ dashboardLocationId: next }, { transaction });
  }
}
