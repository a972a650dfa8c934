import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { PlanLimit, Validation } from '../domain/errors';
import { CreditConsumption, CreditGrant } from '../models';
import { CREDIT_TYPES, type CreditType } from '../models/credit-grant.model';
import { clockOf, inTransaction, type ServiceOptions } from './common';

/**
 * Email and SMS credits of a customer account, kept as a ledger (see the migration): grants carry what is left
 * of them, consumptions draw from the unexpired grants that expire first (those without expiry last), and the
 * balance is the sum of what is left of the unexpired grants. An expiring grant thus takes only its unused
 * part with it, and a consumption can never spend credits that had already lapsed.
 *
 * `consumeCredits` and `creditBalance` are the interface for senders (review-request invites): call
 * `consumeCredits` in the transaction that records the send, so a rolled-back send gives its credits back.
 */

export { CREDIT_TYPES, type CreditType };

export const isCreditType = (v: string): v is CreditType => (CREDIT_TYPES as readonly string[]).includes(v);

/** The most credits one grant may carry (and one consumption may take). */
export const MAX_CREDITS_PER_CALL = 1_000_000;

/** The last day a credit grant may run through: it lapses at the midnight that ends it, which DATETIME must hold. */
export const LAST_CREDIT_EXPIRY_DAY = '9999-12-30';

/** Longest note of a credit grant. */
export const MAX_CREDIT_NOTES_CHARS = 1000;

function unexpired(now: Date): WhereOptions {
  return { [Op.or]: [{ expiresAt: null }, { expiresAt: { [Op.gt]: now } }] };
}

/** Credits of `type` the account can still spend now. */
export async function creditBalance(customerId: number, type: CreditType, opts: ServiceOptions = {}): Promise<number> {
  const sum = await CreditGrant.sum('remaining', {
    where: { customerId, type, remaining: { [Op.gt]: 0 }, ...unexpired(clockOf(opts).now()) },
    transaction: opts.transaction,
  });
  return Number(sum ?? 0);
}

/** Records a grant (the agency's `add-credits`) and answers the new balance. */
export async function grantCredits(
  account: { id: number; tenantId: number },
  input: { type: CreditType; credits: number; expiresAt: Date | null; notes: string | null },
  opts: ServiceOptions = {},
): Promise<number> {
  if (!Number.isInteger(input.credits) || input.credits < 1 || input.credits > MAX_CREDITS_PER_CALL) {
    throw new Validation({ credits: [`The credits must be between 1 and ${MAX_CREDITS_PER_CALL}.`] });
  }
  return inTransaction(opts, async (transaction) => {
    await CreditGrant.create(
      {
        tenantId: account.tenantId,
        customerId: account.id,
        type: input.type,
        credits: input.credits,
        remaining: input.credits,
        expiresAt: input.expiresAt,
        notes: input.notes,
      },
      { transaction },
    );
    return creditBalance(account.id, input.type, { transaction, clock: opts.clock });
  });
}

/**
 * Spends `n` credits of `type` in the caller's transaction and answers the balance left. Not enough unexpired
 * credits: 402 `insufficient_credits` and nothing is spent. The grants drawn from are locked, so two
 * concurrent senders cannot both spend the last credit.
 */
export async function consumeCredits(
  customerId: number,
  type: CreditType,
  n: number,
  transaction: Transaction,
  opts: { clock?: ServiceOptions['clock']; reference?: string | null } = {},
): Promise<number> {
  if (!isCreditType(type)) throw new Validation({ type: ['The selected type is invalid.'] });
  if (!Number.isInteger(n) || n < 1 || n > MAX_CREDITS_PER_CALL) {
    throw new Validation({ credits: [`The credits must be between 1 and ${MAX_CREDITS_PER_CALL}.`] });
  }
  const grants = await lockedGrants(customerId, type, clockOf(opts).now(), transaction);
  const available = grants.reduce((sum, g) => sum + g.remaining, 0);
  if (available < n) {
    throw new PlanLimit(`Not enough ${type} credits: ${n} needed, ${available} left.`, 'insufficient_credits');
  }
  await take(grants, n, transaction);
  const tenantId = grants[0].tenantId;
  await CreditConsumption.create({ tenantId, customerId, type, credits: n, reference: opts.reference ?? null }, { transaction });
  return available - n;
}

/**
 * Spends one credit of `type` for each of `references` (one consumption each), as far as the unexpired credits go,
 * in the caller's transaction: the first ones get a credit, and the answer says how many did. One lock of the grants
 * for them all (a batch of sends takes its credits in one go, not one lock per send).
 */
export async function consumeCreditEach(
  customerId: number,
  type: CreditType,
  references: readonly string[],
  transaction: Transaction,
  opts: { clock?: ServiceOptions['clock'] } = {},
): Promise<number> {
  if (references.length === 0) return 0;
  const grants = await lockedGrants(customerId, type, clockOf(opts).now(), transaction);
  const n = Math.min(references.length, grants.reduce((sum, g) => sum + g.remaining, 0));
  if (n === 0) return 0;
  await take(grants, n, transaction);
  const tenantId = grants[0].tenantId;
  await CreditConsumption.bulkCreate(references.slice(0, n).map((reference) => ({ tenantId, customerId, type, credits: 1, reference })), { transaction });
  return n;
}

/** The account's unexpired grants of a type with credits left, locked, in the order they are drawn from. */
async function lockedGrants(customerId: number, type: CreditType, now: Date, transaction: Transaction): Promise<CreditGrant[]> {
  return CreditGrant.findAll({
    where: { customerId, type, remaining: { [Op.gt]: 0 }, ...unexpired(now) },
    // The soonest to lapse first; grants that never expire last; then the oldest.
    order: [
      [CreditGrant.sequelize!.literal('expires_at IS NULL'), 'ASC'],
      ['expiresAt', 'ASC'],
      ['id', 'ASC'],
    ],
    transaction,
    lock: transaction.LOCK.UPDATE,
  });
}

/** Draws `n` credits from the locked grants, in their order. */
async function take(grants: CreditGrant[], n: number, transaction: Transaction): Promise<void> {
  let left = n;
  for (const grant of grants) {
    if (left === 0) break;
    const taken = Math.min(left, grant.remaining);
    await grant.update({ remaining: grant.remaining - taken }, { transaction });
    left -= taken;
  }
}
