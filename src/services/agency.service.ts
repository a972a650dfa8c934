import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { Op, QueryTypes, UniqueConstraintError, type Transaction } from 'sequelize';
import type { Logger } from 'pino';
import { Conflict, Forbidden, NotFound, PlanLimit, Validation, ruleViolation, type FieldErrors } from '../domain/errors';
import { isAccountEmail, signInEmail } from '../domain/email';
import { charCount } from '../domain/limits';
import type { Principal } from '../domain/principal';
import { sendSafely } from '../providers/smtp/platform-mailer';
import { Country, Customer, Location, Organization, Plan, StoredFile, Tenant, User } from '../models';
import { subscriptionHeld } from '../models/customer.model';
import { createUser } from './admin.service';
import { principalFor } from './auth.service';
import { cleanName, clockOf, inTransaction, offset, type Page, type PageArgs, parseDate, type ServiceOptions, tenantScoped } from './common';
import { recordAgencyEvent, recordConnectLink } from './agency-audit.service';
import { connectUrlOf, issueConnectLink } from './connect-links.service';
import { tenantLinkBase } from './link-domain.service';
import { creditBalance, grantCredits, isCreditType, LAST_CREDIT_EXPIRY_DAY, MAX_CREDIT_NOTES_CHARS } from './credits.service';
import * as organizations from './organizations.service';
import { containsPattern } from '../db/like';
import { isUiLanguage, languageOf, translator } from '../i18n';

/**
 * The agency API (spec: Agency API): the tenant owner's customer accounts, their plans, limits, credits and
 * subscription. Every call acts for the token's tenant; a customer of another tenant is 404. The agency's own
 * workspace account (the tenant owner's) is not one of its customers: it is neither listed nor changeable here.
 */

/** Connect links e-mailed on customer creation live 7 days (spec: Limits, customer-creation links). */
export const CUSTOMER_CONNECT_LINK_TTL_DAYS = 7;

/** Only an agency token of a tenant owner acts here (checked by the schema too; here so no path can skip it). */
export function assertAgency(p: Principal): void {
  if (p.tokenKind !== 'agency' || p.role !== 'tenant_owner') {
    throw new Forbidden('The agency API needs an agency token of the tenant owner.', 'agency_token_required');
  }
}

export interface CustomerView {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  language: string;
  trialEndsAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  subscriptionStatus: string;
  locationLimit: number | null;
  memberLimit: number | null;
  country: string | null;
  postalCode: string | null;
  customPlan: { id: number; name: string } | null;
  organizations: Array<{ id: number; name: string }>;
}

/** The accounts of the tenant owners themselves (the agency's workspace), kept out of the customer list. */
async function ownAccountIds(tenantId: number, transaction?: Transaction): Promise<number[]> {
  const owners = await User.findAll({ where: { tenantId, role: 'tenant_owner' }, attributes: ['customerId'], transaction });
  return [...new Set(owners.map((o) => o.customerId).filter((id): id is number => id != null))];
}

/** A customer account of the caller's tenant, or 404 (another tenant's, the agency's own, or none). */
async function customerOf(p: Principal, id: number, transaction?: Transaction, lock = false): Promise<Customer> {
  assertAgency(p);
  const customer = await Customer.findOne({
    where: { id, ...tenantScoped(p) },
    transaction,
    lock: lock && transaction ? transaction.LOCK.UPDATE : undefined,
  });
  if (!customer || (await ownAccountIds(p.tenantId, transaction)).includes(customer.id)) throw new NotFound('Customer');
  return customer;
}

