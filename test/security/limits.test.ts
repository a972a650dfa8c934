import { randomInt, randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import pino from 'pino';
import request from 'supertest';
import type { Express } from 'express';
import { getSchema } from '../../src/graphql/schema';
import { FAILED_AUTH_CEILING_FACTOR } from '../../facades/shared/rate-limit';
import { createApp, type AppDeps } from '../../src/http/app';
import { unsubscribeTokenOf } from '../../src/messaging/links';
import { Contact } from '../../src/models';
import { useDatabase } from '../support/db';
import { agencyTokenFor, makeWorld } from '../support/factories';
import { makeCampaign, makeContact } from '../invites/fixtures';

/**
 * Limits where abuse happens (issue 14, docs/security.md): the agency API has its own bucket, public pages are
 * limited per client address (reads and form posts apart), the inbound contact webhook per client address for whatever
 * reaches no endpoint (test/inbound/webhook.test.ts: known endpoints have their own budget), and with Redis every API
 * process shares those budgets.
 */
describe('rate limits where abuse happens', () => {
  jest.setTimeout(60_000);
  useDatabase();
  const made: { stop: () => Promise<void> }[] = [];
  const clients: Redis[] = [];

  async function app(config: Partial<AppDeps['config']>, seams: Partial<AppDeps> = {}): Promise<Express> {
    const m = await createApp({
      config: { RATE_LIMIT_PER_MINUTE: 100_000, BODY_LIMIT: '1mb', TRUST_PROXY: 'false', ...config },
      schema: await getSchema(),
      logger: pino({ level: 'silent' }),
      ...seams,
    });
    made.push(m);
    return m.app;
  }
  afterAll(async () => {
    for (const m of made) await m.stop();
    for (const c of clients) c.disconnect();
  });

  it('the agency API has its own bucket: an agency token that spent its GraphQL budget still reaches the agency API', async () => {
    const a = await app({ RATE_LIMIT_PER_MINUTE: 3, AGENCY_RATE_LIMIT_PER_MINUTE: 5 });
    const w = await makeWorld();
    const agency = await agencyTokenFor(w.owner);
    for (let i = 0; i < 3; i++) await request(a).post('/graphql').set('Authorization', `Bearer ${agency}`).send({ query: '{ __typename }' });
    expect((await request(a).post('/graphql').set('Authorization', `Bearer ${agency}`).send({ query: '{ __typename }' })).status).toBe(429);
    const plans = await request(a).get('/api/agency/v1/custom-plans').set('Authorization', `Bearer ${agency}`);
    expect(plans.status).toBe(200);
    expect(plans.headers['x-ratelimit-limit']).toBe('5');
    for (let i = 0; i < 4; i++) await request(a).get('/api/agency/v1/custom-plans').set('Authorization', `Bearer ${agency}`);
    const limited = await request(a).get('/api/agency/v1/custom-plans').set('Authorization', `Bearer ${agency}`);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Too Many Attempts.' });
    // The customer API's budget of another token is untouched.
    expect((await request(a).get('/api/v1/me').set('Authorization', `Bearer ${w.tokens.owner}`)).status).toBe(200);
  });

  it('public pages: reads and form posts per client address, 429 JSON with Retry-After', async () => {
    const a = await app({}, { pages: { perMinute: 3, postsPerMinute: 2 } });
    const statuses: number[] = [];
    for (const path of ['/u/aaa', '/r/' + randomUUID(), '/connect/nope', '/reports/scans/' + randomUUID()]) statuses.push((await request(a).get(path)).status);
    expect(statuses.slice(0, 3).every((s) => s !== 429)).toBe(true);
    expect(statuses[3]).toBe(429);
    const limited = await request(a).get('/u/bbb');
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toMatch(/application\/json/);
    expect(limited.body).toEqual({ message: 'Too Many Attempts.' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Posts have their own, smaller budget.
    expect((await request(a).post('/u/aaa').type('form').send({ confirm: '1' })).status).not.toBe(429);
    expect((await request(a).post('/u/aaa').type('form').send({ confirm: '1' })).status).not.toBe(429);
    expect((await request(a).post('/u/aaa').type('form').send({ confirm: '1' })).status).toBe(429);
    // Another client address (behind a trusted proxy) has its own budget.
    const proxied = await app({ TRUST_PROXY: 'true' }, { pages: { perMinute: 1, postsPerMinute: 1 } });
    expect((await request(proxied).get('/u/aaa').set('X-Forwarded-For', '203.0.113.1')).status).not.toBe(429);
    expect((await request(proxied).get('/u/aaa').set('X-Forwarded-For', '203.0.113.1')).status).toBe(429);
    expect((await request(proxied).get('/u/aaa').set('X-Forwarded-For', '203.0.113.2')).status).not.toBe(429);
    // The client cannot choose its address: what it writes into the header stands left of what the proxy appends.
    expect((await request(proxied).get('/u/aaa').set('X-Forwarded-For', '198.51.100.7, 203.0.113.3')).status).not.toBe(429);
    expect((await request(proxied).get('/u/aaa').set('X-Forwarded-For', '198.51.100.8, 203.0.113.3')).status).toBe(429);
    // Two proxies (a CDN, then the load balancer): the client is the entry the outer one appended.
    const twoHops = await app({ TRUST_PROXY: '2' }, { pages: { perMinute: 1, postsPerMinute: 1 } });
    expect((await request(twoHops).get('/u/aaa').set('X-Forwarded-For', '198.51.100.7, 203.0.113.4, 10.0.0.5')).status).not.toBe(429);
    expect((await request(twoHops).get('/u/aaa').set('X-Forwarded-For', '198.51.100.9, 203.0.113.4, 10.0.0.6')).status).toBe(429);
    // The proxies by address: hops from loopback are trusted, the first address outside it is the client.
    const listed = await app({ TRUST_PROXY: 'loopback' }, { pages: { perMinute: 1, postsPerMinute: 1 } });
    expect((await request(listed).get('/u/aaa').set('X-Forwarded-For', '198.51.100.7, 203.0.113.5')).status).not.toBe(429);
    expect((await request(listed).get('/u/aaa').set('X-Forwarded-For', '198.51.100.8, 203.0.113.5')).status).toBe(429);
  });

  it("one-click unsubscribes with a signed link have a budget apart from the page posts'; a made-up token stays in theirs", async () => {
    // The default page budgets (20 posts a minute): a mail provider's servers send every one-click from a few addresses.
    const a = await app({});
    const w = await makeWorld();
    const campaign = await makeCampaign(w);
    const contacts = await Promise.all(Array.from({ length: 25 }, () => makeContact(campaign)));
    const oneClick = (token: string) =>
      request(a).post(`/u/${encodeURIComponent(token)}`).set('Content-Type', 'application/x-www-form-urlencoded').send('List-Unsubscribe=One-Click');
    const signed = [];
    for (const contact of contacts) signed.push((await oneClick(unsubscribeTokenOf(contact.uuid))).status);
    expect(signed).toEqual(Array(25).fill(200));
    expect(await Contact.count({ where: { contactListId: campaign.contactListId, unsubscribedAt: null } })).toBe(0);
    // Made-up and forged tokens are counted as page posts: the 21st is refused, a signed link is still answered.
    const forged = `${unsubscribeTokenOf(contacts[0].uuid).split('.')[0]}.${'A'.repeat(22)}`;
    const madeUp = [];
    for (let i = 0; i < 21; i++) madeUp.push((await oneClick(i % 2 ? forged : `not-a-token-${i}`)).status);
    expect(madeUp.slice(0, 20)).toEqual(Array(20).fill(404));
    expect(madeUp[20]).toBe(429);
    expect((await oneClick(unsubscribeTokenOf(contacts[1].uuid))).status).toBe(200);

    // The signed links' budget is a limit too (UNSUBSCRIBE_RATE_LIMIT_PER_MINUTE): past it, 429 with Retry-After.
    const small = await app({ UNSUBSCRIBE_RATE_LIMIT_PER_MINUTE: 2 });
    const statuses = [];
    for (const contact of contacts.slice(0, 3)) statuses.push(await request(small).post(`/u/${unsubscribeTokenOf(contact.uuid)}`).type('form').send({ confirm: '1' }));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(statuses[2].body).toEqual({ message: 'Too Many Attempts.' });
    expect(Number(statuses[2].headers['retry-after'])).toBeGreaterThan(0);
  });

  it("the OAuth token, revocation and registration endpoints have budgets apart from the pages', refused as OAuth errors", async () => {
    // The default page budgets (20 posts a minute): hosted AI connectors call these for all their users from a few addresses.
    const a = await app({ OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: 30, OAUTH_REGISTRATION_RATE_LIMIT_PER_MINUTE: 3 });
    const refresh = () => request(a).post('/oauth/token').type('form').send({ grant_type: 'refresh_token', refresh_token: `made-up-${randomUUID()}`, client_id: 'nobody' });
    const revoke = () => request(a).post('/oauth/token/revocation').type('form').send({ token: `made-up-${randomUUID()}`, client_id: 'nobody' });
    const answered = [];
    for (let i = 0; i < 25; i++) answered.push((await refresh()).status);
    for (let i = 0; i < 5; i++) answered.push((await revoke()).status);
    expect(answered).not.toContain(429);
    const expectOAuthRefusal = (res: request.Response) => {
      expect([res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([429, expect.stringMatching(/application\/json/), 'no-store']);
      expect(res.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringMatching(/^Too many requests from this address; try again in \d+ seconds\.$/) });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    };
    // Token and revocation requests share one budget.
    expectOAuthRefusal(await refresh());
    expectOAuthRefusal(await revoke());

    const register = () =>
      request(a).post('/oauth/reg').send({ client_name: 'Limit Assistant', redirect_uris: ['http://127.0.0.1:7777/callback'], token_endpoint_auth_method: 'none' });
    for (let i = 0; i < 3; i++) expect((await register()).status).toBe(201);
    expectOAuthRefusal(await register());

    // The pages a person posts (sign-in, consent) keep the page posts' budget, and its answer.
    const pages = [];
    for (let i = 0; i < 21; i++) pages.push(await request(a).post(`/oauth/interaction/${randomUUID()}/login`).type('form').send({ email: 'a@b.test', password: 'x' }));
    expect(pages.slice(0, 20).map((r) => r.status)).not.toContain(429);
    expect([pages[20].status, pages[20].body]).toEqual([429, { message: 'Too Many Attempts.' }]);
  });

  it("the OAuth discovery documents and signing keys count with the token endpoint's budget, not the page reads'", async () => {
    // A connector reads the metadata again on every renewal: refused, the SDK falls back to other URLs and drops its
    // registration. With 3 page reads a minute, 12 metadata reads are answered and the 13th is refused as an OAuth error.
    const a = await app({ PAGE_RATE_LIMIT_PER_MINUTE: 3, OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: 12 });
    const documents = ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-authorization-server/oauth', '/oauth/.well-known/openid-configuration', '/oauth/jwks'];
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await request(a).get(documents[i % documents.length])).status);
    expect(statuses).toEqual(Array(12).fill(200));
    const refused = await request(a).get(documents[0]);
    expect([refused.status, refused.body.error]).toEqual([429, 'temporarily_unavailable']);
    // A page a person reads keeps the page reads' budget.
    const pages = [];
    for (let i = 0; i < 4; i++) pages.push((await request(a).get(`/oauth/interaction/${randomUUID()}`)).status);
    expect(pages.slice(0, 3)).not.toContain(429);
    expect(pages[3]).toBe(429);
  });

  it('the inbound contact webhook: one source spraying unknown endpoints is limited per address', async () => {
    const a = await app({}, { inboundWebhook: { perMinute: 100, perIpMinute: 3 } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await request(a).post(`/api/webhooks/inbound/${randomUUID()}`).set('Content-Type', 'application/json').send('{"email":"a@b.test"}')).status);
    }
    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses[3]).toBe(429);
  });

  const redis = () => {
    const c = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    clients.push(c);
    return c;
  };

  it('with Redis, two API processes share the page budget of an address', async () => {
    const prefix = `rl:pages-test-${randomUUID()}`;
    const a = await app({}, { redis: redis(), pages: { perMinute: 3, postsPerMinute: 3, redisPrefix: prefix } });
    const b = await app({}, { redis: redis(), pages: { perMinute: 3, postsPerMinute: 3, redisPrefix: prefix } });
    expect((await request(a).get('/u/one')).status).not.toBe(429);
    expect((await request(b).get('/u/two')).status).not.toBe(429);
    expect((await request(a).get('/u/three')).status).not.toBe(429);
    expect((await request(b).get('/u/four')).status).toBe(429);
  });

  it('with Redis, failed authentications count where they fail, shared by API processes; a good token stores nothing and still passes', async () => {
    const store = redis();
    const a = await app({ RATE_LIMIT_PER_MINUTE: 3, TRUST_PROXY: 'true' }, { redis: redis() });
    const b = await app({ RATE_LIMIT_PER_MINUTE: 3, TRUST_PROXY: 'true' }, { redis: redis() });
    const w = await makeWorld();
    // An address of this test only (the counter lives in the shared Redis for a minute).
    const ip = `198.18.${randomInt(256)}.${randomInt(1, 255)}`;
    const key = `rl:auth-failures:ip:${ip}`;
    const get = (on: Express, token: string) => request(on).get('/api/v1/me').set('X-Forwarded-For', ip).set('Authorization', `Bearer ${token}`);
    expect((await get(a, w.tokens.owner)).status).toBe(200);
    expect((await get(b, w.tokens.owner)).status).toBe(200);
    expect(await store.exists(key)).toBe(0);

    const statuses = [];
    for (const on of [a, b, a, b]) statuses.push((await get(on, `rg_made-up-${randomUUID()}`)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect(Number(await store.get(key))).toBe(4);
    const limited = await get(a, `rg_made-up-${randomUUID()}`);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Too Many Attempts.' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another integration behind the same address (a shared egress) keeps working with its good token.
    expect((await get(b, w.tokens.orgOwner)).status).toBe(200);
    // /graphql counts a token that fails as well (anonymous callers without one go on to the schema).
    const graphql = await request(a).post('/graphql').set('X-Forwarded-For', ip).set('Authorization', 'Bearer rg_made-up').send({ query: '{ me { id } }' });
    expect(graphql.status).toBe(429);
    expect(Number(await store.get(key))).toBe(6);

    // Past the ceiling (10 x the limit: 30 failures) the process that saw it refuses the address before any look-up,
    // its good token included, and counts nothing more.
    for (let i = Number(await store.get(key)); i < FAILED_AUTH_CEILING_FACTOR * 3 + 1; i++) {
      expect((await get(b, `rg_made-up-${randomUUID()}`)).status).toBe(429);
    }
    expect(Number(await store.get(key))).toBe(31);
    const refused = await get(b, w.tokens.member);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(b, `rg_made-up-${randomUUID()}`)).status).toBe(429);
    expect(Number(await store.get(key))).toBe(31);
    // The other process has not seen a failure past the ceiling: it still looks the good token up.
    expect((await get(a, w.tokens.member)).status).toBe(200);
  });

});
