import { fn, col, Op, type Model, type ModelStatic, type WhereOptions } from 'sequelize';
import { NotFound, Validation } from '../domain/errors';
import { signInEmail } from '../domain/email';
import { charCount } from '../domain/limits';
import { CUSTOMER_PERMISSIONS } from '../domain/permissions';
import type { Role } from '../domain/principal';
import { ApiToken, CreditGrant, Customer, Location, Organization, Plan, Tenant, TenantDomain, User } from '../models';
import { createTenant, createUser, findTenant, type CreateTenantInput } from './admin.service';
import { recordAgencyEvent, tokenChange } from './agency-audit.service';
import { issueToken, principalFor } from './auth.service';
import { clockOf, inTransaction, parseDate, type ServiceOptions } from './common';
import { CREDIT_TYPES, creditBalance, grantCredits, isCreditType, LAST_CREDIT_EXPIRY_DAY, MAX_CREDIT_NOTES_CHARS, MAX_CREDITS_PER_CALL, type CreditType } from './credits.service';

/**
 * Platform-operator reads and actions of the CLI that the agency and customer APIs do not offer (they act across
 * tenants, or before any token exists). Like admin.service they run as the operator and take no Principal; every
 * write goes through the service that owns the rule (createUser, organizations.create, grantCredits, issueToken).
 */

/** Rows per list call: operator lists are newest first, `limit` of them. */
export const MAX_LIST_LIMIT = 1000;

function limitOf(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw new Validation({ limit: [`The limit must be between 1 and ${MAX_LIST_LIMIT}.`] });
  }
  return limit;
}

/** `SELECT key, COUNT(*) ... GROUP BY key` over `ids`, as a map (one query per list, not one per row). */
async function countBy(model: ModelStatic<Model>, key: string, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = (await model.findAll({
    attributes: [key, [fn('COUNT', col('id')), 'n']],
    where: { [key]: { [Op.in]: ids } },
    group: [key],
    raw: true,
  })) as unknown as Array<Record<string, number>>;
  return new Map(rows.map((r) => [Number(r[key]), Number(r.n)]));
}

export interface FirstRunInput extends CreateTenantInput {
  taxCalculation?: boolean;
  /** Issue the owner an agency token (`/api/agency/v1`) and a customer token with every customer permission (`/api/v1`). */
  issueTokens?: boolean;
}

/**
 * `tenant:create`: the agency, its domains, default plan and owner (admin.service), and with `issueTokens` the owner's
 * first two tokens, so a fresh installation is usable without anything else. Secrets are returned once.
 */
export async function createAgency(input: FirstRunInput, opts: ServiceOptions = {}) {
  // One transaction: a failure leaves no agency without its tokens (the domain stays free for a retry).
  return inTransaction(opts, async (transaction) => {
    const created = await createTenant(input, { transaction });
    if (input.taxCalculation) await created.tenant.update({ taxCalculationEnabled: true }, { transaction });
    const tokens = [];
    if (input.issueTokens) {
      const t = { transaction, clock: opts.clock };
      const agency = await issueToken(created.owner, { name: 'first run: agency API', kind: 'agency', permissions: [] }, t);
      const customer = await issueToken(created.owner, { name: 'first run: customer API', kind: 'customer', permissions: [...CUSTOMER_PERMISSIONS] }, t);
      tokens.push({ api: '/api/agency/v1', issued: agency }, { api: '/api/v1', issued: customer });
      for (const issued of [agency, customer]) await recordAgencyEvent({ cli: true }, tokenChange('token.created', issued.token, created.owner), t);
    }
    return { ...created, tokens };
  });
}

export async function listTenants(f: { limit: number }) {
  const tenants = await Tenant.findAll({ order: [['id', 'DESC']], limit: limitOf(f.limit) });
  const ids = tenants.map((t) => t.id);
  const [domains, owners, customers] = await Promise.all([
    ids.length ? TenantDomain.findAll({ where: { tenantId: { [Op.in]: ids } }, order: [['id', 'ASC']] }) : [],
    ids.length ? User.findAll({ where: { tenantId: { [Op.in]: ids }, role: 'tenant_owner' }, order: [['id', 'ASC']] }) : [],
    countBy(Customer, 'tenantId', ids),
  ]);
  return {
    total: await Tenant.count(),
    items: tenants.map((t) => ({
      id: t.id,
      name: t.name,
      brandName: t.brandName,
      domains: domains.filter((d) => d.tenantId === t.id).map((d) => d.domain),
      ownerEmails: owners.filter((o) => o.tenantId === t.id).map((o) => o.email),
      customerAccounts: customers.get(t.id) ?? 0,
      taxCalculationEnabled: t.taxCalculationEnabled,
      linkDomain: t.linkDomain ?? null,
      createdAt: t.createdAt,
    })),
  };
}