/** The Customer resource for a set of accounts: plans and organisations in one query each. */
async function views(customers: Customer[], transaction?: Transaction): Promise<CustomerView[]> {
  if (!customers.length) return [];
  const ids = customers.map((c) => c.id);
  const planIds = [...new Set(customers.map((c) => c.planId).filter((id): id is number => id != null))];
  const [plans, orgs] = await Promise.all([
    planIds.length ? Plan.findAll({ where: { id: { [Op.in]: planIds } }, attributes: ['id', 'name'], transaction }) : [],
    Organization.findAll({ where: { customerId: { [Op.in]: ids } }, attributes: ['id', 'name', 'customerId'], order: [['id', 'ASC']], transaction }),
  ]);
  const planById = new Map(plans.map((pl) => [pl.id, pl]));
  return customers.map((c) => {
    const plan = c.planId != null ? planById.get(c.planId) : undefined;
    return {
      id: c.id,
      name: c.name,
      email: c.email,
      phone: c.phone,
      language: c.language,
      trialEndsAt: c.trialEndsAt,
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      subscriptionStatus: c.subscriptionStatus,
      locationLimit: c.locationLimit,
      memberLimit: c.memberLimit,
      country: c.country,
      postalCode: c.postalCode,
      customPlan: plan ? { id: plan.id, name: plan.name } : null,
      organizations: orgs.filter((o) => o.customerId === c.id).map((o) => ({ id: o.id, name: o.name })),
    };
  });
}

async function viewOf(customer: Customer, transaction?: Transaction): Promise<CustomerView> {
  return (await views([customer], transaction))[0];
}

export async function getCustomer(p: Principal, id: number): Promise<CustomerView> {
  return viewOf(await customerOf(p, id));
}

/** Customers of the tenant, newest first; `search` matches the name or the e-mail (substring, any case). */
export async function listCustomers(p: Principal, f: PageArgs & { search?: string | null }): Promise<Page<CustomerView>> {
  assertAgency(p);
  const where: Record<string | symbol, unknown> = { ...tenantScoped(p), id: { [Op.notIn]: [...(await ownAccountIds(p.tenantId)), 0] } };
  const search = f.search?.trim();
  if (search) {
    const like = containsPattern(search);
    where[Op.or] = [{ name: { [Op.like]: like } }, { email: { [Op.like]: like } }];
  }
  const { rows, count } = await Customer.findAndCountAll({ where, order: [['id', 'DESC']], ...offset(f) });
  return { items: await views(rows), total: count, page: f.page, perPage: f.perPage };
}

/** The agency's custom plans, in creation order (hidden ones included: the agency assigns them too). */
export async function listPlans(p: Principal): Promise<Plan[]> {
  assertAgency(p);
  return Plan.findAll({ where: tenantScoped(p), order: [['id', 'ASC']] });
}

async function planOf(p: Principal, ref: string, transaction?: Transaction): Promise<Plan | null> {
  const id = ref.trim();
  if (!/^\d{1,10}$/.test(id)) return null;
  return Plan.findOne({ where: { id: Number(id), ...tenantScoped(p) }, transaction });
}

const INVALID_PLAN = 'The selected custom plan id is invalid.';

function limitError(value: number | null | undefined, field: string, errors: FieldErrors): void {
  if (value === undefined || value === null) return;
  if (!Number.isInteger(value) || value < 0 || value > 2_147_483_647) {
    (errors[field] ??= []).push(`The ${field.replace(/_/g, ' ')} must be an integer of at least 0 (0 = unlimited).`);
  }
}

export interface CreateCustomerInput {
  name: string;
  company: string;
  email: string;
  password: string;
  customPlanId: string;
  phone?: string | null;
  locationLimit?: number | null;
  memberLimit?: number | null;
  sendInvite?: boolean | null;
  sendGoogleConnectLink?: boolean | null;
  sendFacebookConnectLink?: boolean | null;
  country?: string | null;
  postalCode?: string | null;
  /** ISO 639-1, one of UI_LANGUAGES; default: the agency's language. */
  language?: string | null;
}

const POSTAL_CODES: Record<string, RegExp> = {
  US: /^\d{5}(-\d{4})?$/,
  CA: /^[A-Za-z]\d[A-Za-z][ -]?\d[A-Za-z]\d$/,
};

