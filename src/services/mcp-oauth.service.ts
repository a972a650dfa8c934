import { randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { literal, Op, QueryTypes, where } from 'sequelize';
import type { Sequelize } from 'sequelize-typescript';
import { readRows } from '../db/read';
import { signInEmail } from '../domain/email';
import { isLoopbackHost } from '../net/address-policy';
import { Forbidden, NotFound, Unauthenticated, Validation } from '../domain/errors';
import { CUSTOMER_PERMISSIONS, isRestricted, isTenantOwner } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { ApiToken, Location, Organization, TenantDomain, User } from '../models';
import { findAccessToken, OAuthAdapter } from '../oauth/adapter';
import { MCP_SCOPES } from '../oauth/provider';
import { hashToken, principalFor } from './auth.service';
import { clockOf, inTransaction, organizationScoped, type ServiceOptions, tenantScoped } from './common';
import { revocationSettled } from './principal-cache';

/**
 * MCP sign-in with OAuth (issue 16): who may sign in where, what a user granted a client, and how a client's access
 * token becomes a caller. A grant is bound to an AI token (`api_tokens`, kind `ai`, whose secret nobody holds): the
 * access token acts as that token, so an OAuth client meets exactly the scope, redaction, limits, audit and revocation
 * of a static AI token with the same abilities. Revoking the authorization revokes the token and every code, access
 * and refresh token of the grant.
 */

const db = (): Sequelize => ApiToken.sequelize as Sequelize;

/** Hosts that are the platform's own (any tenant's user may sign in there): PUBLIC_URL's, loopback. */
function platformHost(hostname: string, publicUrl: string): boolean {
  const own = new URL(publicUrl).hostname.toLowerCase();
  const h = hostname.toLowerCase();
  return h === own || isLoopbackHost(h);
}

/** The tenant a white-label host belongs to (null: the platform's own host, where every tenant signs in). */
export async function tenantOfHost(hostname: string, publicUrl: string): Promise<number | null | 'unknown'> {
  if (platformHost(hostname, publicUrl)) return null;
  const domain = await TenantDomain.findOne({ where: { domain: hostname.toLowerCase() } });
  return domain ? domain.tenantId : 'unknown';
}

export async function accountAllowedOnHost(userId: number, hostname: string, publicUrl: string): Promise<boolean> {
  const tenant = await tenantOfHost(hostname, publicUrl);
  if (tenant === 'unknown') return false;
  const user = await User.findByPk(userId);
  return Boolean(user && (tenant === null || user.tenantId === tenant));
}


/**
 * The user whose email and password these are, among the users who may sign in on this host; null otherwise. The email
 * must be the stored one exactly (lower case): the column's collation is accent- and case-insensitive, and an
 * `órg@...` that found `org@...` would sign in past the failure lock, which counts per spelling (facades/shared/rate-limit.ts).
 */
export async function signIn(hostname: string, publicUrl: string, email: string, password: string): Promise<User | null> {
  const tenant = await tenantOfHost(hostname, publicUrl);
  if (tenant === 'unknown' || !email || !password || password.length > 1024) return null;
  const exact = signInEmail(email);
  const candidates = await User.findAll({
    where: {
      // The index finds the collation's matches, the binary comparison keeps the exact ones.
      [Op.and]: [{ email: exact }, where(literal('LOWER(`User`.`email`) COLLATE utf8mb4_bin'), Op.eq, exact)],
      ...(tenant === null ? {} : { tenantId: tenant }),
    },
    limit: 20,
  });
  for (const user of candidates) {
    if (user.passwordHash && (await bcrypt.compare(password, user.passwordHash))) return user;
  }
  // The same work when no user with a password matched (none, or one made without a password), so timing does not
  // tell which emails exist.
  if (!candidates.some((user) => user.passwordHash)) await bcrypt.compare(password, '$2a$10$CwTycUXWue0Thq9StjUM0uJ8.9xvNqC6nD1FYe6X0xUoX2k3mPjKe');
  return null;
}

/**
 * The most organisations one consent grants by ticking them (the form's limit too, src/http/oauth.ts): more is "all of
 * them". What the page lists is not capped: an agency with more organisations than this still sees and grants each.
 */
export const MAX_TICKED_ORGANIZATIONS = 1000;

/** The organisations a user could grant (the ones they see), every one of them, by name. */
export async function grantableOrganizations(p: Principal): Promise<Array<{ id: number; name: string }>> {
  const orgs = await Organization.findAll({ where: organizationScoped(p), order: [['name', 'ASC'], ['id', 'ASC']], attributes: ['id', 'name'], raw: true });
  return orgs.map((o) => ({ id: o.id, name: o.name }));
}

/**
 * Of the ids the consent form posted, the organisations the user could grant (one `id IN (...)` within what they see);
 * the others (not theirs, not a number) are left out. At most MAX_TICKED_ORGANIZATIONS ids: more is a Validation error
 * (`too_many_organizations`), not a silent cut.
 */
export async function grantableOrganizationIds(p: Principal, ids: readonly number[]): Promise<number[]> {
  if (ids.length > MAX_TICKED_ORGANIZATIONS) {
    const message = `At most ${MAX_TICKED_ORGANIZATIONS.toLocaleString('en')} organisations can be ticked. To grant more, choose “All of them”.`;
    throw new Validation({ organization: [message] }, 'too_many_organizations', message);
  }
  const wanted = [...new Set(ids.filter((id) => Number.isSafeInteger(id) && id > 0))];
  if (!wanted.length) return [];
  const orgs = await Organization.findAll({ where: { [Op.and]: [organizationScoped(p), { id: { [Op.in]: wanted } }] }, attributes: ['id'], raw: true });
  return orgs.map((o) => o.id).sort((a, b) => a - b);
}

/** The account the consent page names as signed in. */
export async function signedInAccount(userId: number): Promise<{ email: string }> {
  const user = await User.findByPk(userId, { attributes: ['id', 'email'] });
  if (!user) throw new NotFound('User');
  return { email: user.email };
}

/** A principal of the user as the consent page sees them (no token yet). */
export async function principalOfUser(userId: number): Promise<Principal> {
  const user = await User.findByPk(userId);
  if (!user) throw new NotFound('User');
  return principalFor(user, { id: 0, kind: 'ai', permissions: [...CUSTOMER_PERMISSIONS, ...MCP_SCOPES], expiresAt: null });
}

export interface AuthorizationRow {
  id: number;
  tenantId: number;
  customerId: number | null;
  userId: number;
  apiTokenId: number;
  grantId: string;
  clientId: string;
  clientName: string;
  scopes: string;
  organizationIds: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const COLUMNS = `id, tenant_id AS tenantId, customer_id AS customerId, user_id AS userId, api_token_id AS apiTokenId, grant_id AS grantId,
  client_id AS clientId, client_name AS clientName, scopes, organization_ids AS organizationIds, created_at AS createdAt,
  last_used_at AS lastUsedAt, revoked_at AS revokedAt`;

/**
 * What the user's standing authorization of a grant allows (the consent page shown again starts from it), or null when
 * the grant has none or it was revoked. `organizationIds` null: all of them.
 */
export async function standingAuthorization(userId: number, grantId: string): Promise<{ scopes: string[]; organizationIds: number[] | null } | null> {
  const [row] = await readRows<AuthorizationRow>(db(), `SELECT ${COLUMNS} FROM mcp_authorizations WHERE grant_id = ? AND user_id = ? AND revoked_at IS NULL LIMIT 1`, [grantId, userId]);
  if (!row) return null;
  return { scopes: row.scopes.split(' ').filter(Boolean), organizationIds: row.organizationIds === null ? null : (JSON.parse(row.organizationIds) as number[]) };
}

/**
 * Records what the user granted the client on the consent page: the grant's AI token (created, or its permissions
 * changed when the user consents again) and the authorization row. `mcp:access` is always part of a grant.
 */
export async function recordAuthorization(
  input: { userId: number; grantId: string; clientId: string; clientName: string; scopes: string[]; organizationIds: number[] | null },
  opts: ServiceOptions = {},
): Promise<AuthorizationRow> {
  const scopes = [...new Set(['mcp:access', ...input.scopes.filter((s) => (MCP_SCOPES as readonly string[]).includes(s))])];
  const permissions = [...CUSTOMER_PERMISSIONS, ...scopes];
  const now = clockOf(opts).now();
  return inTransaction(opts, async (transaction) => {
    const user = await User.findByPk(input.userId, { transaction });
    if (!user) throw new NotFound('User');
    const [existing] = await readRows<AuthorizationRow>(db(), `SELECT ${COLUMNS} FROM mcp_authorizations WHERE grant_id = ? LIMIT 1 FOR UPDATE`, [input.grantId], transaction);
    const organizationIds = input.organizationIds ? JSON.stringify([...new Set(input.organizationIds)].sort((a, b) => a - b)) : null;
    if (existing && !existing.revokedAt) {
      await ApiToken.update({ permissions }, { where: { id: existing.apiTokenId }, transaction });
      await db().query('UPDATE mcp_authorizations SET scopes = ?, organization_ids = ?, client_name = ? WHERE id = ?', {
        replacements: [scopes.join(' '), organizationIds, input.clientName.slice(0, 255), existing.id],
        transaction,
        type: QueryTypes.UPDATE,
      });
    } else {
      // The token's secret is random and thrown away: only the grant's access tokens act as it.
      const token = await ApiToken.create(
        {
          tenantId: user.tenantId,
          userId: user.id,
          name: `OAuth: ${input.clientName}`.slice(0, 255),
          kind: 'ai',
          tokenHash: hashToken(`oauth-grant:${input.grantId}:${randomBytes(24).toString('base64url')}`),
          tokenPrefix: 'oauth',
          permissions,
          expiresAt: null,
        },
        { transaction },
      );
      if (existing) await db().query('DELETE FROM mcp_authorizations WHERE id = ?', { replacements: [existing.id], transaction, type: QueryTypes.DELETE });
      await db().query(
        `INSERT INTO mcp_authorizations (tenant_id, customer_id, user_id, api_token_id, grant_id, client_id, client_name, scopes, organization_ids, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        {
          replacements: [user.tenantId, user.customerId, user.id, token.id, input.grantId, input.clientId.slice(0, 255), input.clientName.slice(0, 255), scopes.join(' '), organizationIds, now],
          transaction,
          type: QueryTypes.INSERT,
        },
      );
    }
    const [row] = await readRows<AuthorizationRow>(db(), `SELECT ${COLUMNS} FROM mcp_authorizations WHERE grant_id = ? LIMIT 1`, [input.grantId], transaction);
    return row;
  });
}

/**
 * The caller an OAuth access token stands for, at the resource it was issued for (RFC 8707: a token for another
 * resource, such as another tenant's domain, is refused), or Unauthenticated. The grant must still be authorized.
 */
export async function principalOfAccessToken(bearer: string, resource: string, opts: ServiceOptions = {}): Promise<Principal> {
  const token = await findAccessToken(bearer);
  if (!token || typeof token.grantId !== 'string') throw new Unauthenticated();
  const aud = token.aud;
  const audiences = Array.isArray(aud) ? aud : [aud];
  if (!audiences.includes(resource)) throw new Unauthenticated();
  const [row] = await readRows<AuthorizationRow>(db(), `SELECT ${COLUMNS} FROM mcp_authorizations WHERE grant_id = ? LIMIT 1`, [token.grantId]);
  if (!row || row.revokedAt || String(row.userId) !== String(token.accountId)) throw new Unauthenticated();
  const now = clockOf(opts).now();
  if (!row.lastUsedAt || now.getTime() - new Date(row.lastUsedAt).getTime() > 60_000) {
    db()
      .query('UPDATE mcp_authorizations SET last_used_at = ? WHERE id = ?', { replacements: [now, row.id], type: QueryTypes.UPDATE })
      .catch(() => undefined);
  }
  const principal = await authenticateToken(row.apiTokenId, opts);
  return row.organizationIds === null ? principal : restrictToOrganizations(principal, JSON.parse(row.organizationIds) as number[]);
}

/**
 * A grant to some organisations: the caller sees those organisations and their locations (ones added later too), within
 * what the user sees (a team member's assignments stay the limit).
 */
async function restrictToOrganizations(p: Principal, organizationIds: number[]): Promise<Principal> {
  const orgs = isRestricted(p) ? organizationIds.filter((id) => p.assignedOrganizationIds.has(id)) : organizationIds;
  const locations = orgs.length ? await Location.findAll({ where: { ...tenantScoped(p), organizationId: { [Op.in]: orgs } }, attributes: ['id'] }) : [];
  const locationIds = locations.map((l) => l.id).filter((id) => !isRestricted(p) || p.assignedLocationIds.has(id));
  return { ...p, grantRestricted: true, assignedOrganizationIds: new Set(orgs), assignedLocationIds: new Set(locationIds) };
}

/** The principal of an AI token by id (the grant's token), with the same checks as a bearer secret. */
async function authenticateToken(tokenId: number, opts: ServiceOptions): Promise<Principal> {
  const token = await ApiToken.findByPk(tokenId, { include: [{ model: User, required: true }] });
  const now = clockOf(opts).now();
  if (!token?.user || token.revokedAt || (token.expiresAt && token.expiresAt.getTime() <= now.getTime())) throw new Unauthenticated();
  return principalFor(token.user, token);
}

/** The authorizations the caller sees: their own; a tenant owner also every user's of the tenant. */
export async function listAuthorizations(p: Principal, opts: { includeRevoked?: boolean } = {}): Promise<AuthorizationRow[]> {
  const where = isTenantOwner(p) ? 'tenant_id = ?' : 'tenant_id = ? AND user_id = ?';
  const values: unknown[] = isTenantOwner(p) ? [p.tenantId] : [p.tenantId, p.userId];
  return readRows<AuthorizationRow>(
    db(),
    `SELECT ${COLUMNS} FROM mcp_authorizations WHERE ${where}${opts.includeRevoked ? '' : ' AND revoked_at IS NULL'} ORDER BY id DESC LIMIT 200`,
    values,
  );
}

/**
 * Revokes an authorization: its AI token, and the grant with every code, access and refresh token of it (connecting
 * the client again asks for consent again, which makes a new grant and authorization).
 */
export async function revokeAuthorization(p: Principal, id: number, opts: ServiceOptions = {}): Promise<AuthorizationRow> {
  const now = clockOf(opts).now();
  const row = await inTransaction(opts, async (transaction) => {
    const [found] = await readRows<AuthorizationRow>(db(), `SELECT ${COLUMNS} FROM mcp_authorizations WHERE id = ? FOR UPDATE`, [id], transaction);
    if (!found || found.tenantId !== p.tenantId) throw new NotFound('Authorization');
    if (!isTenantOwner(p) && found.userId !== p.userId) throw new NotFound('Authorization');
    if (!found.revokedAt) {
      await db().query('UPDATE mcp_authorizations SET revoked_at = ? WHERE id = ?', { replacements: [now, id], transaction, type: QueryTypes.UPDATE });
      await ApiToken.update({ revokedAt: now }, { where: { id: found.apiTokenId, revokedAt: { [Op.is]: null } }, transaction });
    }
    return { ...found, revokedAt: found.revokedAt ?? now };
  });
  await new OAuthAdapter('Grant').revokeByGrantId(row.grantId);
  if (!opts.transaction) await revocationSettled();
  return row;
}

export function assertCanManageAuthorizations(p: Principal): void {
  if (p.tokenKind === 'ai') throw new Forbidden('An AI token cannot manage AI authorizations.', 'missing_permission');
}