async function planOf(tenantId: number, ref: string): Promise<Plan> {
  const plan = /^\d+$/.test(ref)
    ? await Plan.findOne({ where: { id: Number(ref), tenantId } })
    : await Plan.findOne({ where: { name: ref, tenantId } });
  if (!plan) throw new NotFound('Plan');
  return plan;
}

export interface CreateOrganizationInput {
  tenantId: number;
  name: string;
  /** The organisation owner: an existing account owner of the tenant, or a new organisation owner with a new account. */
  ownerEmail: string;
  ownerName?: string;
  /** Plan id or name of the new account (default: the tenant's default plan); refused for an existing owner. */
  plan?: string;
  password?: string;
}

/**
 * `org:create`: an organisation (with its Default Location and sources, and its organization-created event) in the
 * account of `ownerEmail`. An unknown e-mail opens a customer account for a new organisation owner first, in the
 * same transaction, as the agency API's customer creation does; a team member cannot own one.
 */
export async function createOrganization(input: CreateOrganizationInput, opts: ServiceOptions = {}) {
  const email = signInEmail(input.ownerEmail);
  const existing = await User.findOne({ where: { tenantId: input.tenantId, email } });
  if (existing && existing.role === 'team_member') {
    throw new Validation({ owner_email: ['A team member cannot own an organization: give an account owner.'] });
  }
  if (existing && input.plan) throw new Validation({ plan: ['The owner has an account already: its plan stays as it is.'] });
  const plan = input.plan ? await planOf(input.tenantId, input.plan) : null;
  // Loaded here so DB-only commands do not pay for what organisation creation imports (files, outbox).
  const organizations = await import('./organizations.service');
  return inTransaction(opts, async (transaction) => {
    const owner =
      existing ??
      (await createUser(
        {
          tenantId: input.tenantId,
          email,
          name: input.ownerName?.trim() || email,
          role: 'organization_owner',
          planId: plan?.id ?? null,
          password: input.password,
        },
        { transaction },
      ));
    // organizations.create is the one rule set for organisations: plan limits, unique names, default location, event.
    const principal = await principalFor(owner, { id: 0, kind: 'customer', permissions: [] });
    const organization = await organizations.create(principal, { name: input.name }, { transaction, clock: opts.clock });
    return { organization, owner, ownerCreated: !existing };
  });
}

export async function listOrganizations(f: { tenantId?: number; customerId?: number; limit: number }) {
  const where: WhereOptions = {};
  if (f.tenantId) Object.assign(where, { tenantId: f.tenantId });
  if (f.customerId) Object.assign(where, { customerId: f.customerId });
  const { rows, count } = await Organization.findAndCountAll({ where, order: [['id', 'DESC']], limit: limitOf(f.limit) });
  const locations = await countBy(Location, 'organizationId', rows.map((o) => o.id));
  return {
    total: count,
    items: rows.map((o) => ({
      id: o.id,
      tenantId: o.tenantId,
      customerId: o.customerId,
      name: o.name,
      locations: locations.get(o.id) ?? 0,
      createdAt: o.createdAt,
    })),
  };
}

export async function listUsers(f: { tenantId?: number; role?: Role; limit: number }) {
  const where: WhereOptions = {};
  if (f.tenantId) Object.assign(where, { tenantId: f.tenantId });
  if (f.role) Object.assign(where, { role: f.role });
  const { rows, count } = await User.findAndCountAll({ where, order: [['id', 'DESC']], limit: limitOf(f.limit) });
  return {
    total: count,
    items: rows.map((u) => ({ id: u.id, tenantId: u.tenantId, customerId: u.customerId, email: u.email, name: u.name, role: u.role, createdAt: u.createdAt })),
  };
}

/** API tokens with their owner; the secret is never stored, only its hash and the prefix tokens are recognised by. */
export async function listTokens(f: { tenantId?: number; userEmail?: string; active?: boolean; limit: number }, opts: ServiceOptions = {}) {
  const where: Record<string | symbol, unknown> = {};
  if (f.tenantId) where.tenantId = f.tenantId;
  if (f.userEmail) {
    const users = await User.findAll({ where: { email: signInEmail(f.userEmail), ...(f.tenantId ? { tenantId: f.tenantId } : {}) }, attributes: ['id'] });
    if (!users.length) throw new NotFound('User');
    where.userId = { [Op.in]: users.map((u) => u.id) };
  }
  if (f.active) {
    where.revokedAt = null;
    where[Op.or] = [{ expiresAt: null }, { expiresAt: { [Op.gt]: clockOf(opts).now() } }];
  }
  const { rows, count } = await ApiToken.findAndCountAll({ where, order: [['id', 'DESC']], limit: limitOf(f.limit) });
  const userIds = [...new Set(rows.map((t) => t.userId))];
  const users = userIds.length ? await User.findAll({ where: { id: { [Op.in]: userIds } }, attributes: ['id', 'email'] }) : [];
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  return {
    total: count,
    items: rows.map((t) => ({
      id: t.id,
      name: t.name,
      kind: t.kind,
      tenantId: t.tenantId,
      user: { id: t.userId, email: emailOf.get(t.userId) ?? null },
      prefix: t.tokenPrefix,
      permissions: t.permissions,
      createdAt: t.createdAt,
      expiresAt: t.expiresAt,
      lastUsedAt: t.lastUsedAt,
      revokedAt: t.revokedAt,
    })),
  };
}

