import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Op } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { readRows } from '../db/read';
import { Unauthenticated, Validation } from '../domain/errors';
import { ALL_PERMISSIONS } from '../domain/permissions';
import type { Principal, Role, TokenKind } from '../domain/principal';
import { ApiToken, Location, LocationUser, OrganizationMember, User } from '../models';
import type { OrganizationPermission } from '../domain/permissions';
import { clockOf, tenantScoped, type ServiceOptions } from './common';
import { principals } from './principal-cache';
import { hashToken } from '../crypto/token-hash';

const TOKEN_PREFIX = 'rg_';
/** last_used_at is refreshed at most this often, so reads do not turn into a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export { hashToken };

export interface IssuedToken {
  token: ApiToken;
  /** The secret: returned once, never stored. */
  plainText: string;
}

export async function issueToken(
  user: User,
  input: { name: string; permissions: string[]; kind: TokenKind; expiresAt?: Date | null },
  opts: ServiceOptions = {},
): Promise<IssuedToken> {
  const unknown = input.permissions.filter((p) => !ALL_PERMISSIONS.includes(p));
  if (unknown.length) throw new Validation({ permissions: [`Unknown permissions: ${unknown.join(', ')}.`] });
  if (input.kind === 'agency' && user.role !== 'tenant_owner') {
    throw new Validation({ kind: ['Agency tokens can only be issued to a tenant owner.'] });
  }
  if (input.expiresAt && input.expiresAt.getTime() <= clockOf(opts).now().getTime()) {
    throw new Validation({ expires_at: ['The expiry must be in the future.'] });
  }
  const plainText = TOKEN_PREFIX + randomBytes(30).toString('base64url');
  const token = await ApiToken.create(
    {
      tenantId: user.tenantId,
      userId: user.id,
      name: input.name,
      kind: input.kind,
      tokenHash: hashToken(plainText),
      tokenPrefix: plainText.slice(0, 10),
      permissions: [...new Set(input.permissions)],
      expiresAt: input.expiresAt ?? null,
    },
    { transaction: opts.transaction },
  );
  return { token, plainText };
}

export async function revokeToken(tokenId: number, opts: ServiceOptions = {}): Promise<ApiToken | null> {
  const token = await ApiToken.findByPk(tokenId, { transaction: opts.transaction });
  if (!token) return null;
  if (!token.revokedAt) await token.update({ revokedAt: clockOf(opts).now() }, { transaction: opts.transaction });
  return token;
}

interface TokenRow {
  id: number;
  kind: TokenKind;
  tokenHash: string;
  permissions: string | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  userId: number;
  tenantId: number;
  customerId: number | null;
  role: Role;
}

/**
 * Runs on every API request whose token the process has not looked up in the last AUTH_CACHE_TTL_MS
 * (src/services/principal-cache.ts): one lookup by the unique token hash joined to its user, read as a plain row
 * (a model query with an include costs about a millisecond of CPU more per request).
 */
const TOKEN_LOOKUP = `SELECT t.id, t.kind, t.token_hash AS tokenHash, t.permissions, t.expires_at AS expiresAt,
    t.revoked_at AS revokedAt, t.last_used_at AS lastUsedAt, u.id AS userId, u.tenant_id AS tenantId,
    u.customer_id AS customerId, u.role
  FROM api_tokens t INNER JOIN users u ON u.id = t.user_id
  WHERE t.token_hash = ? LIMIT 1`;

/** Resolves a bearer secret to the caller, or throws Unauthenticated (missing, unknown, revoked, expired). */
export async function authenticate(secret: string | null | undefined, opts: ServiceOptions & { digest?: string } = {}): Promise<Principal> {
  if (!secret) throw new Unauthenticated();
  // `digest`: the secret's hash as the caller computed it already (the REST rate limit keys by it).
  const digest = opts.digest ?? hashToken(secret);
  const cached = principals.get(digest);
  if (cached) {
    if (cached.tokenExpiresAt && cached.tokenExpiresAt.getTime() <= clockOf(opts).now().getTime()) throw new Unauthenticated();
    return cached;
  }
  const mark = principals.mark();
  const [token] = await readRows<TokenRow>(ApiToken.sequelize as Sequelize, TOKEN_LOOKUP, [digest]);
  if (!token || !timingSafeEqual(Buffer.from(token.tokenHash), Buffer.from(digest))) {
    throw new Unauthenticated();
  }
  const now = clockOf(opts).now();
  if (token.revokedAt || (token.expiresAt && token.expiresAt.getTime() <= now.getTime())) throw new Unauthenticated();
  if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Bookkeeping only: a failure here must not fail the request.
    ApiToken.update({ lastUsedAt: now }, { where: { id: token.id } }).catch(() => undefined);
  }
  // The same reading as the model's JSON column (api_tokens.permissions is NOT NULL).
  const permissions = token.permissions === null ? [] : (JSON.parse(token.permissions) as string[]);
  const principal = await principalFor(
    { id: token.userId, tenantId: token.tenantId, customerId: token.customerId, role: token.role },
    { id: token.id, kind: token.kind, permissions, expiresAt: token.expiresAt },
  );
  principals.store(digest, principal, mark);
  return principal;
}

export async function principalFor(
  user: Pick<User, 'id' | 'tenantId' | 'customerId' | 'role'>,
  token: Pick<ApiToken, 'id' | 'kind' | 'permissions'> & { expiresAt?: Date | null },
): Promise<Principal> {
  const assignedLocationIds = new Set<number>();
  const assignedOrganizationIds = new Set<number>();
  const organizationPermissions = new Map<number, Set<OrganizationPermission>>();
  if (user.role === 'team_member') {
    const [assigned, memberships] = await Promise.all([
      LocationUser.findAll({ where: { ...tenantScoped(user), userId: user.id }, attributes: ['locationId'] }),
      OrganizationMember.findAll({ where: { ...tenantScoped(user), userId: user.id } }),
    ]);
    const ids = assigned.map((a) => a.locationId);
    const locations = ids.length
      ? await Location.findAll({ where: { id: { [Op.in]: ids } }, attributes: ['id', 'organizationId'] })
      : [];
    for (const l of locations) {
      assignedLocationIds.add(l.id);
      assignedOrganizationIds.add(l.organizationId);
    }
    for (const m of memberships) {
      assignedOrganizationIds.add(m.organizationId);
      organizationPermissions.set(m.organizationId, new Set(m.permissions));
    }
  }
  return {
    tenantId: user.tenantId,
    userId: user.id,
    role: user.role,
    customerId: user.customerId,
    tokenId: token.id,
    tokenKind: token.kind,
    tokenExpiresAt: token.expiresAt ?? null,
    permissions: new Set(token.permissions),
    assignedLocationIds,
    assignedOrganizationIds,
    organizationPermissions,
  };
}
