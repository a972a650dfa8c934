import type { Transaction } from 'sequelize';
import { NotFound, PlanLimit, Validation } from '../domain/errors';
import { Customer, Location, Plan, User } from '../models';

/** The account's effective limits: its own override, else its plan's; 0 means unlimited. */
export async function limitsOf(customerId: number, transaction?: Transaction): Promise<{ locations: number; members: number }> {
  const customer = await Customer.findByPk(customerId, { include: [Plan], transaction });
  return {
    locations: customer?.locationLimit ?? customer?.plan?.locationLimit ?? 0,
    members: customer?.memberLimit ?? customer?.plan?.memberLimit ?? 0,
  };
}

/** 402 upgrade_required when adding `adding` locations would pass the account's plan limit. */
export async function assertLocationCapacity(customerId: number, transaction: Transaction, adding = 1): Promise<void> {
  // Locks the account row so two concurrent creations cannot both take the last slot.
  await Customer.findByPk(customerId, { transaction, lock: transaction.LOCK.UPDATE });
  const { locations: limit } = await limitsOf(customerId, transaction);
  if (limit === 0) return;
  // Locking read: under REPEATABLE READ a plain count could answer from a snapshot older than the lock.
  const used = (await Location.findAll({ where: { customerId }, attributes: ['id'], transaction, lock: transaction.LOCK.SHARE })).length;
  if (used + adding > limit) {
    throw new PlanLimit(`Your plan allows ${limit} location${limit === 1 ? '' : 's'}. Upgrade your plan to add more.`);
  }
}

/** 402 upgrade_required when another team member would pass the account's member limit. */
export async function assertMemberCapacity(customerId: number, transaction: Transaction): Promise<void> {
  await Customer.findByPk(customerId, { transaction, lock: transaction.LOCK.UPDATE });
  const { members: limit } = await limitsOf(customerId, transaction);
  if (limit === 0) return;
  const used = (await User.findAll({ where: { customerId, role: 'team_member' }, attributes: ['id'], transaction, lock: transaction.LOCK.SHARE })).length;
  if (used + 1 > limit) {
    throw new PlanLimit(`Your plan allows ${limit} team member${limit === 1 ? '' : 's'}. Upgrade your plan to add more.`);
  }
}

/** Plan features the product knows (a plan's `features` may hold only these). */
export const PLAN_FEATURES = ['auto_respond'] as const;

/**
 * Adds and removes features of an agency's plan (operator CLI `plan:features`). Unknown names are refused so a
 * typo never looks like a granted feature.
 */
export async function setPlanFeatures(tenantId: number, planRef: string, change: { add: string[]; remove: string[] }): Promise<Plan> {
  const unknown = [...change.add, ...change.remove].filter((f) => !(PLAN_FEATURES as readonly string[]).includes(f));
  if (unknown.length) throw new Validation({ features: [`Unknown feature(s): ${unknown.join(', ')}. Known: ${PLAN_FEATURES.join(', ')}.`] });
  const plan = /^\d+$/.test(planRef)
    ? await Plan.findOne({ where: { id: Number(planRef), tenantId } })
    : await Plan.findOne({ where: { name: planRef, tenantId } });
  if (!plan) throw new NotFound('Plan');
  const features = new Set(plan.features ?? []);
  for (const f of change.add) features.add(f);
  for (const f of change.remove) features.delete(f);
  await plan.update({ features: [...features].sort() });
  return plan;
}
