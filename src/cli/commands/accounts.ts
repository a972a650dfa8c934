import { DAY_MS, dayOf, startOf } from '../../domain/days';
import type { Role, TokenKind } from '../../domain/principal';
import { hashToken, issueToken, revokeToken } from '../../services/auth.service';
import { recordAgencyEvent, tokenChange } from '../../services/agency-audit.service';
import { cleanName, inTransaction } from '../../services/common';
import { revocationSettled } from '../../services/principal-cache';
import { createUser, findTenant, findUser } from '../../services/admin.service';
import * as operator from '../../services/operator.service';
import { setPlanFeatures } from '../../services/plans.service';
import { ApiToken } from '../../models';
import { CliInputError, idOf, ids, iso, list, table, type CliResult } from '../run';

/**
 * Tenants, organisations, users, tokens, plans and credits: the operator's everyday commands. Only the services these
 * need are loaded (no GraphQL schema, no Temporal), so a command starts in a fraction of a second.
 */

const limitOf = (v: string): number => {
  if (!/^\d+$/.test(v)) throw new CliInputError(`--limit "${v}" is not a whole number`);
  return Number(v);
};

/** A list command's answer: the table (with how many of `total` it shows) and, for `--json`, `{ total, [key]: rows }`. */
function listed<T extends Record<string, unknown>>(
  key: string,
  rows: T[],
  total: number,
  columns: Array<[header: string, key: string]>,
  json: (row: T) => Record<string, unknown>,
): CliResult {
  const footer = total > rows.length ? `\n(${rows.length} of ${total}, newest first: --limit for more)` : '';
  return { text: table(rows, columns) + footer, data: { total, [key]: rows.map(json) } };
}

