import { Op, UniqueConstraintError, type Transaction } from 'sequelize';
import { Forbidden, NotFound, Validation, type FieldErrors } from '../domain/errors';
import { INVALID_LANGUAGE, languageOf } from '../i18n';
import { BRAND_COLOR } from '../reports/brand';
import { hasPermissions, inAccount, isTeamMember, ORGANIZATION_PERMISSIONS } from '../domain/permissions';
import type { Principal, TokenKind } from '../domain/principal';
import { ApiToken, Customer, Location, LocationUser, Organization, OrganizationMember, Plan, Tenant, TenantDomain, User } from '../models';
import { createUser } from './admin.service';
import { recordAgencyEvent, tokenChange } from './agency-audit.service';
import { issueToken, type IssuedToken } from './auth.service';
import { clockOf, inTransaction, tenantScoped, type ServiceOptions } from './common';
import { revocationSettled } from './principal-cache';
import { limitsOf } from './plans.service';
import { charCount } from '../domain/limits';

/** The caller's own settings: tenant branding, account and plan, API tokens, team. */

export async function tenantOf(p: Principal) {
  const tenant = await Tenant.findByPk(p.tenantId);
  if (!tenant) throw new NotFound('Tenant');
  const domains = await TenantDomain.findAll({ where: { tenantId: tenant.id }, order: [['id', 'ASC']] });
  return { id: tenant.id, name: tenant.name, brandName: tenant.brandName, logoUrl: tenant.logoUrl, brandColor: tenant.brandColor, language: tenant.language, domains: domains.map((d) => d.domain) };
}

/** The agency's language (tenant owners): what new customer accounts and agency-level pages speak. */
export async function setTenantLanguage(p: Principal, language: string, opts: ServiceOptions = {}) {
  if (p.role !== 'tenant_owner') throw new Forbidden('Only the agency owner sets the agency language.');
  const errors: FieldErrors = {};
  const code = languageOf(language, errors);
  if (!code) throw new Validation(Object.keys(errors).length ? errors : { language: [INVALID_LANGUAGE] });
  await Tenant.update({ language: code }, { where: { id: p.tenantId }, transaction: opts.transaction });
  return tenantOf(p);
}

/** The agency's brand colour (`#rrggbb`; null clears it), which reports draw their header and accents in. Tenant owners. */
export async function setTenantBrandColor(p: Principal, color: string | null, opts: ServiceOptions = {}) {
  if (p.role !== 'tenant_owner') throw new Forbidden('Only the agency owner sets the brand colour.');
  const value = color?.trim() || null;
  if (value !== null && !BRAND_COLOR.test(value)) throw new Validation({ brand_color: ['The brand color must be a hex colour such as #1a73e8.'] });
  await Tenant.update({ brandColor: value?.toLowerCase() ?? null }, { where: { id: p.tenantId }, transaction: opts.transaction });
  return tenantOf(p);
}

/** The account's language (its owner; the agency can set it too, through the agency API): pages and mail speak it. */
export async function setAccountLanguage(p: Principal, language: string, opts: ServiceOptions = {}) {
  if (p.customerId == null) throw new NotFound('Account');
  if (isTeamMember(p)) throw new Forbidden('Only the account owner sets the account language.');
  const errors: FieldErrors = {};
  const code = languageOf(language, errors);
  if (!code) throw new Validation(Object.keys(errors).length ? errors : { language: [INVALID_LANGUAGE] });
  await Customer.update({ language: code }, { where: { id: p.customerId }, transaction: opts.transaction });
  return accountOf(p);
}

/**
 * Whether the account's owners get the monthly report by mail (src/jobs/report-mail.ts); on the agency's own account,
 * whether its owners get the monthly scan reports too (src/jobs/scan-report-mail.ts). Account owners.
 */
export async function setAccountReportEmails(p: Principal, enabled: boolean, opts: ServiceOptions = {}) {
  if (p.customerId == null) throw new NotFound('Account');
  if (isTeamMember(p)) throw new Forbidden('Only the account owner turns the monthly report mail on or off.');
  await Customer.update({ reportEmails: enabled }, { where: { id: p.customerId }, transaction: opts.transaction });
  return accountOf(p);
}

