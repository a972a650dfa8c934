import { userInfo } from 'node:os';
import type { Transaction, WhereOptions } from 'sequelize';
import { Forbidden, Validation } from '../domain/errors';
import { isTenantOwner } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { AgencyAuditEvent, User, type ApiToken, type ConnectLink } from '../models';
import { clockOf, offset, type Page, type PageArgs, type ServiceOptions, tenantScoped } from './common';

/**
 * The agency side's audit trail (issue 14; docs/security.md "Audit trail"): every change to a tenant's accounts and
 * access, with actor, time, request id and the values before and after. Entries are written in the transaction of
 * the change they record (no change without its entry, no entry without its change) and never hold a secret: the
 * states are built by the callers from plain fields, and `scrub` refuses anything named like a secret on top.
 */
export const AGENCY_AUDIT_ACTIONS = [
  'token.created',
  'token.revoked',
  'customer.created',
  'customer.deleted',
  'customer.plan_changed',
  'customer.location_limit_changed',
  'customer.member_limit_changed',
  'customer.credits_added',
  'customer.paused',
  'customer.resumed',
  'connect_link.created',
  'connect_link.revoked',
] as const;
export type AgencyAuditAction = (typeof AGENCY_AUDIT_ACTIONS)[number];

/** Who made a change: a user through one of its tokens, or the operator CLI on the machine. */
export type AuditActor = Principal | { cli: true };

export interface AuditChange {
  tenantId?: number;
  action: AgencyAuditAction;
  subjectType: 'token' | 'customer' | 'connect_link';
  subjectId: string | number;
  customerId?: number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

const SECRET_NAME = /(secret|password|hash|plain|credential|^token$|_token$|Token$|api_?key)/i;

/** A copy with every value under a secret-like name replaced: a caller's mistake must not put a secret on record. */
export function scrub(state: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!state) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(state)) {
    if (SECRET_NAME.test(k)) out[k] = '[redacted]';
    else if (v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)) out[k] = scrub(v as Record<string, unknown>);
    else out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

const cliLabel = (): string => {
  try {
    return `reviewgrid CLI (${userInfo().username})`;
  } catch {
    return 'reviewgrid CLI';
  }
};

export async function recordAgencyEvent(actor: AuditActor, change: AuditChange, opts: ServiceOptions = {}): Promise<AgencyAuditEvent> {
  const transaction: Transaction | undefined = opts.transaction;
  const isCli = 'cli' in actor;
  const tenantId = change.tenantId ?? (isCli ? undefined : actor.tenantId);
  if (tenantId === undefined) throw new Error('recordAgencyEvent: a CLI change names its tenant');
  const user = isCli ? null : await User.findByPk(actor.userId, { attributes: ['id', 'email'], transaction });
  return AgencyAuditEvent.create(
    {
      tenantId,
      action: change.action,
      subjectType: change.subjectType,
      subjectId: String(change.subjectId),
      customerId: change.customerId ?? null,
      actorType: isCli ? 'cli' : 'user',
      actorUserId: isCli ? null : actor.userId,
      actorTokenId: isCli ? null : actor.tokenId || null,
      actorLabel: isCli ? cliLabel() : user?.email ?? `user ${actor.userId}`,
      requestId: isCli ? null : actor.requestId ?? null,
      beforeState: scrub(change.before),
      afterState: scrub(change.after),
      createdAt: clockOf(opts).now(),
    },
    { transaction },
  );
}

/** A token on record by id, name, kind, owner, permissions and expiry: never its secret, hash or prefix. */
export function tokenChange(action: 'token.created' | 'token.revoked', token: ApiToken, owner: Pick<User, 'id' | 'email' | 'customerId'> | null): AuditChange {
  const state = {
    id: token.id,
    name: token.name,
    kind: token.kind,
    user_id: token.userId,
    ...(owner ? { user_email: owner.email } : {}),
    permissions: token.permissions,
    expires_at: token.expiresAt,
    revoked_at: token.revokedAt ?? null,
  };
  return {
    tenantId: token.tenantId,
    action,
    subjectType: 'token',
    subjectId: token.id,
    customerId: owner?.customerId ?? null,
    before: action === 'token.revoked' ? { ...state, revoked_at: null } : null,
    after: state,
  };
}

/** The first 8 characters of a link's token: enough to find it in the list, far too few to use it. */
export const connectLinkRef = (token: string): string => token.slice(0, 8);

/**
 * A connect link on record by its token's first characters (connectLinkRef), provider, location and expiry: never
 * the whole token, which is the customer's credential for the connect page.
 */
export function recordConnectLink(actor: AuditActor, action: 'connect_link.created' | 'connect_link.revoked', link: ConnectLink, opts: ServiceOptions = {}) {
  const state = { token_prefix: connectLinkRef(link.token), provider: link.provider, location_id: link.locationId, expires_at: link.expiresAt, revoked_at: link.revokedAt ?? null };
  return recordAgencyEvent(
    actor,
    {
      tenantId: link.tenantId,
      action,
      subjectType: 'connect_link',
      subjectId: connectLinkRef(link.token),
      customerId: link.customerId,
      before: action === 'connect_link.revoked' ? { ...state, revoked_at: null } : null,
      after: state,
    },
    opts,
  );
}

export interface AgencyAuditFilter extends PageArgs {
  action?: string | null;
  subjectType?: string | null;
  subjectId?: string | null;
  customerId?: number | null;
}

/** The tenant's audit trail, newest first, for its owner (any token kind of a tenant owner; others: FORBIDDEN). */
export async function listAgencyEvents(p: Principal, f: AgencyAuditFilter): Promise<Page<AgencyAuditEvent>> {
  if (!isTenantOwner(p)) throw new Forbidden('Only the agency (tenant owner) can read the audit trail.', 'tenant_owner_required');
  if (f.action && !(AGENCY_AUDIT_ACTIONS as readonly string[]).includes(f.action)) {
    throw new Validation({ action: [`The selected action is invalid. It must be one of ${AGENCY_AUDIT_ACTIONS.join(', ')}.`] });
  }
  const where: WhereOptions = tenantScoped(p);
  if (f.action) Object.assign(where, { action: f.action });
  if (f.subjectType) Object.assign(where, { subjectType: f.subjectType });
  if (f.subjectId) Object.assign(where, { subjectId: f.subjectId });
  if (f.customerId != null) Object.assign(where, { customerId: f.customerId });
  const { rows, count } = await AgencyAuditEvent.findAndCountAll({ where, order: [['id', 'DESC']], ...offset(f) });
  return { items: rows, total: count, page: f.page, perPage: f.perPage };
}
