import bcrypt from 'bcryptjs';
import { Op } from 'sequelize';
import { NotFound, Validation } from '../domain/errors';
import { isAccountEmail, signInEmail } from '../domain/email';
import { ORGANIZATION_PERMISSIONS, type OrganizationPermission } from '../domain/permissions';
import type { Role } from '../domain/principal';
import { Customer, Location, LocationUser, Organization, OrganizationMember, Plan, Tenant, TenantDomain, User } from '../models';
import { cleanName, inTransaction, type ServiceOptions } from './common';
import { assertMemberCapacity } from './plans.service';

/**
 * Operator actions (the CLI, the demo seed, later the agency API): set up tenants, users and their scope.
 * These run as the platform operator, so they take no Principal.
 */

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

function assertEmail(email: string): string {
  const e = signInEmail(email);
  // The length before the pattern (isAccountEmail): a 200 KB value took the pattern 44 s.
  if (!isAccountEmail(e)) throw new Validation({ email: ['The email must be a valid email address.'] });
  return e;
}

export async function hashPassword(password: string): Promise<string> {
  if (password.length < 8) throw new Validation({ password: ['The password must be at least 8 characters.'] });
  return bcrypt.hash(password, 10);
}

export interface CreateTenantInput {
  name: string;
  brandName?: string;
  domains: string[];
  ownerEmail: string;
  ownerName?: string;
  password?: string;
}

/** An agency with its domains, a default plan, the owner's own workspace account and the owner. */
export async function createTenant(input: CreateTenantInput, opts: ServiceOptions = {}) {
  const name = cleanName(input.name);
  // Optional: blank takes the name; otherwise the rules of any name (a brand or owner name past 255 characters was a
  // database error).
  const brandName = input.brandName?.trim() ? cleanName(input.brandName, 'brand') : name;
  const ownerName = input.ownerName?.trim() ? cleanName(input.ownerName, 'owner_name') : name;
  const domains = input.domains.map((d) => d.trim().toLowerCase()).filter(Boolean);
  for (const d of domains) if (!DOMAIN.test(d)) throw new Validation({ domain: [`"${d}" is not a valid domain name.`] });
  const email = assertEmail(input.ownerEmail);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return inTransaction(opts, async (transaction) => {
    if (domains.length && (await TenantDomain.count({ where: { domain: { [Op.in]: domains } }, transaction }))) {
      throw new Validation({ domain: ['The domain is already used by another tenant.'] });
    }
    const tenant = await Tenant.create({ name, brandName }, { transaction });
    for (const domain of domains) await TenantDomain.create({ tenantId: tenant.id, domain }, { transaction });
    const plan = await Plan.create(
      { tenantId: tenant.id, name: 'Standard', isDefault: true, isFree: true, locationLimit: 0, memberLimit: 0, features: [] },
      { transaction },
    );
    const account = await Customer.create({ tenantId: tenant.id, name, email, planId: plan.id }, { transaction });
    const owner = await User.create(
      { tenantId: tenant.id, customerId: account.id, email, name: ownerName, role: 'tenant_owner', passwordHash },
      { transaction },
    );
    return { tenant, plan, account, owner };
  });
}

/**
 * The operator's `--tenant`: an id, one of the tenant's domains, or its name. Names need not be unique: a name that
 * several tenants share is refused (the operator gives the id or a domain), never resolved to one of them.
 */
export async function findTenant(ref: string): Promise<Tenant> {
  const byId = /^\d+$/.test(ref) ? await Tenant.findByPk(Number(ref)) : null;
  if (byId) return byId;
  const domain = await TenantDomain.findOne({ where: { domain: ref.toLowerCase() } });
  if (domain) {
    const tenant = await Tenant.findByPk(domain.tenantId);
    if (tenant) return tenant;
  }
  const named = await Tenant.findAll({ where: { name: ref }, order: [['id', 'ASC']], limit: 11 });
  if (named.length > 1) {
    const ids = named.slice(0, 10).map((t) => t.id).join(', ');
    throw new Validation({ tenant: [`${named.length > 10 ? 'More than 10' : named.length} tenants are named "${ref}" (ids ${ids}${named.length > 10 ? ', ...' : ''}): give the id or a domain.`] });
  }
  if (!named.length) throw new NotFound('Tenant');
  return named[0];
}

export interface CreateUserInput {
  tenantId: number;
  email: string;
  name: string;
  role: Role;
  /**
   * Organisation owners: join this organisation's account (else a new account is opened for them). Team members:
   * required. Tenant owners: refused; they join the agency's own account (that of the tenant's first owner).
   */
  organizationId?: number | null;
  /** Team members: assigned locations (of the organisation's account). */
  locationIds?: number[];
  /** Team members: permissions in the organisation, e.g. `create-locations`. */
  organizationPermissions?: string[];
  password?: string;
  planId?: number | null;
}