/** E.164 (`+` and the full international number), normalised; null when it is not a valid number. */
export function e164(phone: string): string | null {
  const trimmed = phone.trim();
  if (!/^\+[1-9]\d{1,14}$/.test(trimmed)) return null;
  const parsed = parsePhoneNumberFromString(trimmed);
  return parsed?.isValid() ? parsed.number : null;
}

/** Every field rule of POST /customers at once, so the 422 names every offending field. */
async function validateCreate(p: Principal, input: CreateCustomerInput, tenant: Tenant): Promise<{ plan: Plan; phone: string | null; country: string | null; postalCode: string | null; language: string }> {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  // The rules of every name (required, one line, at most 255 characters), each under its own field: the company's
  // control character was reported under `name` by the organisation it becomes, and only once the rest had passed.
  for (const [field, value] of [['name', input.name], ['company', input.company]] as const) {
    try {
      cleanName(value, field);
    } catch (e) {
      if (!(e instanceof Validation)) throw e;
      for (const [f, messages] of Object.entries(e.fields ?? {})) for (const m of messages) add(f, m);
    }
  }
  const email = signInEmail(input.email);
  if (!email) add('email', 'The email field is required.');
  // The length before the pattern (isAccountEmail): a 200 KB value took the pattern 44 s.
  else if (!isAccountEmail(email)) add('email', 'The email must be a valid email address.');
  else if (await User.count({ where: { ...tenantScoped(p), email } })) add('email', 'The email has already been taken.');
  if (!input.password) add('password', 'The password field is required.');
  else if (input.password.length < 8) add('password', 'The password must be at least 8 characters.');
  else if (input.password.length > 255) add('password', 'The password may not be greater than 255 characters.');
  const plan = input.customPlanId.trim() ? await planOf(p, input.customPlanId) : null;
  if (!input.customPlanId.trim()) add('custom_plan_id', 'The custom plan id field is required.');
  else if (!plan) add('custom_plan_id', INVALID_PLAN);
  let phone: string | null = null;
  if (input.phone != null && input.phone.trim() !== '') {
    phone = e164(input.phone);
    if (!phone) add('phone', 'The phone must be a valid phone number in E.164 format (for example +14155552671).');
  }
  limitError(input.locationLimit, 'location_limit', errors);
  limitError(input.memberLimit, 'member_limit', errors);
  let country: string | null = null;
  if (input.country != null && input.country.trim() !== '') {
    country = input.country.trim().toUpperCase();
    if (!/^[A-Z]{2}$/.test(country) || !(await Country.findByPk(country))) {
      add('country', 'The country must be an ISO 3166-1 alpha-2 code.');
      country = null;
    }
  } else if (tenant.taxCalculationEnabled) {
    add('country', 'The country field is required when tax calculation is enabled.');
  }
  const postalCode = input.postalCode?.trim() || null;
  if (postalCode && postalCode.length > 32) add('postal_code', 'The postal code may not be greater than 32 characters.');
  if (country && country in POSTAL_CODES) {
    if (!postalCode && tenant.taxCalculationEnabled) {
      add('postal_code', `The postal code field is required for ${country} when tax calculation is enabled.`);
    } else if (postalCode && !POSTAL_CODES[country].test(postalCode)) {
      add('postal_code', `The postal code is not a valid ${country} postal code.`);
    }
  }
  const language = languageOf(input.language, errors) ?? (isUiLanguage(tenant.language) ? tenant.language : 'en');
  if (Object.keys(errors).length) throw new Validation(errors);
  return { plan: plan!, phone, country, postalCode, language };
}

export interface CreateCustomerOptions extends ServiceOptions {
  /** Origin of the login URL in the invitation (the white-label domain the agency's request came in on). */
  baseUrl: string;
  logger?: Logger;
}

/**
 * Opens a customer account: the organisation owner (the login, password stored hashed), the account on the
 * plan with the given limit overrides, the organisation `company` with its Default Location, and (when asked)
 * connect links for that location, all in one transaction. E-mails go out after the commit; a mail that
 * cannot be sent is logged and changes nothing.
 */
