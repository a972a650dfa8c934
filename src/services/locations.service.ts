import { literal, Op, type Transaction } from 'sequelize';
import { Forbidden, NotFound, ruleViolation } from '../domain/errors';
import {
  canSeeLocation,
  canSeeOrganization,
  hasOrganizationPermission,
  inAccount,
  isTeamMember,
  type OrganizationPermission,
} from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Location, LocationUser, Organization } from '../models';
import { cleanName, escape, inTransaction, locationScoped, offset, type Page, type PageArgs, type ServiceOptions } from './common';
import { moveDashboardsOff } from './dashboards';
import { attachDefaultSources } from './integrations.service';
import { locationEvent, organizationEvent } from './organizations.service';
import { assertLocationCapacity } from './plans.service';
import { containsPattern } from '../db/like';

export interface LocationFilter extends PageArgs {
  organizationId?: number | null;
  search?: string | null;
}

const like = containsPattern;

/** Visible locations, ordered by organisation, then by creation. `search` matches location or organisation name. */
export async function list(p: Principal, f: LocationFilter): Promise<Page<Location>> {
  const where: Record<string | symbol, unknown> = { ...locationScoped(p, 'id') };
  if (f.organizationId != null) where.organizationId = f.organizationId;
  if (f.search) {
    const pattern = escape(like(f.search));
    where[Op.or] = [
      { name: { [Op.like]: like(f.search) } },
      { organizationId: { [Op.in]: literal(`(SELECT o.id FROM organizations o WHERE o.tenant_id = ${escape(p.tenantId)} AND o.name LIKE ${pattern})`) } },
    ];
  }
  const { rows, count } = await Location.findAndCountAll({
    where,
    order: [
      ['organizationId', 'ASC'],
      ['id', 'ASC'],
    ],
    ...offset(f),
  });
  return { items: rows, total: count, page: f.page, perPage: f.perPage };
}

/**
 * A location of another account (or tenant) is 404; one of the caller's account that a team member
 * was not assigned is 403 `location_access_denied`.
 */
export function assertVisible(p: Principal, location: Location | null): asserts location is Location {
  if (!location || !inAccount(p, location)) throw new NotFound('Location');
  if (!canSeeLocation(p, location)) throw new Forbidden('You do not have access to this location.', 'location_access_denied');
}

export async function get(p: Principal, id: number, opts: ServiceOptions = {}): Promise<Location> {
  const location = await Location.findByPk(id, { transaction: opts.transaction });
  assertVisible(p, location);
  return location;
}

function assertOrgPermission(p: Principal, organizationId: number, permission: OrganizationPermission): void {
  if (!hasOrganizationPermission(p, organizationId, permission)) {
    throw new Forbidden(`You do not have the ${permission} permission in this organization.`);
  }
}

export async function create(
  p: Principal,
  input: { organizationId: number; name: string },
  opts: ServiceOptions = {},
): Promise<Location> {
  const name = cleanName(input.name);
  return inTransaction(opts, async (transaction) => {
    const org = await Organization.findByPk(input.organizationId, { transaction });
    if (!org || !canSeeOrganization(p, org)) throw new NotFound('Organization');
    assertOrgPermission(p, org.id, 'create-locations');
    await assertLocationCapacity(org.customerId, transaction);
    const location = await Location.create(
      { tenantId: org.tenantId, customerId: org.customerId, organizationId: org.id, name },
      { transaction },
    );
    await attachDefaultSources(location, transaction);
    // A team member who creates a location works on it: it is assigned to them.
    if (isTeamMember(p)) await LocationUser.create({ tenantId: location.tenantId, locationId: location.id, userId: p.userId }, { transaction });
    await locationEvent('location-created', location, transaction, opts);
    return location;
  });
}

async function lockVisible(p: Principal, id: number, transaction: Transaction): Promise<Location> {
  const location = await Location.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
  assertVisible(p, location);
  return location;
}

export async function update(p: Principal, id: number, input: { name: string }, opts: ServiceOptions = {}): Promise<Location> {
  const name = cleanName(input.name);
  return inTransaction(opts, async (transaction) => {
    const location = await lockVisible(p, id, transaction);
    assertOrgPermission(p, location.organizationId, 'update-locations');
    location.set({ name });
    if (!location.changed()) return location;
    await location.save({ transaction });
    await locationEvent('location-updated', location, transaction, opts);
    return location;
  });
}

/**
 * Deletes a location with its sources and reviews; an organisation's last location stays (422 last_location).
 * Events: location-deleted, and organization-updated when the organisation's default location moves.
 */
export async function remove(p: Principal, id: number, opts: ServiceOptions = {}): Promise<Location> {
  return inTransaction(opts, async (transaction) => {
    const location = await lockVisible(p, id, transaction);
    assertOrgPermission(p, location.organizationId, 'delete-locations');
    const org = await Organization.findByPk(location.organizationId, { transaction, lock: transaction.LOCK.UPDATE });
    const others = await Location.findAll({
      where: { organizationId: location.organizationId, id: { [Op.ne]: location.id } },
      order: [['id', 'ASC']],
      transaction,
    });
    if (others.length === 0) {
      throw ruleViolation('An organization must keep at least one location; the last location cannot be deleted.', 'last_location');
    }
    const defaultMoves = org !== null && org.defaultLocationId === location.id;
    if (defaultMoves) await org.update({ defaultLocationId: others[0].id }, { transaction });
    await moveDashboardsOff([location.id], transaction);
    await location.destroy({ transaction });
    await locationEvent('location-deleted', location, transaction, opts);
    if (defaultMoves) await organizationEvent('organization-updated', org, others, transaction, opts);
    return location;
  });
}