export async function accountOf(p: Principal) {
  if (p.customerId == null) throw new NotFound('Account');
  const account = await Customer.findByPk(p.customerId, { include: [Plan] });
  if (!account) throw new NotFound('Account');
  const [limits, locationsUsed, membersUsed] = await Promise.all([
    limitsOf(account.id),
    Location.count({ where: { customerId: account.id } }),
    User.count({ where: { customerId: account.id, role: 'team_member' } }),
  ]);
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    subscriptionStatus: account.subscriptionStatus,
    language: account.language,
    reportEmails: account.reportEmails,
    planName: account.plan?.name ?? null,
    locationLimit: limits.locations,
    memberLimit: limits.members,
    locationsUsed,
    membersUsed,
  };
}

/** The caller's own tokens, newest first (secrets are never readable again). */
export function listTokens(p: Principal): Promise<ApiToken[]> {
  return ApiToken.findAll({ where: { userId: p.userId }, order: [['id', 'DESC']] });
}

/**
 * A new token for the caller ("API and webhooks" settings). It is of the calling token's kind and carries only
 * permissions the calling token holds, so no token mints a wider one (an agency token, which is a super
 * administrator of the agency API, comes only from an agency token or the operator CLI).
 */
export async function createToken(
  p: Principal,
  input: { name: string; kind: TokenKind; permissions: string[]; expiresAt?: Date | null },
  opts: ServiceOptions = {},
): Promise<IssuedToken> {
  const name = input.name.trim();
  if (!name || charCount(name) > 255) throw new Validation({ name: ['The name must be between 1 and 255 characters.'] });
  if (input.kind !== p.tokenKind) {
    throw new Forbidden(`A ${p.tokenKind} token can only issue ${p.tokenKind} tokens.`);
  }
  // Nor does it outlive the calling token: a token that expires cannot leave an everlasting sibling behind.
  const expiresAt =
    p.tokenExpiresAt && (!input.expiresAt || input.expiresAt.getTime() > p.tokenExpiresAt.getTime()) ? p.tokenExpiresAt : input.expiresAt ?? null;
  if (!hasPermissions(p, input.permissions)) {
    throw new Forbidden('A token cannot grant permissions the calling token does not hold.');
  }
  const user = await User.findByPk(p.userId);
  if (!user) throw new NotFound('User');
  return inTransaction(opts, async (transaction) => {
    const issued = await issueToken(user, { ...input, name, expiresAt }, { clock: clockOf(opts), transaction });
    await recordAgencyEvent(p, tokenChange('token.created', issued.token, user), { clock: opts.clock, transaction });
    return issued;
  });
}

/** Revokes one of the caller's tokens; answers once no process takes it any more (`revocationSettled`). */
export async function revokeOwnToken(p: Principal, id: number, opts: ServiceOptions = {}): Promise<ApiToken> {
  const revoked = await inTransaction(opts, async (transaction) => {
    const token = await ApiToken.findOne({ where: { id, userId: p.userId }, transaction });
    if (!token) throw new NotFound('Token');
    if (!token.revokedAt) {
      await token.update({ revokedAt: clockOf(opts).now() }, { transaction });
      await recordAgencyEvent(p, tokenChange('token.revoked', token, null), { clock: opts.clock, transaction });
    }
    return token;
  });
  if (!opts.transaction) await revocationSettled();
  return revoked;
}

function assertManagesTeam(p: Principal): void {
  if (isTeamMember(p)) throw new Forbidden('Team members cannot manage the team.');
}

/** Team members of the organisations the caller manages (a tenant owner: the whole tenant). */
export async function listTeam(p: Principal): Promise<User[]> {
  assertManagesTeam(p);
  const where: Record<string, unknown> = { ...tenantScoped(p), role: 'team_member' };
  if (p.role !== 'tenant_owner') where.customerId = p.customerId ?? -1;
  return User.findAll({ where, order: [['id', 'ASC']] });
}