export async function createCustomer(p: Principal, input: CreateCustomerInput, opts: CreateCustomerOptions): Promise<CustomerView> {
  assertAgency(p);
  const tenant = await Tenant.findByPk(p.tenantId);
  if (!tenant) throw new NotFound('Tenant');
  const valid = await validateCreate(p, input, tenant);
  const providers = [
    ...(input.sendGoogleConnectLink ? (['google'] as const) : []),
    ...(input.sendFacebookConnectLink ? (['facebook'] as const) : []),
  ];
  const { customer, links, company } = await inTransaction(opts, async (transaction) => {
    // (A concurrent creation with the same login e-mail loses on the unique key: see the catch below.)
    const owner = await createUser(
      {
        tenantId: p.tenantId,
        email: input.email,
        name: input.name,
        role: 'organization_owner',
        password: input.password,
        planId: valid.plan.id,
      },
      { transaction },
    );
    const account = (await Customer.findByPk(owner.customerId!, { transaction }))!;
    await account.update(
      {
        phone: valid.phone,
        locationLimit: input.locationLimit ?? null,
        memberLimit: input.memberLimit ?? null,
        country: valid.country,
        postalCode: valid.postalCode,
        language: valid.language,
      },
      { transaction },
    );
    const ownerPrincipal = await principalFor(owner, { id: 0, kind: 'customer', permissions: [] });
    const org = await organizations.create(ownerPrincipal, { name: input.company }, { transaction, clock: opts.clock });
    const issued = [];
    for (const provider of providers) {
      issued.push(
        await issueConnectLink(
          { tenantId: p.tenantId, locationId: org.defaultLocationId!, provider, ttlDays: CUSTOMER_CONNECT_LINK_TTL_DAYS },
          { transaction, clock: opts.clock },
        ),
      );
    }
    await recordAgencyEvent(
      p,
      {
        action: 'customer.created',
        subjectType: 'customer',
        subjectId: account.id,
        customerId: account.id,
        after: { name: input.name, email: input.email, company: org.name, plan_id: valid.plan.id, location_limit: input.locationLimit ?? null, member_limit: input.memberLimit ?? null },
      },
      { transaction, clock: opts.clock },
    );
    for (const link of issued) await recordConnectLink(p, 'connect_link.created', link, { transaction, clock: opts.clock });
    return { customer: account, links: issued, company: org.name };
  }).catch((e: unknown) => {
    if (e instanceof UniqueConstraintError) throw new Validation({ email: ['The email has already been taken.'] });
    throw e;
  });

  const brand = tenant.brandName;
  const to = customer.email;
  if (input.sendInvite) {
    await sendSafely(
      inviteMail({ brand, name: customer.name, company, email: to, startUrl: `${opts.baseUrl.replace(/\/+$/, '')}/docs`, language: customer.language }),
      opts.logger,
    );
  }
  const linkBase = links.length ? await tenantLinkBase(tenant.id) : undefined;
  for (const link of links) {
    await sendSafely(
      connectLinkMail({ brand, name: customer.name, company, to, provider: link.provider, url: connectUrlOf(link.token, linkBase), expiresAt: link.expiresAt, language: customer.language }),
      opts.logger,
    );
  }
  return viewOf((await Customer.findByPk(customer.id))!);
}

/**
 * The login details: the login e-mail and where to start, never the password (see docs/decisions/agency-api.md). The platform has
 * no sign-in page of its own (customers use the APIs, MCP and the public pages), so "where to start" is the account's
 * API reference on the origin the agency called, its white-label domain, in its brand: `/docs`.
 */
export function inviteMail(m: { brand: string; name: string; company: string; email: string; startUrl: string; language?: string | null }) {
  const tr = translator(m.language);
  return {
    kind: 'customer-invite',
    to: m.email,
    fromName: m.brand,
    subject: tr.t('mail.accountReadySubject', { brand: m.brand }),
    text: [
      tr.t('mail.hello', { name: m.name }),
      '',
      tr.t('mail.accountOpened', { brand: m.brand, company: m.company }),
      '',
      tr.t('mail.loginEmail', { email: m.email }),
      tr.t('mail.noPassword', { brand: m.brand }),
      '',
      tr.t('mail.getStarted', { url: m.startUrl }),
      '',
      `- ${m.brand}`,
    ].join('\n'),
  };
}