export async function listPlans(tenantRef: string) {
  const tenant = await findTenant(tenantRef);
  const plans = await Plan.findAll({ where: { tenantId: tenant.id }, order: [['id', 'ASC']] });
  const accounts = await countBy(Customer, 'planId', plans.map((p) => p.id));
  return {
    tenant,
    items: plans.map((p) => ({
      id: p.id,
      name: p.name,
      isDefault: p.isDefault,
      isFree: p.isFree,
      isHidden: p.isHidden,
      locationLimit: p.locationLimit,
      memberLimit: p.memberLimit,
      features: p.features ?? [],
      customerAccounts: accounts.get(p.id) ?? 0,
    })),
  };
}

async function accountOf(customerId: number): Promise<Customer> {
  const account = await Customer.findByPk(customerId);
  if (!account) throw new NotFound('Customer');
  return account;
}

/** Balances of a customer account (unexpired credits left) and its grants, newest first. */
export async function creditsOf(customerId: number, opts: ServiceOptions = {}) {
  const account = await accountOf(customerId);
  const balances = {} as Record<CreditType, number>;
  for (const type of CREDIT_TYPES) balances[type] = await creditBalance(account.id, type, opts);
  const grants = await CreditGrant.findAll({ where: { customerId: account.id }, order: [['id', 'DESC']], limit: 50 });
  return {
    account,
    balances,
    grants: grants.map((g) => ({ id: g.id, type: g.type, credits: g.credits, remaining: g.remaining, expiresAt: g.expiresAt, notes: g.notes, createdAt: g.createdAt })),
  };
}

/**
 * A credit grant by the operator, to any customer account of any tenant (the agency API's add-credits is limited to
 * the agency's customers). The same rules as add-credits: email or sms, 1..1,000,000, an expiry day (Y-m-d, today
 * through 9999-12-30) through whose end the credits stay valid, notes of at most 1000 characters.
 */
export async function grantCreditsTo(
  customerId: number,
  input: { type: string; credits: number; expiresOn?: string | null; notes?: string | null },
  opts: ServiceOptions = {},
) {
  const errors: Record<string, string[]> = {};
  if (!isCreditType(input.type)) errors.type = ['The type must be email or sms.'];
  if (!Number.isInteger(input.credits) || input.credits < 1 || input.credits > MAX_CREDITS_PER_CALL) {
    errors.credits = [`The credits must be a whole number between 1 and ${MAX_CREDITS_PER_CALL}.`];
  }
  let expiresAt: Date | null = null;
  if (input.expiresOn) {
    const day = parseDate(input.expiresOn);
    if (!day) errors.expires = ['The expiry must be a date in the format Y-m-d.'];
    else if (input.expiresOn < clockOf(opts).now().toISOString().slice(0, 10)) errors.expires = ['The expiry must be today or later.'];
    else if (input.expiresOn > LAST_CREDIT_EXPIRY_DAY) {
      errors.expires = [`The expiry must be ${LAST_CREDIT_EXPIRY_DAY} or earlier (leave it out for credits that never expire).`];
    } else expiresAt = new Date(day.getTime() + 86_400_000);
  }
  const notes = input.notes?.trim() || null;
  if (notes && charCount(notes) > MAX_CREDIT_NOTES_CHARS) errors.notes = [`The notes may not be greater than ${MAX_CREDIT_NOTES_CHARS} characters.`];
  if (Object.keys(errors).length) throw new Validation(errors);
  const account = await accountOf(customerId);
  const type = input.type as CreditType;
  // The operator CLI's grant is on the agency's audit trail like one through the agency API (actor: the CLI).
  const balance = await inTransaction(opts, async (transaction) => {
    const before = await creditBalance(account.id, type, { ...opts, transaction });
    const after = await grantCredits(account, { type, credits: input.credits, expiresAt, notes }, { ...opts, transaction });
    await recordAgencyEvent(
      { cli: true },
      {
        tenantId: account.tenantId,
        action: 'customer.credits_added',
        subjectType: 'customer',
        subjectId: account.id,
        customerId: account.id,
        before: { type, balance: before },
        after: { type, balance: after, credits: input.credits, expires_at: expiresAt, notes },
      },
      { ...opts, transaction },
    );
    return after;
  });
  return { account, type, balance, expiresAt };
}
