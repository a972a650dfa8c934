import type { Express } from 'express';
import pino from 'pino';
import request from 'supertest';
import { getSchema } from '../../src/graphql/schema';
import { createApp, type AppDeps } from '../../src/http/app';
import { useDatabase } from '../support/db';
import { Invite, Review, Scan, User } from '../../src/models';
import { configureGridProviders } from '../../src/services/grid-providers.service';
import { makeCampaign } from '../campaigns/factories';
import { makeReview, makeWorld, testimonialsOf } from '../support/factories';

/**
 * Limits of the public `/graphql` (issue 14, docs/security.md): aliases, depth, cost, tokens and batches are refused
 * at validation with a 400 and a message naming the limit; in production the schema is described to signed-in
 * callers only. Before the limits, one request with 1,000 aliases of a 50-review list answered 200 with 4.3 MB.
 */
describe('GraphQL limits', () => {
  jest.setTimeout(60_000);
  useDatabase();
  const apps: { app: Express; stop: () => Promise<void> }[] = [];
  let dev: Express;
  let prod: Express;
  let token: string;

  async function make(config: Partial<AppDeps['config']>): Promise<Express> {
    const made = await createApp({
      config: { RATE_LIMIT_PER_MINUTE: 100_000, BODY_LIMIT: '1mb', TRUST_PROXY: 'false', ...config },
      schema: await getSchema(),
      logger: pino({ level: 'silent' }),
    });
    apps.push(made);
    return made.app;
  }

  beforeAll(async () => {
    dev = await make({});
    prod = await make({ NODE_ENV: 'production' });
    const w = await makeWorld();
    token = w.tokens.owner;
    const source = await testimonialsOf(w.home);
    for (let i = 0; i < 3; i++) await makeReview(source);
  });
  afterAll(async () => {
    for (const a of apps) await a.stop();
  });

  const gql = (app: Express, body: unknown, bearer: string | null = token) => {
    const r = request(app).post('/graphql').set('Content-Type', 'application/json');
    return (bearer ? r.set('Authorization', `Bearer ${bearer}`) : r).send(JSON.stringify(body));
  };
  const messages = (res: request.Response): string => ((res.body.errors ?? []) as { message: string }[]).map((e) => e.message).join(' | ');

  it('answers an ordinary query (the limits leave real operations alone)', async () => {
    const res = await gql(dev, { query: '{ reviews(page: 1, perPage: 50) { total items { id rating message } } }' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.reviews.total).toBeGreaterThanOrEqual(3);
  });

  it('refuses 1,000 aliases of a 50-review list before running any of them', async () => {
    const fields = Array.from({ length: 1000 }, (_, i) => `a${i}: reviews(page: 1, perPage: 50) { items { id message } }`).join('\n');
    const res = await gql(dev, { query: `{ ${fields} }` });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    // The document is longer than the token limit, so it is refused before it is even parsed.
    expect(messages(res)).toMatch(/Token limit of 5000 exceeded/);
    expect(res.text.length).toBeLessThan(10_000);
    // Under the token limit, the alias limit refuses the same shape.
    const fewer = Array.from({ length: 100 }, (_, i) => `a${i}: reviews(perPage: 50) { items { id } }`).join('\n');
    const refused = await gql(dev, { query: `{ ${fewer} }` });
    expect(refused.status).toBe(400);
    expect(messages(refused)).toMatch(/aliases/i);
  });

  it('refuses more aliases than GRAPHQL_MAX_ALIASES even when each is cheap', async () => {
    const fields = Array.from({ length: 31 }, (_, i) => `a${i}: me { id }`).join(' ');
    const res = await gql(dev, { query: `{ ${fields} }` });
    expect(res.status).toBe(400);
    expect(messages(res)).toMatch(/aliases/i);
    const ok = await gql(dev, { query: `{ ${Array.from({ length: 30 }, (_, i) => `a${i}: me { id }`).join(' ')} }` });
    expect(ok.status).toBe(200);
  });

  it('asks a field that reaches outside (a message, a receiver, the AI provider) once per request, whatever the aliases', async () => {
    const send = (alias: string) => `${alias}: sendTestMessage(input: { channel: "email", to: "${alias}@example.com" }) { to }`;
    const aliased = await gql(dev, { query: `mutation { ${send('a')} ${send('b')} }` });
    expect(aliased.status).toBe(400);
    expect(aliased.body.data).toBeUndefined();
    expect(messages(aliased)).toBe('sendTestMessage may be asked once per request (asked 2 times).');
    const viaFragments = await gql(dev, { query: `mutation { ...One ... on Mutation { ${send('c')} } } fragment One on Mutation { ${send('d')} }` });
    expect(viaFragments.status).toBe(400);
    expect(messages(viaFragments)).toMatch(/^sendTestMessage may be asked once per request/);
    const insights = await gql(dev, { query: '{ a: aiInsights(organizationId: 1) { narrative } b: aiInsights(organizationId: 2) { narrative } }' });
    expect(messages(insights)).toBe('aiInsights may be asked once per request (asked 2 times).');
    // Once is a request like any other (answered by the service; here the tenant owner's own account is the sender).
    const once = await gql(dev, { query: `mutation { ${send('e')} }` });
    expect(once.status).toBe(200);
    expect(messages(once)).not.toMatch(/once per request/);
  });

  it('asks scans, runs, redeliveries, invites, new customers and published replies once per request too, and runs none of an aliased pair', async () => {
    // Each reaches outside per call: geocoding and up to 4,500 ranking calls, up to 11 POSTs, review-request mail/SMS,
    // the new customer's mails, a reply published on the review platform (docs/decisions/api-conventions.md).
    const w = await makeWorld();
    await configureGridProviders({ tenantId: w.tenant.id, mode: 'simulator' });
    const campaign = await makeCampaign(w.orgOwner, w.org);
    const review = await makeReview(await testimonialsOf(w.home));
    const scan = '{ location: "Main Street Dental", keywords: ["dentist"], gridSize: 3, distance: 2, distanceUnit: "km", lat: 40.7128, lng: -74.006 }';
    const customer = (n: string) =>
      `{ name: "Customer ${n}", email: "aliased-${n}-${w.tenant.id}@example.com", password: "correct horse battery", company: "Company ${n}", customPlanId: "1", sendInvite: true }`;
    const pairs: [field: string, a: string, b: string][] = [
      ['createScan', `createScan(input: ${scan}) { uuid }`, `createScan(input: ${scan}) { uuid }`],
      ['runScan', 'runScan(uuid: "00000000-0000-4000-8000-000000000001") { uuid }', 'runScan(uuid: "00000000-0000-4000-8000-000000000002") { uuid }'],
      ['redeliverWebhook', 'redeliverWebhook(id: "00000000-0000-4000-8000-000000000001") { id }', 'redeliverWebhook(id: "00000000-0000-4000-8000-000000000002") { id }'],
      ['inviteContact', `inviteContact(campaign: "${campaign.uuid}", input: { email: "a@example.com" }) { id }`, `inviteContact(campaign: "${campaign.uuid}", input: { email: "b@example.com" }) { id }`],
      ['inviteContacts', `inviteContacts(campaign: "${campaign.uuid}", inputs: [{ email: "c@example.com" }]) { id }`, `inviteContacts(campaign: "${campaign.uuid}", inputs: [{ email: "d@example.com" }]) { id }`],
      ['createCustomer', `createCustomer(input: ${customer('a')}) { id }`, `createCustomer(input: ${customer('b')}) { id }`],
      ['replyToReview', `replyToReview(id: ${review.id}, input: { message: "Thanks!" }) { id }`, `replyToReview(id: ${review.id + 1_000_000}, input: { message: "Thanks!" }) { id }`],
      ['approveReplyDraft', 'approveReplyDraft(id: 2147483000) { id }', 'approveReplyDraft(id: 2147483001) { id }'],
    ];
    for (const [field, a, b] of pairs) {
      const res = await gql(dev, { query: `mutation { a: ${a} b: ${b} }` }, w.tokens.owner);
      expect([field, res.status, res.body.data, messages(res)]).toEqual([field, 400, undefined, `${field} may be asked once per request (asked 2 times).`]);
    }
    // A fragment does not hide the second one.
    const viaFragment = await gql(dev, { query: `mutation { a: createScan(input: ${scan}) { uuid } ...More } fragment More on Mutation { b: createScan(input: ${scan}) { uuid } }` }, w.tokens.owner);
    expect([viaFragment.status, messages(viaFragment)]).toEqual([400, 'createScan may be asked once per request (asked 2 times).']);
    // Nothing ran: no scan, no invite, no customer, no reply.
    expect(await Scan.count({ where: { tenantId: w.tenant.id } })).toBe(0);
    expect(await Invite.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect(await User.count({ where: { tenantId: w.tenant.id, email: [`aliased-a-${w.tenant.id}@example.com`, `aliased-b-${w.tenant.id}@example.com`] } })).toBe(0);
    expect((await Review.findByPk(review.id))!.reply).toBeNull();
    // Different fields of the list, each once, are one request like any other (here answered by the services).
    const mixed = await gql(dev, { query: `mutation { ${pairs[1][1]} ${pairs[2][1]} }` }, w.tokens.owner);
    expect(mixed.status).toBe(200);
    expect(messages(mixed)).not.toMatch(/once per request/);
  });

  it('refuses a query nested deeper than GRAPHQL_MAX_DEPTH', async () => {
    // Introspection types nest as deep as one asks; depth counts for them too when they are not the whole query.
    let inner = 'name';
    for (let i = 0; i < 14; i++) inner = `ofType { ${inner} }`;
    const res = await gql(dev, { query: `{ reviews { items { id } } __type(name: "Review") { fields { type { ${inner} } } } }` });
    expect(res.status).toBe(400);
    expect(messages(res)).toMatch(/depth/i);
  });

  it('refuses a costly operation (many list fields under one alias budget) with the cost limit', async () => {
    const app = await make({ GRAPHQL_MAX_COST: 200 });
    const fields = Array.from({ length: 25 }, (_, i) => `r${i}: reviews(perPage: 50) { items { id rating message title date } }`).join('\n');
    const res = await gql(app, { query: `{ ${fields} }` });
    expect(res.status).toBe(400);
    expect(messages(res)).toMatch(/cost/i);
  });

  it('refuses a document longer than GRAPHQL_MAX_TOKENS', async () => {
    const app = await make({ GRAPHQL_MAX_TOKENS: 100, GRAPHQL_MAX_ALIASES: 1000 });
    const res = await gql(app, { query: `{ ${Array.from({ length: 120 }, () => '__typename').join(' ')} }` });
    expect(res.status).toBe(400);
    expect(messages(res)).toMatch(/token/i);
  });

  it('refuses batched operations (an array body)', async () => {
    const one = { query: '{ __typename }' };
    const res = await gql(dev, Array.from({ length: 100 }, () => one));
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/batch/i);
  });

  it('hides field suggestions ("Did you mean") from error messages', async () => {
    const res = await gql(dev, { query: '{ review { id } }' });
    expect(res.status).toBe(400);
    expect(messages(res)).not.toMatch(/Did you mean/);
  });

  it('in production, answers introspection only with a valid token; a browser gets the self-hosted GraphiQL, no CDN page', async () => {
    const introspection = { query: '{ __schema { queryType { name } } }' };
    const anonymous = await gql(prod, introspection, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(anonymous.body.data?.__schema).toBeUndefined();
    const viaFragment = await gql(prod, { query: 'query { ...f } fragment f on Query { __type(name: "Review") { name } }' }, null);
    expect(viaFragment.status).toBe(401);
    const signedIn = await gql(prod, introspection);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.__schema.queryType.name).toBe('Query');

    // Not Apollo's landing page (a CDN): our GraphiQL (test/http/graphiql.test.ts), which needs a pasted token here.
    const landing = await request(prod).get('/graphql').set('Accept', 'text/html');
    expect(landing.text).toContain('id="graphiql"');
    expect(landing.text).not.toMatch(/apollographql|cdn\./i);
    // Development keeps anonymous introspection (the tooling of the quick start).
    expect((await gql(dev, introspection, null)).status).toBe(200);
  });
});