export function connectLinkMail(m: {
  brand: string;
  name: string;
  company: string;
  to: string;
  provider: 'google' | 'facebook';
  url: string;
  expiresAt: Date;
  language?: string | null;
}) {
  const tr = translator(m.language);
  const thing = tr.t(`mail.providers.${m.provider}`);
  const date = new Intl.DateTimeFormat(tr.language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(m.expiresAt);
  return {
    kind: `connect-link-${m.provider}`,
    to: m.to,
    fromName: m.brand,
    subject: tr.t('mail.connectSubject', { thing, brand: m.brand }),
    text: [
      tr.t('mail.hello', { name: m.name }),
      '',
      tr.t('mail.connectAsk', { brand: m.brand, thing, company: m.company }),
      '',
      tr.t('mail.connectOpen', { url: m.url }),
      '',
      tr.t('mail.connectValid', { date }),
      '',
      `- ${m.brand}`,
    ].join('\n'),
  };
}

/** PUT /customers/{customer}: moves the account to another plan of the agency (and, when given, sets its language). */
export async function changePlan(
  p: Principal,
  id: number,
  customPlanId: string,
  opts: ServiceOptions & { language?: string | null } = {},
): Promise<CustomerView> {
  assertAgency(p);
  const errors: FieldErrors = {};
  const language = languageOf(opts.language, errors);
  if (Object.keys(errors).length) throw new Validation(errors);
  return inTransaction(opts, async (transaction) => {
    const customer = await customerOf(p, id, transaction, true);
    const plan = await planOf(p, customPlanId, transaction);
    if (!plan) throw new Validation({ custom_plan_id: [INVALID_PLAN] });
    const before = { plan_id: customer.planId, ...(language ? { language: customer.language } : {}) };
    await customer.update({ planId: plan.id, ...(language ? { language } : {}) }, { transaction });
    await recordAgencyEvent(
      p,
      {
        action: 'customer.plan_changed',
        subjectType: 'customer',
        subjectId: customer.id,
        customerId: customer.id,
        before,
        after: { plan_id: plan.id, plan_name: plan.name, ...(language ? { language } : {}) },
      },
      { transaction, clock: opts.clock },
    );
    return viewOf(customer, transaction);
  });
}

/** PUT location-limit / member-limit: the account's own limit, overriding the plan's; 0 = unlimited. */
export async function setLimit(
  p: Principal,
  id: number,
  which: 'location' | 'member',
  value: number,
  opts: ServiceOptions = {},
): Promise<Customer> {
  assertAgency(p);
  const errors: FieldErrors = {};
  limitError(value, `${which}_limit`, errors);
  if (Object.keys(errors).length) throw new Validation(errors);
  return inTransaction(opts, async (transaction) => {
    const customer = await customerOf(p, id, transaction, true);
    const field = `${which}_limit`;
    const before = { [field]: which === 'location' ? customer.locationLimit : customer.memberLimit };
    await customer.update(which === 'location' ? { locationLimit: value } : { memberLimit: value }, { transaction });
    await recordAgencyEvent(
      p,
      { action: `customer.${which}_limit_changed`, subjectType: 'customer', subjectId: customer.id, customerId: customer.id, before, after: { [field]: value } },
      { transaction, clock: opts.clock },
    );
    return customer;
  });
}

/** POST add-credits: a grant of email or SMS credits; answers the balance of that type afterwards. */
export async function addCredits(
  p: Principal,
  id: number,
  input: { type: string; credits: number; expiresAt?: string | null; notes?: string | null },
  opts: ServiceOptions = {},
): Promise<number> {
  assertAgency(p);
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (!isCreditType(input.type)) add('type', 'The selected type is invalid (email or sms).');
  if (!Number.isInteger(input.credits) || input.credits < 1) add('credits', 'The credits must be at least 1.');
  else if (input.credits > 1_000_000) add('credits', 'The credits may not be greater than 1000000.');
  let expiresAt: Date | null = null;
  if (input.expiresAt != null && input.expiresAt !== '') {
    const day = parseDate(input.expiresAt);
    const today = clockOf(opts).now().toISOString().slice(0, 10);
    if (!day) add('expires_at', 'The expires at does not match the format Y-m-d.');
    else if (input.expiresAt < today) add('expires_at', 'The expires at must be a date after or equal to today.');
    // It lapses at the next midnight, which the database must hold (9999-12-31 was a 500).
    else if (input.expiresAt > LAST_CREDIT_EXPIRY_DAY) add('expires_at', `The expires at must be a date before or equal to ${LAST_CREDIT_EXPIRY_DAY} (leave it out for credits that never expire).`);
    // Valid through the whole day given (UTC): it lapses at the midnight that ends it.
    else expiresAt = new Date(day.getTime() + 86_400_000);
  }
  const notes = input.notes?.trim() || null;
  if (notes && charCount(notes) > MAX_CREDIT_NOTES_CHARS) add('notes', `The notes may not be greater than ${MAX_CREDIT_NOTES_CHARS} characters.`);
  if (Object.keys(errors).length) throw new Validation(errors);
  return inTransaction(opts, async (transaction) => {
    const customer = await customerOf(p, id, transaction, true);
    const type = input.type as 'email' | 'sms';
    const before = await creditBalance(customer.id, type, { transaction, clock: opts.clock });
    const balance = await grantCredits(customer, { type, credits: input.credits, expiresAt, notes }, { transaction, clock: opts.clock });
    await recordAgencyEvent(
      p,
      {
        action: 'customer.credits_added',
        subjectType: 'customer',
        subjectId: customer.id,
        customerId: customer.id,
        before: { type, balance: before },
        after: { type, balance, credits: input.credits, expires_at: expiresAt, notes },
      },
      { transaction, clock: opts.clock },
    );
    return balance;
  });
}

export async function balanceOf(p: Principal, id: number, type: 'email' | 'sms', opts: ServiceOptions = {}): Promise<number> {
  const customer = await customerOf(p, id);
  return creditBalance(customer.id, type, opts);
}

/**
 * Pause / resume (spec: States > Customer subscription). Only for a plan not linked to a payment provider
 * (no monthly and no yearly price id): otherwise 422 `plan_linked_to_payment_provider`. Pausing a paused
 * account or resuming an active one is 409.
 */
export async function setPaused(p: Principal, id: number, paused: boolean, opts: ServiceOptions = {}): Promise<Customer> {
  assertAgency(p);
  return inTransaction(opts, async (transaction) => {
    const customer = await customerOf(p, id, transaction, true);
    const plan = customer.planId != null ? await Plan.findByPk(customer.planId, { transaction }) : null;
    if (plan && (plan.billingMonthlyId !== '' || plan.billingYearlyId !== '')) {
      throw ruleViolation(
        `The plan "${plan.name}" is linked to a payment provider: its subscription is ${paused ? 'paused' : 'resumed'} through the payment provider, not here.`,
        'plan_linked_to_payment_provider',
      );
    }
    if (paused && customer.subscriptionStatus !== 'active') {
      throw new Conflict(`The subscription is already ${customer.subscriptionStatus}.`, customer.subscriptionStatus === 'paused' ? 'already_paused' : 'not_active');
    }
    if (!paused && customer.subscriptionStatus !== 'paused') {
      throw new Conflict(`The subscription is not paused (it is ${customer.subscriptionStatus}).`, 'not_paused');
    }
    const before = { subscription_status: customer.subscriptionStatus };
    await customer.update({ subscriptionStatus: paused ? 'paused' : 'active' }, { transaction });
    await recordAgencyEvent(
      p,
      { action: paused ? 'customer.paused' : 'customer.resumed', subjectType: 'customer', subjectId: customer.id, customerId: customer.id, before, after: { subscription_status: customer.subscriptionStatus } },
      { transaction, clock: opts.clock },
    );
    return customer;
  });
}

/** Whether the account's subscription is paused (or canceled: `subscriptionHeld`): its users may read but not write. */
export async function isAccountPaused(customerId: number): Promise<boolean> {
  const account = await Customer.findByPk(customerId, { attributes: ['id', 'subscriptionStatus'] });
  return subscriptionHeld(account?.subscriptionStatus);
}

/** 402 `subscription_paused` for a write by a user of a paused account (agency tokens are never held back). */
export async function assertWritable(p: Principal): Promise<void> {
  if (p.tokenKind === 'agency' || p.customerId == null) return;
  if (await isAccountPaused(p.customerId)) {
    throw new PlanLimit('The subscription of this account is paused: changes are not possible until it is resumed.', 'subscription_paused');
  }
}

/**
 * How many organisation ids a `customer.deleted` entry lists (the first, by id); `organization_count` is always whole.
 * The entry's state is a TEXT column (64 KB): a customer with thousands of organisations made the entry, and so the
 * deletion, fail. The organisations' own organization-deleted events name every one of them.
 */
export const AUDIT_ORGANIZATION_IDS = 100;

/**
 * DELETE /customers/{customer}: permanent. The account row goes and the database cascades everything that
 * hangs off it (users and their tokens, organisations, locations, sources, reviews, receivers and deliveries,
 * credits, connect links); the stored logo and avatar files are removed with it; NFC orders stay with the
 * agency, unlinked. location-deleted and organization-deleted events are written as for a deleted organisation.
 */
export async function deleteCustomer(p: Principal, id: number, opts: ServiceOptions = {}): Promise<void> {
  assertAgency(p);
  const clock = clockOf(opts);
  await inTransaction(opts, async (transaction) => {
    const customer = await customerOf(p, id, transaction, true);
    const orgs = await Organization.findAll({ where: { customerId: customer.id }, order: [['id', 'ASC']], transaction });
    const locations = await Location.findAll({ where: { customerId: customer.id }, order: [['id', 'ASC']], transaction });
    const avatars = await Customer.sequelize!.query<{ id: string }>(
      'SELECT DISTINCT avatar_file_id AS id FROM reviews WHERE customer_id = ? AND avatar_file_id IS NOT NULL',
      { replacements: [customer.id], type: QueryTypes.SELECT, transaction },
    );
    const fileIds = [...orgs.map((o) => o.logoFileId).filter((f): f is string => Boolean(f)), ...avatars.map((a) => a.id)];
    await recordAgencyEvent(
      p,
      {
        action: 'customer.deleted',
        subjectType: 'customer',
        subjectId: customer.id,
        before: {
          name: customer.name,
          email: customer.email,
          plan_id: customer.planId,
          organizations: orgs.slice(0, AUDIT_ORGANIZATION_IDS).map((o) => o.id),
          organization_count: orgs.length,
          organizations_truncated: orgs.length > AUDIT_ORGANIZATION_IDS,
          locations: locations.length,
        },
      },
      { transaction, clock },
    );
    await customer.destroy({ transaction });
    if (fileIds.length) await StoredFile.destroy({ where: { id: { [Op.in]: fileIds }, tenantId: customer.tenantId }, transaction });
    for (const org of orgs) {
      await organizations.deletedEvents(org, locations.filter((l) => l.organizationId === org.id), transaction, { clock });
    }
  });
}

/** Operator switch (CLI): whether the tenant calculates tax, which makes country / postal code required. */
export async function setTaxCalculation(tenantId: number, enabled: boolean): Promise<Tenant> {
  const tenant = await Tenant.findByPk(tenantId);
  if (!tenant) throw new NotFound('Tenant');
  await tenant.update({ taxCalculationEnabled: enabled });
  return tenant;
}
