import { DAY_MS, dayAt } from '../domain/days';
import { reviewSentiment, type SentimentResult } from '../analytics/sentiment';
import { systemClock, type Clock } from '../domain/clock';
import { CUSTOMER_PERMISSIONS } from '../domain/permissions';
import type { TokenKind } from '../domain/principal';
import { Integration, Location, Organization, Review, User } from '../models';
import { sentimentColumns } from '../models/review.model';
import { prng } from '../providers/sim-data';
import { DEMO_BUSINESSES, demoLanguage, demoReviewText, THANKS, tradeOfName, type DemoBusiness } from './demo-content';
import { createTenant, createUser } from './admin.service';
import { setPlanFeatures } from './plans.service';
import { issueToken, principalFor } from './auth.service';
import * as integrations from './integrations.service';
import * as locations from './locations.service';
import * as orders from './orders.service';
import * as organizations from './organizations.service';
import { configureGridProviders } from './grid-providers.service';
import { seedDemoScan } from '../jobs/scan-runs';
import { seedDemoGbpPerformance } from '../jobs/gbp-sync';

export interface DemoToken {
  label: string;
  kind: TokenKind;
  email: string;
  token: string;
}

const FIRST = ['Ava', 'Liam', 'Mia', 'Noah', 'Emma', 'Lucas', 'Sofia', 'Ethan', 'Chloe', 'Omar', 'Priya', 'Kenji', 'Zoe', 'Mateo', 'Lena'];
const LAST = ['Smith', 'Garcia', 'Nguyen', 'Patel', 'Müller', 'Rossi', 'Kim', 'Okafor', 'Silva', 'Cohen', 'Dubois', 'Novak'];
export interface SeedOptions {
  reviews?: number;
  domain?: string;
  /** "Now" for the demo's dates (reviews and business-profile data end the day before it). */
  clock?: Clock;
}

/** The demo tenant: an agency, one customer account with three organisations, a team member, reviews, tokens. */
export async function seedDemo(opts: SeedOptions = {}) {
  const reviewCount = opts.reviews ?? 250;
  const clock = opts.clock ?? systemClock;
  const { tenant, owner } = await createTenant({
    name: 'Demo Agency',
    brandName: 'Demo Reviews',
    domains: [opts.domain ?? 'demo.localhost'],
    ownerEmail: 'owner@demo.test',
    ownerName: 'Olivia Owner',
    password: 'demo-password',
  });
  // The demo shows every capability, auto-respond rules included (a plan feature).
  await setPlanFeatures(tenant.id, 'Standard', { add: ['auto_respond'], remove: [] });
  const customerOwner = await createUser({
    tenantId: tenant.id,
    email: 'dana@brightsmiles.test',
    name: 'Dana Dentist',
    role: 'organization_owner',
    password: 'demo-password',
  });
  const ownerPrincipal = await principalFor(customerOwner, { id: 0, kind: 'customer', permissions: [...CUSTOMER_PERMISSIONS] });

  const orgs: Organization[] = [];
  // Each business has a trade and a mix of customer languages (src/services/demo-content.ts).
  for (const business of DEMO_BUSINESSES) {
    const org = await organizations.create(ownerPrincipal, { name: business.name });
    orgs.push(org);
    for (const loc of business.locations) await locations.create(ownerPrincipal, { organizationId: org.id, name: loc });
  }
  const allLocations = await Location.findAll({ where: { tenantId: tenant.id }, order: [['id', 'ASC']] });
  for (const [i, loc] of allLocations.entries()) {
    await integrations.attachSynced(loc, i % 2 === 0 ? 'google' : 'facebook', `demo-place-${loc.id}`);
  }
  const custom = await integrations.createWritable(ownerPrincipal, { locationId: allLocations[0].id, sourceSlug: 'custom', name: 'Website widget' });

  const firstOrgLocations = allLocations.filter((l) => l.organizationId === orgs[0].id);
  const member = await createUser({
    tenantId: tenant.id,
    email: 'tom@brightsmiles.test',
    name: 'Tom Teammember',
    role: 'team_member',
    organizationId: orgs[0].id,
    locationIds: [firstOrgLocations[1].id],
    organizationPermissions: ['create-locations'],
    password: 'demo-password',
  });

  await insertReviews(tenant.id, reviewCount, 42, clock);

  await seedDemoOrders(tenant.id, customerOwner.customerId);

  // Local Search Grid: the simulated market as the tenant's providers, and one scan with a completed snapshot.
  await configureGridProviders({ tenantId: tenant.id, mode: 'simulator' });
  await seedDemoScan(tenant.id, owner.customerId);

  // Business-profile performance of the Google locations (540 days of metrics, 18 months of keywords).
  await seedDemoGbpPerformance(tenant.id, clock);

  const tokens: DemoToken[] = [];
  const add = async (label: string, user: User, kind: TokenKind, permissions: string[]) => {
    const issued = await issueToken(user, { name: `demo ${label}`, kind, permissions });
    tokens.push({ label, kind, email: user.email, token: issued.plainText });
  };
  await add('tenant owner (customer API, every permission)', owner, 'customer', [...CUSTOMER_PERMISSIONS]);
  await add('tenant owner (agency API)', owner, 'agency', []);
  await add('organisation owner (customer API)', customerOwner, 'customer', [...CUSTOMER_PERMISSIONS]);
  await add('team member (read-only)', member, 'customer', ['reviews:read', 'organizations:read', 'request:read']);
  await add('AI assistant (MCP)', owner, 'ai', ['mcp:access', 'reviews:read', 'organizations:read']);
  return { tenant, tokens, customIntegrationId: custom.id };
}