export async function createUser(input: CreateUserInput, opts: ServiceOptions = {}): Promise<User> {
  const email = assertEmail(input.email);
  const name = cleanName(input.name);
  const unknownPerms = (input.organizationPermissions ?? []).filter((p) => !(ORGANIZATION_PERMISSIONS as readonly string[]).includes(p));
  if (unknownPerms.length) {
    throw new Validation({ permissions: [`Unknown organization permissions: ${unknownPerms.join(', ')}. Known: ${ORGANIZATION_PERMISSIONS.join(', ')}.`] });
  }
  // Organisation permissions are a team member's (an owner holds every permission of its account): given to another
  // role they were once dropped without a word, so `user:create --role organization_owner --permissions ...` seemed to work.
  if (input.role !== 'team_member' && (input.organizationPermissions ?? []).length) {
    throw new Validation({ permissions: ['Only team members are given organization permissions: an owner holds every permission of its account.'] });
  }
  // A tenant owner sees and hears every account of the tenant (its receivers get every account's events; its account
  // is left out of the agency's customer list): put into a customer's account, it would make that account the agency's.
  if (input.role === 'tenant_owner' && input.organizationId != null) {
    throw new Validation({ organization: ["A tenant owner belongs to the agency's own account: an organization is for organization owners and team members only."] });
  }
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return inTransaction(opts, async (transaction) => {
    if (await User.count({ where: { tenantId: input.tenantId, email }, transaction })) {
      throw new Validation({ email: ['The email has already been taken.'] });
    }
    const org = input.organizationId
      ? await Organization.findOne({ where: { id: input.organizationId, tenantId: input.tenantId }, transaction })
      : null;
    if (input.organizationId && !org) throw new NotFound('Organization');

    let customerId: number | null;
    if (input.role === 'tenant_owner') {
      // The agency's own account: the one `createTenant` opened for the first owner.
      const existing = await User.findOne({ where: { tenantId: input.tenantId, role: 'tenant_owner' }, order: [['id', 'ASC']], transaction });
      customerId = existing?.customerId ?? null;
    } else if (input.role === 'organization_owner') {
      if (org) customerId = org.customerId;
      else {
        const plan = input.planId
          ? await Plan.findOne({ where: { id: input.planId, tenantId: input.tenantId }, transaction })
          : await Plan.findOne({ where: { tenantId: input.tenantId, isDefault: true }, transaction });
        customerId = (await Customer.create({ tenantId: input.tenantId, name, email, planId: plan?.id ?? null }, { transaction })).id;
      }
    } else {
      if (!org) throw new Validation({ organization: ['A team member needs an organization.'] });
      customerId = org.customerId;
      await assertMemberCapacity(customerId, transaction);
    }

    const locationIds = [...new Set(input.locationIds ?? [])];
    if (locationIds.length) {
      if (input.role !== 'team_member') throw new Validation({ locations: ['Only team members are assigned locations.'] });
      const found = await Location.count({ where: { id: { [Op.in]: locationIds }, customerId: customerId! }, transaction });
      if (found !== locationIds.length) throw new Validation({ locations: ["Every location must belong to the organization's account."] });
    }
    const user = await User.create(
      { tenantId: input.tenantId, customerId, email, name, role: input.role, passwordHash, dashboardLocationId: locationIds[0] ?? null },
      { transaction },
    );
    for (const locationId of locationIds) await LocationUser.create({ tenantId: user.tenantId, locationId, userId: user.id }, { transaction });
    if (input.role === 'team_member' && org) {
      await OrganizationMember.create(
        { tenantId: user.tenantId, organizationId: org.id, userId: user.id, permissions: (input.organizationPermissions ?? []) as OrganizationPermission[] },
        { transaction },
      );
    }
    return user;
  });
}

export async function findUser(email: string, tenantRef?: string): Promise<User> {
  const where: Record<string, unknown> = { email: signInEmail(email) };
  if (tenantRef) where.tenantId = (await findTenant(tenantRef)).id;
  const users = await User.findAll({ where, limit: 2 });
  if (users.length === 0) throw new NotFound('User');
  if (users.length > 1) throw new Validation({ tenant: ['Several tenants have a user with this email: pass --tenant.'] });
  return users[0];
}

/** Whether a host name is one of the tenants' domains (the MCP endpoint's Host and Origin checks). */
export async function isTenantDomain(name: string): Promise<boolean> {
  return (await TenantDomain.count({ where: { domain: name.toLowerCase() } })) > 0;
}