/** The last moment the tokens' `expires_at` (DATETIME) holds. */
const LAST_EXPIRY = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** `Y-m-d`, then `T` (or a space) and a time of day, with an optional zone. */
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})[T ](?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?$/;

/**
 * `2027-01-31`, an ISO timestamp, or a duration like `30d` / `12h` from now. `new Date` alone would roll a day that
 * does not exist over (2027-02-30 becomes March 2) and take free text (`1` is 2001), so the day is checked first.
 */
function parseExpiry(v: string): Date {
  const rel = /^(\d+)([dh])$/.exec(v);
  let at: number;
  if (rel) at = Date.now() + Number(rel[1]) * (rel[2] === 'd' ? DAY_MS : 3_600_000);
  else {
    const timestamp = TIMESTAMP.exec(v);
    const day = dayOf(timestamp ? timestamp[1] : v);
    if (day === null) throw new CliInputError(`--expires "${v}" is not a date, timestamp or duration (30d, 12h)`);
    at = timestamp ? new Date(v).getTime() : startOf(day).getTime();
  }
  if (!(at <= LAST_EXPIRY)) throw new CliInputError(`--expires "${v}" is after 9999-12-31, the last expiry a token can have`);
  return new Date(at);
}

export interface TenantCreateOpts {
  name: string;
  domain: string;
  ownerEmail: string;
  ownerName?: string;
  brand?: string;
  password?: string;
  taxCalculation?: boolean;
  issueTokens?: boolean;
}

export async function tenantCreate(o: TenantCreateOpts): Promise<CliResult> {
  const domains = list(o.domain);
  const { tenant, owner, plan, account, tokens } = await operator.createAgency({
    name: o.name,
    brandName: o.brand,
    domains,
    ownerEmail: o.ownerEmail,
    ownerName: o.ownerName,
    password: o.password,
    taxCalculation: o.taxCalculation,
    issueTokens: o.issueTokens,
  });
  const text = [`Tenant #${tenant.id} "${tenant.name}" created; owner ${owner.email} (user #${owner.id}).`];
  if (tokens.length) {
    text.push('Tokens of the owner (stored hashed: store them now, they are not shown again):');
    for (const t of tokens) text.push(`  ${t.issued.token.kind.padEnd(8)} #${String(t.issued.token.id).padEnd(5)} ${t.api.padEnd(16)} ${t.issued.plainText}`);
  }
  return {
    text: text.join('\n'),
    data: {
      tenant: { id: tenant.id, name: tenant.name, brand_name: tenant.brandName, domains, tax_calculation_enabled: Boolean(o.taxCalculation) },
      owner: { id: owner.id, email: owner.email, role: owner.role, customer_id: account.id },
      plan: { id: plan.id, name: plan.name },
      tokens: tokens.map((t) => ({
        id: t.issued.token.id,
        kind: t.issued.token.kind,
        api: t.api,
        permissions: t.issued.token.permissions,
        token: t.issued.plainText,
      })),
    },
  };
}

export async function tenantList(o: { limit: string }): Promise<CliResult> {
  const { items, total } = await operator.listTenants({ limit: limitOf(o.limit) });
  return listed(
    'tenants',
    items,
    total,
    [
      ['ID', 'id'],
      ['NAME', 'name'],
      ['BRAND', 'brandName'],
      ['DOMAINS', 'domains'],
      ['OWNER', 'ownerEmails'],
      ['ACCOUNTS', 'customerAccounts'],
      ['CREATED', 'createdAt'],
    ],
    (t) => ({
      id: t.id,
      name: t.name,
      brand_name: t.brandName,
      domains: t.domains,
      owner_emails: t.ownerEmails,
      customer_accounts: t.customerAccounts,
      tax_calculation_enabled: t.taxCalculationEnabled,
      link_domain: t.linkDomain,
      created_at: iso(t.createdAt),
    }),
  );
}

export async function tenantTaxCalculation(o: { tenant: string; enabled: 'true' | 'false' }): Promise<CliResult> {
  const { setTaxCalculation } = await import('../../services/agency.service');
  const tenant = await setTaxCalculation((await findTenant(o.tenant)).id, o.enabled === 'true');
  return {
    text: `Tax calculation of tenant #${tenant.id} is ${tenant.taxCalculationEnabled ? 'on' : 'off'}.`,
    data: { tenant: { id: tenant.id, tax_calculation_enabled: tenant.taxCalculationEnabled } },
  };
}

export async function tenantLinkDomain(o: { tenant: string; domain?: string; none?: boolean }): Promise<CliResult> {
  if (Boolean(o.domain) === Boolean(o.none)) throw new CliInputError('give either --domain <domain> or --none');
  const { setLinkDomain, linkBaseOf } = await import('../../services/link-domain.service');
  const tenant = await setLinkDomain((await findTenant(o.tenant)).id, o.none ? null : o.domain!);
  const base = linkBaseOf(tenant.linkDomain);
  return {
    text: tenant.linkDomain
      ? `Links of tenant #${tenant.id} are on ${tenant.linkDomain} (${base}/...); the workers take it within a minute.`
      : `Links of tenant #${tenant.id} are on PUBLIC_URL (${base}/...).`,
    data: { tenant: { id: tenant.id, link_domain: tenant.linkDomain, link_base: base } },
  };
}

export async function orgCreate(o: { tenant: string; name: string; ownerEmail: string; ownerName?: string; plan?: string; password?: string }): Promise<CliResult> {
  const tenant = await findTenant(o.tenant);
  const { organization, owner, ownerCreated } = await operator.createOrganization({
    tenantId: tenant.id,
    name: o.name,
    ownerEmail: o.ownerEmail,
    ownerName: o.ownerName,
    plan: o.plan,
    password: o.password,
  });
  return {
    text:
      `Organization #${organization.id} "${organization.name}" created in account #${organization.customerId} of tenant #${tenant.id}; ` +
      `owner ${owner.email} (user #${owner.id}${ownerCreated ? ', new' : ''}).`,
    data: {
      organization: {
        id: organization.id,
        tenant_id: tenant.id,
        customer_id: organization.customerId,
        name: organization.name,
        default_location_id: organization.defaultLocationId,
      },
      owner: { id: owner.id, email: owner.email, role: owner.role, created: ownerCreated },
    },
  };
}

export async function orgList(o: { tenant?: string; customer?: string; limit: string }): Promise<CliResult> {
  const tenantId = o.tenant ? (await findTenant(o.tenant)).id : undefined;
  const customerId = o.customer ? idOf(o.customer, '--customer') : undefined;
  const { items, total } = await operator.listOrganizations({ tenantId, customerId, limit: limitOf(o.limit) });
  return listed(
    'organizations',
    items,
    total,
    [
      ['ID', 'id'],
      ['TENANT', 'tenantId'],
      ['ACCOUNT', 'customerId'],
      ['NAME', 'name'],
      ['LOCATIONS', 'locations'],
      ['CREATED', 'createdAt'],
    ],
    (x) => ({
      id: x.id,
      tenant_id: x.tenantId,
      customer_id: x.customerId,
      name: x.name,
      locations: x.locations,
      created_at: iso(x.createdAt),
    }),
  );
}

export interface UserCreateOpts {
  tenant: string;
  email: string;
  name: string;
  role: Role;
  organization?: string;
  locations?: string;
  permissions?: string;
  password?: string;
}

export async function userCreate(o: UserCreateOpts): Promise<CliResult> {
  // A tenant owner in a customer's account would make that account the agency's (every account's events on its
  // receivers, gone from the agency's customer list): tenant owners join the agency's own account.
  if (o.role === 'tenant_owner' && o.organization !== undefined) {
    throw new CliInputError("--organization is for organization owners and team members: a tenant owner joins the agency's own account");
  }
  const tenant = await findTenant(o.tenant);
  const user = await createUser({
    tenantId: tenant.id,
    email: o.email,
    name: o.name,
    role: o.role,
    organizationId: o.organization ? idOf(o.organization, '--organization') : null,
    locationIds: o.locations ? ids(o.locations, '--locations') : [],
    organizationPermissions: o.permissions ? list(o.permissions) : [],
    password: o.password,
  });
  return {
    text: `User #${user.id} ${user.email} (${user.role}) created in tenant #${tenant.id}.`,
    data: { user: { id: user.id, tenant_id: tenant.id, customer_id: user.customerId, email: user.email, name: user.name, role: user.role } },
  };
}

export async function userList(o: { tenant?: string; role?: Role; limit: string }): Promise<CliResult> {
  const tenantId = o.tenant ? (await findTenant(o.tenant)).id : undefined;
  const { items, total } = await operator.listUsers({ tenantId, role: o.role, limit: limitOf(o.limit) });
  return listed(
    'users',
    items,
    total,
    [
      ['ID', 'id'],
      ['TENANT', 'tenantId'],
      ['ACCOUNT', 'customerId'],
      ['EMAIL', 'email'],
      ['NAME', 'name'],
      ['ROLE', 'role'],
      ['CREATED', 'createdAt'],
    ],
    (u) => ({
      id: u.id,
      tenant_id: u.tenantId,
      customer_id: u.customerId,
      email: u.email,
      name: u.name,
      role: u.role,
      created_at: iso(u.createdAt),
    }),
  );
}

export async function tokenCreate(o: { user: string; tenant?: string; permissions: string; kind: TokenKind; expires?: string; name: string }): Promise<CliResult> {
  const user = await findUser(o.user, o.tenant);
  // issueToken stores the name as given (the API's createToken checks it first): blank, or too long for the column.
  const name = cleanName(o.name);
  const { token, plainText } = await inTransaction({}, async (transaction) => {
    const issued = await issueToken(
      user,
      { name, kind: o.kind, permissions: list(o.permissions), expiresAt: o.expires ? parseExpiry(o.expires) : null },
      { transaction },
    );
    await recordAgencyEvent({ cli: true }, tokenChange('token.created', issued.token, user), { transaction });
    return issued;
  });
  return {
    text: `Token #${token.id} (${token.kind}) for ${user.email}:\n${plainText}\nStore it now: it is not shown again.`,
    data: {
      id: token.id,
      token: plainText,
      kind: token.kind,
      user: { id: user.id, email: user.email },
      permissions: token.permissions,
      expires_at: iso(token.expiresAt),
    },
  };
}

export async function tokenList(o: { tenant?: string; user?: string; active?: boolean; limit: string }): Promise<CliResult> {
  const tenantId = o.tenant ? (await findTenant(o.tenant)).id : undefined;
  const { items, total } = await operator.listTokens({ tenantId, userEmail: o.user, active: o.active, limit: limitOf(o.limit) });
  const rows = items.map((t) => ({ ...t, email: t.user.email, state: t.revokedAt ? 'revoked' : t.expiresAt && t.expiresAt <= new Date() ? 'expired' : 'active' }));
  return listed(
    'tokens',
    rows,
    total,
    [
      ['ID', 'id'],
      ['KIND', 'kind'],
      ['TENANT', 'tenantId'],
      ['USER', 'email'],
      ['NAME', 'name'],
      ['PREFIX', 'prefix'],
      ['PERMISSIONS', 'permissions'],
      ['CREATED', 'createdAt'],
      ['EXPIRES', 'expiresAt'],
      ['LAST USED', 'lastUsedAt'],
      ['STATE', 'state'],
    ],
    (t) => ({
      id: t.id,
      name: t.name,
      kind: t.kind,
      tenant_id: t.tenantId,
      user: t.user,
      prefix: t.prefix,
      permissions: t.permissions,
      created_at: iso(t.createdAt),
      expires_at: iso(t.expiresAt),
      last_used_at: iso(t.lastUsedAt),
      revoked_at: iso(t.revokedAt),
      state: t.state,
    }),
  );
}

/** By the id `token:list` shows, or by the secret itself (an operator holding a leaked token). */
export async function tokenRevoke(ref: string): Promise<CliResult> {
  const ref2 = ref.trim();
  let id: number | undefined;
  if (/^\d+$/.test(ref2)) id = idOf(ref2, 'token id');
  else if (ref2.startsWith('rg_')) id = (await ApiToken.findOne({ where: { tokenHash: hashToken(ref2) }, attributes: ['id'] }))?.id;
  else throw new CliInputError(`"${ref}" is neither a token id (see token:list) nor a token`);
  const token = id
    ? await inTransaction({}, async (transaction) => {
        const found = await ApiToken.findByPk(id, { transaction });
        const wasActive = found !== null && !found.revokedAt;
        const revoked = await revokeToken(id, { transaction });
        if (revoked && wasActive) await recordAgencyEvent({ cli: true }, tokenChange('token.revoked', revoked, null), { transaction });
        return revoked;
      })
    : null;
  if (!token) throw new CliInputError('No such token.');
  // The API processes that looked the token up in the last AUTH_CACHE_TTL_MS take it until then.
  await revocationSettled();
  return { text: `Token #${token.id} revoked.`, data: { id: token.id, revoked_at: iso(token.revokedAt) } };
}

export async function planFeatures(o: { tenant: string; plan: string; add?: string; remove?: string }): Promise<CliResult> {
  const tenant = await findTenant(o.tenant);
  const plan = await setPlanFeatures(tenant.id, o.plan, { add: list(o.add ?? ''), remove: list(o.remove ?? '') });
  return {
    text: `Plan #${plan.id} "${plan.name}" features: ${plan.features.join(', ') || '(none)'}.`,
    data: { plan: { id: plan.id, name: plan.name, features: plan.features } },
  };
}

export async function planList(o: { tenant: string }): Promise<CliResult> {
  const { tenant, items } = await operator.listPlans(o.tenant);
  const limit = (n: number) => (n === 0 ? 'unlimited' : n);
  const rows = items.map((p) => ({ ...p, locations: limit(p.locationLimit), members: limit(p.memberLimit), flags: [p.isDefault && 'default', p.isFree && 'free', p.isHidden && 'hidden'].filter(Boolean) }));
  return {
    text: `Plans of tenant #${tenant.id} "${tenant.name}":\n${table(rows, [
      ['ID', 'id'],
      ['NAME', 'name'],
      ['FLAGS', 'flags'],
      ['LOCATIONS', 'locations'],
      ['MEMBERS', 'members'],
      ['FEATURES', 'features'],
      ['ACCOUNTS', 'customerAccounts'],
    ])}`,
    data: {
      tenant: { id: tenant.id, name: tenant.name },
      plans: items.map((p) => ({
        id: p.id,
        name: p.name,
        is_default: p.isDefault,
        is_free: p.isFree,
        is_hidden: p.isHidden,
        location_limit: p.locationLimit,
        member_limit: p.memberLimit,
        features: p.features,
        customer_accounts: p.customerAccounts,
      })),
    },
  };
}

export async function creditsShow(o: { customer: string }): Promise<CliResult> {
  const { account, balances, grants } = await operator.creditsOf(idOf(o.customer, '--customer'));
  return {
    text:
      `Credits of account #${account.id} "${account.name}" (tenant #${account.tenantId}): email ${balances.email}, sms ${balances.sms}.` +
      (grants.length
        ? `\n${table(grants, [
            ['GRANT', 'id'],
            ['TYPE', 'type'],
            ['CREDITS', 'credits'],
            ['REMAINING', 'remaining'],
            ['EXPIRES', 'expiresAt'],
            ['CREATED', 'createdAt'],
            ['NOTES', 'notes'],
          ])}`
        : ''),
    data: {
      customer: { id: account.id, tenant_id: account.tenantId, name: account.name },
      balances,
      grants: grants.map((g) => ({
        id: g.id,
        type: g.type,
        credits: g.credits,
        remaining: g.remaining,
        expires_at: iso(g.expiresAt),
        notes: g.notes,
        created_at: iso(g.createdAt),
      })),
    },
  };
}

export async function creditsGrant(o: { customer: string; type: string; credits: string; expires?: string; notes?: string }): Promise<CliResult> {
  if (!/^\d+$/.test(o.credits)) throw new CliInputError(`--credits "${o.credits}" is not a whole number`);
  const { account, type, balance, expiresAt } = await operator.grantCreditsTo(idOf(o.customer, '--customer'), {
    type: o.type,
    credits: Number(o.credits),
    expiresOn: o.expires ?? null,
    notes: o.notes ?? null,
  });
  return {
    text: `Granted ${o.credits} ${type} credits to account #${account.id}${expiresAt ? ` (valid until ${iso(expiresAt)})` : ''}; ${type} balance ${balance}.`,
    data: { customer: { id: account.id, tenant_id: account.tenantId }, type, credits: Number(o.credits), expires_at: iso(expiresAt), balance },
  };
}