/** Days of history the demo's reviews spread over, ending the day before the seeding (about 34 months). */
export const DEMO_REVIEW_DAYS = 1035;

/**
 * Bulk reviews over every integration of the tenant, in chunks (100,000 for the benchmark), published over the
 * DEMO_REVIEW_DAYS before the clock's day: a demo seeded today has reviews in "the last 30 days" like a live one.
 */
export async function insertReviews(tenantId: number, count: number, seed = 42, clock: Clock = systemClock): Promise<void> {
  // Seeded, so every demo database looks the same.
  const rand = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  const sources = await Integration.findAll({ where: { tenantId }, order: [['id', 'ASC']] });
  if (sources.length === 0) return;
  // Each organisation's reviews read like its trade's, in its customers' languages.
  const names = new Map((await Organization.findAll({ where: { tenantId }, attributes: ['id', 'name'] })).map((o) => [o.id, o.name]));
  const businessOf = (organizationId: number): Pick<DemoBusiness, 'trade' | 'languages'> => {
    const name = names.get(organizationId) ?? '';
    return DEMO_BUSINESSES.find((b) => b.name === name) ?? { trade: tradeOfName(name) ?? 'dentist', languages: { en: 1 } };
  };
  const end = dayAt(clock.now()) * DAY_MS;
  const span = DEMO_REVIEW_DAYS * DAY_MS;
  const start = end - span;
  const CHUNK = 2000;
  const sentimentCache = new Map<string, SentimentResult>();
  for (let done = 0; done < count; done += CHUNK) {
    const rows = [];
    for (let i = done; i < Math.min(count, done + CHUNK); i++) {
      const integration = sources[i % sources.length];
      const rating = rand() < 0.75 ? pick([4, 5, 5, 5]) : pick([1, 2, 3]);
      const author = `${pick(FIRST)} ${pick(LAST)}`;
      const business = businessOf(integration.organizationId);
      const language = demoLanguage(business, rand);
      const text = demoReviewText(business.trade, language, rating, rand);
      const published = new Date(start + Math.floor(rand() * span));
      const replied = integration.type === 'synced' && rand() < 0.4;
      rows.push({
        tenantId,
        customerId: integration.customerId,
        organizationId: integration.organizationId,
        locationId: integration.locationId,
        integrationId: integration.id,
        author,
        rating,
        originalRating: rating,
        title: text.title,
        message: text.message,
        publishedAt: published,
        reply: replied ? THANKS[language](author.split(' ')[0]) : null,
        replyDate: replied ? new Date(published.getTime() + 86_400_000) : null,
        verified: integration.type === 'synced',
        identifier: integration.type === 'synced' ? `demo-${integration.id}-${i}` : null,
      });
    }
    // Hooks are off for speed, so the sentiment the model hook would set is computed here (few distinct texts).
    for (const row of rows) {
      const key = `${row.rating}|${row.title ?? ''}|${row.message}`;
      let result = sentimentCache.get(key);
      if (!result) sentimentCache.set(key, (result = reviewSentiment(row)));
      Object.assign(row, sentimentColumns(result));
    }
    await Review.bulkCreate(rows, { validate: false, hooks: false });
  }
}

/**
 * NFC orders as the agency's storefront would have handed them over (the storefront is not part of the
 * platform): one pending, one shipped, one completed.
 */
export async function seedDemoOrders(tenantId: number, customerId: number | null): Promise<void> {
  const base = { tenantId, customerId, email: 'dana@brightsmiles.test', currency: 'usd' };
  const shipping = { name: 'Dana Dentist', address: '12 Harbor Road', city: 'Portland', country: 'US' };
  const card = (n: number) => `https://demo.localhost/r/bright-smiles-${n}`;
  await orders.createOrder({
    ...base,
    shipping,
    items: [
      { productName: 'NFC review card', quantity: 2, unitPrice: 19.5, nfcUrls: [card(1), card(2)] },
      { productName: 'NFC table stand', quantity: 1, unitPrice: 39, nfcUrls: [card(3)] },
    ],
  });
  const shipped = await orders.createOrder({
    ...base,
    shipping: { ...shipping, address: '80 Riverside Ave' },
    items: [{ productName: 'NFC review card', quantity: 5, unitPrice: 19.5, nfcUrls: [1, 2, 3, 4, 5].map((n) => card(10 + n)) }],
  });
  await shipped.update({ status: 'shipped', shippedAt: new Date(), trackingUrl: 'https://tracking.example.com/1Z999AA10123456784' });
  const done = await orders.createOrder({
    ...base,
    email: 'vet@harborvet.test',
    shipping: { name: 'Harbor Vet Clinic', address: '3 Dock Street', city: 'Portland', country: 'US' },
    items: [{ productName: 'NFC window sticker', quantity: 3, unitPrice: 12, nfcUrls: [card(21), card(22), card(23)] }],
  });
  await done.update({ status: 'completed', shippedAt: new Date(), completedAt: new Date() });
}
