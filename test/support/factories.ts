import { randomUUID } from 'node:crypto';
import { CUSTOMER_PERMISSIONS, type OrganizationPermission } from '../../src/domain/permissions';
import type { TokenKind } from '../../src/domain/principal';
import { Integration, Location, Organization, Review, User } from '../../src/models';
import { createTenant, createUser } from '../../src/services/admin.service';
import { issueToken, principalFor } from '../../src/services/auth.service';
import { attachSynced } from '../../src/services/integrations.service';
import * as organizations from '../../src/services/organizations.service';

/** Test data factories: every call makes a new tenant, so tests never share mutable fixtures. */

export const ALL = [...CUSTOMER_PERMISSIONS];
/** Every customer permission but one: for the 403 tests. */
export const without = (permission: string): string[] => ALL.filter((p) => p !== permission);
const uniq = () => randomUUID().slice(0, 8);

export async function tokenFor(user: User, permissions: string[] = ALL, kind: TokenKind = 'customer', expiresAt?: Date): Promise<string> {
  return (await issueToken(user, { name: 'test', permissions, kind, expiresAt })).plainText;
}

export async function makeTenant(opts: { planLocationLimit?: number } = {}) {
  const id = uniq();
  const { tenant, owner, plan, account } = await createTenant({
    name: `Agency ${id}`,
    domains: [`agency-${id}.test`],
    ownerEmail: `owner-${id}@agency.test`,
    ownerName: 'Tenant Owner',
  });
  if (opts.planLocationLimit !== undefined) await plan.update({ locationLimit: opts.planLocationLimit });
  return { tenant, owner, plan, ownerAccount: account };
}

/** An organisation owner with their own account (on the tenant's default plan). */
export async function makeOrgOwner(tenantId: number, opts: { locationLimit?: number } = {}) {
  const user = await createUser({ tenantId, email: `org-${uniq()}@customer.test`, name: 'Org Owner', role: 'organization_owner' });
  if (opts.locationLimit !== undefined) {
    const { Customer } = await import('../../src/models');
    await Customer.update({ locationLimit: opts.locationLimit }, { where: { id: user.customerId! } });
  }
  return user;
}

/** Creates an organisation (with its Default Location) as `owner`. */
export async function makeOrganization(owner: User, name = `Org ${uniq()}`): Promise<Organization> {
  const p = await principalFor(owner, { id: 0, kind: 'customer', permissions: ALL });
  return organizations.create(p, { name });
}

export async function makeLocation(org: Organization, name = `Location ${uniq()}`): Promise<Location> {
  const { attachDefaultSources } = await import('../../src/services/integrations.service');
  const loc = await Location.create({ tenantId: org.tenantId, customerId: org.customerId, organizationId: org.id, name });
  await attachDefaultSources(loc);
  return loc;
}

export async function makeTeamMember(
  tenantId: number,
  org: Organization,
  locations: Location[],
  permissions: OrganizationPermission[] = [],
): Promise<User> {
  return createUser({
    tenantId,
    email: `member-${uniq()}@customer.test`,
    name: 'Team Member',
    role: 'team_member',
    organizationId: org.id,
    locationIds: locations.map((l) => l.id),
    organizationPermissions: permissions,
  });
}

export async function testimonialsOf(location: Location): Promise<Integration> {
  const i = await Integration.findOne({ where: { locationId: location.id, type: 'testimonials' } });
  if (!i) throw new Error('location has no testimonials source');
  return i;
}

export async function syncedSourceOf(location: Location, slug = 'google'): Promise<Integration> {
  return attachSynced(location, slug, `place-${uniq()}`);
}

export async function makeReview(integration: Integration, overrides: Partial<Review> = {}): Promise<Review> {
  return Review.create({
    tenantId: integration.tenantId,
    customerId: integration.customerId,
    organizationId: integration.organizationId,
    locationId: integration.locationId,
    integrationId: integration.id,
    author: 'Jane Reviewer',
    rating: 5,
    originalRating: 5,
    title: null,
    message: 'Lovely.',
    publishedAt: new Date(Date.UTC(2026, 0, 15)),
    ...overrides,
  });
}

export async function defaultLocationOf(org: Organization): Promise<Location> {
  const loc = await Location.findByPk(org.defaultLocationId!);
  if (!loc) throw new Error('no default location');
  return loc;
}

/** A whole small world: tenant owner, an org owner with an org of two locations, a team member on one. */
export async function makeWorld() {
  const { tenant, owner } = await makeTenant();
  const orgOwner = await makeOrgOwner(tenant.id);
  const org = await makeOrganization(orgOwner);
  const home = await defaultLocationOf(org);
  const branch = await makeLocation(org, 'Branch');
  const member = await makeTeamMember(tenant.id, org, [branch]);
  return {
    tenant,
    owner,
    orgOwner,
    org,
    home,
    branch,
    member,
    tokens: {
      owner: await tokenFor(owner),
      orgOwner: await tokenFor(orgOwner),
      member: await tokenFor(member),
    },
  };
}

/** A written source of type `custom` attached to a location (the API lists it among the writable sources). */
export async function customSourceOf(location: Location, name = `Custom ${uniq()}`): Promise<Integration> {
  const { ReviewSource } = await import('../../src/models');
  const source = await ReviewSource.findOne({ where: { slug: 'custom' } });
  if (!source) throw new Error('review source catalogue has no `custom`');
  return Integration.create({
    tenantId: location.tenantId,
    customerId: location.customerId,
    organizationId: location.organizationId,
    locationId: location.id,
    sourceId: source.id,
    type: 'custom',
    name,
  });
}

/** An agency token of the tenant owner (the only kind the agency API takes). */
export async function agencyTokenFor(owner: User): Promise<string> {
  return tokenFor(owner, [], 'agency');
}

/** A custom plan of the tenant; unlinked from any payment provider unless billing ids are given. */
export async function makePlan(tenantId: number, overrides: Partial<import('../../src/models').Plan> = {}) {
  const { Plan } = await import('../../src/models');
  return Plan.create({ tenantId, name: `Plan ${uniq()}`, locationLimit: 0, memberLimit: 0, features: [], ...overrides });
}

/** An NFC order of the tenant as the storefront hands it over (pending, two items, usd). */
export async function makeOrder(tenantId: number, overrides: Partial<import('../../src/services/orders.service').CreateOrderInput> = {}) {
  const { createOrder } = await import('../../src/services/orders.service');
  return createOrder({
    tenantId,
    email: `buyer-${uniq()}@shop.test`,
    currency: 'usd',
    shipping: { name: 'Buyer Name', address: '1 Main Street', city: 'Springfield', country: 'US' },
    items: [
      { productName: 'NFC review card', quantity: 2, unitPrice: 19.99, nfcUrls: ['https://r.example.test/a', 'https://r.example.test/b'] },
      { productName: 'NFC stand', quantity: 1, unitPrice: 35, nfcUrls: ['https://r.example.test/c'] },
    ],
    ...overrides,
  });
}