/**
 * The locations a member is given in an organisation are that organisation's: a location of another organisation of
 * the same account would let a member of A see B.
 */
async function assertLocationsOf(organizationId: number, locationIds: number[], transaction?: Transaction): Promise<void> {
  if (!locationIds.length) return;
  const found = await Location.count({ where: { id: { [Op.in]: locationIds }, organizationId }, transaction });
  if (found !== new Set(locationIds).size) throw new Validation({ location_ids: ['Every location must belong to the organization.'] });
}

export async function addTeamMember(
  p: Principal,
  input: { organizationId: number; email: string; name: string; locationIds: number[]; permissions: string[] },
  opts: ServiceOptions = {},
): Promise<User> {
  assertManagesTeam(p);
  const org = await Organization.findByPk(input.organizationId);
  if (!org || !inAccount(p, org)) throw new NotFound('Organization');
  await assertLocationsOf(org.id, input.locationIds);
  return createUser(
    {
      tenantId: p.tenantId,
      email: input.email,
      name: input.name,
      role: 'team_member',
      organizationId: org.id,
      locationIds: input.locationIds,
      organizationPermissions: input.permissions,
    },
    opts,
  ).catch((e: unknown) => {
    // Two additions of one e-mail at once: the second loses on the unique key and is answered as if it came later.
    if (e instanceof UniqueConstraintError) throw new Validation({ email: ['The email has already been taken.'] });
    throw e;
  });
}

/**
 * Replaces a team member's assigned locations and their permissions in one organisation; no locations and no
 * permissions removes the member from the organisation. Calls for one member run one after the other (its user row is
 * locked first): two at once both deleted the assignments, then each inserted into the other's gap (deadlock, 500).
 * Answers once every process applies the new access (`revocationSettled`).
 */
export async function setTeamMemberAccess(
  p: Principal,
  input: { userId: number; organizationId: number; locationIds: number[]; permissions: string[] },
  opts: ServiceOptions = {},
): Promise<User> {
  assertManagesTeam(p);
  const unknown = input.permissions.filter((x) => !(ORGANIZATION_PERMISSIONS as readonly string[]).includes(x));
  if (unknown.length) throw new Validation({ permissions: [`Unknown organization permissions: ${unknown.join(', ')}.`] });
  const changed = await inTransaction(opts, async (transaction) => {
    const member = await User.findOne({ where: { id: input.userId, ...tenantScoped(p), role: 'team_member' }, transaction, lock: transaction.LOCK.UPDATE });
    if (!member || member.customerId == null || !inAccount(p, { tenantId: member.tenantId, customerId: member.customerId })) {
      throw new NotFound('Team member');
    }
    const org = await Organization.findOne({ where: { id: input.organizationId, customerId: member.customerId }, transaction });
    if (!org) throw new NotFound('Organization');
    await assertLocationsOf(org.id, input.locationIds, transaction);
    const orgLocationIds = (await Location.findAll({ where: { organizationId: org.id }, attributes: ['id'], transaction })).map((l) => l.id);
    await LocationUser.destroy({ where: { ...tenantScoped(member), userId: member.id, locationId: { [Op.in]: [...orgLocationIds, -1] } }, transaction });
    if (!input.locationIds.length && !input.permissions.length) {
      await OrganizationMember.destroy({ where: { ...tenantScoped(member), organizationId: org.id, userId: member.id }, transaction });
      return member;
    }
    for (const locationId of new Set(input.locationIds)) await LocationUser.create({ tenantId: member.tenantId, userId: member.id, locationId }, { transaction });
    await OrganizationMember.upsert(
      { tenantId: member.tenantId, organizationId: org.id, userId: member.id, permissions: input.permissions as typeof ORGANIZATION_PERMISSIONS[number][] },
      { transaction },
    );
    return member;
  });
  if (!opts.transaction) await revocationSettled();
  return changed;
}
