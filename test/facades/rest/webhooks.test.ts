import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { OutboxEvent, WebhookEndpoint } from '../../../src/models';
import * as webhooks from '../../../src/services/webhooks.service';
import * as delivery from '../../../src/jobs/webhook-delivery';
import { WEBHOOK_USER_AGENT } from '../../../src/webhooks/signing';
import { buildActivities } from '../../../workflows/activities';
import { useApp } from '../../support/app';
import { countStatements } from '../../support/db';
import { makeWorld, tokenFor } from '../../support/factories';
import { startReceiver } from '../../support/receiver';

/** Receivers and the delivery log of the caller's account (docs/decisions/webhooks.md, "Outbound webhooks"). */
describe('outbound webhooks at /api/v1/webhooks and /api/v1/webhook-deliveries', () => {
  // Leave no receivers or undispatched events behind for later files in this worker (a dispatcher there would
  // try to deliver them). Declared before the database hook, so it runs while the connection is open.
  afterAll(async () => {
    await WebhookEndpoint.destroy({ where: {} });
    await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });
  });
  const t = useApp();
  const RECEIVER = 'https://93.184.215.14/hooks/reviews';
  const api = (token: string) => ({
    get: (path: string) => t.http().get(`/api/v1${path}`).set('Authorization', `Bearer ${token}`),
    post: (path: string, body?: object) => t.http().post(`/api/v1${path}`).set('Authorization', `Bearer ${token}`).send(body ?? {}),
    put: (path: string, body: object) => t.http().put(`/api/v1${path}`).set('Authorization', `Bearer ${token}`).send(body),
    delete: (path: string) => t.http().delete(`/api/v1${path}`).set('Authorization', `Bearer ${token}`),
  });
  const drain = () => OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });

  describe('POST, GET, PUT, DELETE /api/v1/webhooks', () => {
    it('creates a receiver and answers 201 {data} with its whsec_ secret, shown again only on request', async () => {
      const w = await makeWorld();
      const owner = api(w.tokens.orgOwner);
      const res = await owner.post('/webhooks', { url: RECEIVER, description: 'CRM' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        data: {
          id: expect.any(Number),
          url: RECEIVER,
          description: 'CRM',
          enabled: true,
          events: null,
          previous_secret_expires_at: null,
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
          updated_at: expect.any(String),
          secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
        },
      });
      const { id, secret } = res.body.data;
      expect((await WebhookEndpoint.findByPk(id))!.customerId).toBe(w.orgOwner.customerId);

      const one = await owner.get(`/webhooks/${id}`);
      expect(one.status).toBe(200);
      expect(one.body.data).toMatchObject({ id, url: RECEIVER, description: 'CRM', enabled: true });
      expect(one.body.data.secret).toBeUndefined();

      const list = await owner.get('/webhooks');
      expect(list.status).toBe(200);
      expect(list.body.data.map((e: { id: number }) => e.id)).toEqual([id]);
      expect(list.body.meta).toMatchObject({ current_page: 1, per_page: 10, total: 1, from: 1, to: 1, last_page: 1 });
      expect(list.body.links.next).toBeNull();
      expect(JSON.stringify([one.body, list.body])).not.toContain(secret);

      const revealed = await owner.get(`/webhooks/${id}/secret`);
      expect(revealed.status).toBe(200);
      expect(revealed.body).toEqual({ data: { secret } });
    });

    it('changes only the fields sent (PUT); description null clears; DELETE removes it', async () => {
      const w = await makeWorld();
      const owner = api(w.tokens.orgOwner);
      const { id } = (await owner.post('/webhooks', { url: RECEIVER, description: 'CRM' })).body.data;
      const disabled = await owner.put(`/webhooks/${id}`, { enabled: false });
      expect(disabled.status).toBe(200);
      expect(disabled.body.data).toMatchObject({ id, url: RECEIVER, description: 'CRM', enabled: false });
      const moved = await owner.put(`/webhooks/${id}`, { url: 'https://93.184.215.15/v2', description: null, enabled: true });
      expect(moved.body.data).toMatchObject({ url: 'https://93.184.215.15/v2', description: null, enabled: true });

      const deleted = await owner.delete(`/webhooks/${id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ message: 'Webhook deleted successfully.' });
      expect((await owner.get(`/webhooks/${id}`)).status).toBe(404);
    });

    it('answers 422 {errors.url} for URLs that cannot receive webhooks', async () => {
      const w = await makeWorld();
      const owner = api(w.tokens.orgOwner);
      for (const [url, code] of [
        ['http://127.0.0.1:8080/hook', 'private_address'],
        ['http://169.254.169.254/latest/meta-data', 'private_address'],
        ['http://[::ffff:10.0.0.1]/', 'private_address'],
        ['http://localhost/hook', 'private_address'],
        ['ftp://93.184.215.14/x', 'invalid_url'],
        ['https://user:secret@93.184.215.14/', 'invalid_url'],
        [`https://93.184.215.14/${'a'.repeat(2100)}`, 'invalid_url'],
      ]) {
        const res = await owner.post('/webhooks', { url });
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ code, errors: { url: [expect.any(String)] } });
      }
      const missing = await owner.post('/webhooks', { description: 'no url' });
      expect(missing.status).toBe(422);
      expect(missing.body.errors.url).toEqual(['The url field is required.']);
      const { id } = (await owner.post('/webhooks', { url: RECEIVER })).body.data;
      const privateUpdate = await owner.put(`/webhooks/${id}`, { url: 'http://10.0.0.8/' });
      expect(privateUpdate.status).toBe(422);
      expect(privateUpdate.body.errors.url).toBeDefined();
      const long = await owner.post('/webhooks', { url: RECEIVER, description: 'x'.repeat(256) });
      expect(long.status).toBe(422);
      expect(long.body.errors.description).toEqual(['The description may not be greater than 255 characters.']);
      expect(await WebhookEndpoint.count({ where: { customerId: w.org.customerId } })).toBe(1);
    });

    it('accepts private receivers when WEBHOOK_ALLOW_PRIVATE_URLS=true', async () => {
      const w = await makeWorld();
      const before = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
      process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
      try {
        const res = await api(w.tokens.orgOwner).post('/webhooks', { url: 'http://127.0.0.1:4010/hook' });
        expect(res.status).toBe(201);
        expect(res.body.data.url).toBe('http://127.0.0.1:4010/hook');
      } finally {
        if (before === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
        else process.env.WEBHOOK_ALLOW_PRIVATE_URLS = before;
      }
    });
  });

  describe('POST /api/v1/webhooks/{id}/rotate-secret', () => {
    it('issues a new secret and keeps the previous one for 24 hours', async () => {
      const w = await makeWorld();
      const owner = api(w.tokens.orgOwner);
      const created = (await owner.post('/webhooks', { url: RECEIVER })).body.data;
      const started = Date.now();
      const rotated = await owner.post(`/webhooks/${created.id}/rotate-secret`);
      expect(rotated.status).toBe(200);
      expect(rotated.body.data.secret).toMatch(/^whsec_/);
      expect(rotated.body.data.secret).not.toBe(created.secret);
      const expires = Date.parse(rotated.body.data.previous_secret_expires_at);
      expect(expires - started).toBeGreaterThan(webhooks.SECRET_OVERLAP_MS - 60_000);
      expect(expires - started).toBeLessThanOrEqual(webhooks.SECRET_OVERLAP_MS + 60_000);
      const stored = (await WebhookEndpoint.findByPk(created.id))!;
      expect(stored.secret).toBe(rotated.body.data.secret);
      expect(stored.previousSecret).toBe(created.secret);
      expect((await owner.get(`/webhooks/${created.id}/secret`)).body.data.secret).toBe(rotated.body.data.secret);
    });
  });

  describe('scope and permissions', () => {
    it("answers 404 for another account's receivers and deliveries, also to the tenant owner (each account has its own)", async () => {
      const w = await makeWorld();
      const { id } = (await api(w.tokens.orgOwner).post('/webhooks', { url: RECEIVER })).body.data;
      const other = await makeWorld();
      for (const token of [other.tokens.orgOwner, w.tokens.owner]) {
        const x = api(token);
        expect((await x.get(`/webhooks/${id}`)).status).toBe(404);
        expect((await x.put(`/webhooks/${id}`, { enabled: false })).status).toBe(404);
        expect((await x.delete(`/webhooks/${id}`)).status).toBe(404);
        expect((await x.post(`/webhooks/${id}/rotate-secret`)).status).toBe(404);
        expect((await x.get(`/webhooks/${id}/secret`)).status).toBe(404);
        expect((await x.get(`/webhooks/${id}/deliveries`)).status).toBe(404);
        expect((await x.get('/webhooks')).body.data).toEqual([]);
      }
      expect((await WebhookEndpoint.findByPk(id))!.enabled).toBe(true);
    });

    it('answers 403 to team members: only account owners manage webhooks', async () => {
      const w = await makeWorld();
      const { id } = (await api(w.tokens.orgOwner).post('/webhooks', { url: RECEIVER })).body.data;
      const member = api(w.tokens.member);
      expect((await member.get('/webhooks')).status).toBe(403);
      expect((await member.get(`/webhooks/${id}`)).status).toBe(403);
      expect((await member.post('/webhooks', { url: RECEIVER })).status).toBe(403);
      expect((await member.get(`/webhooks/${id}/deliveries`)).status).toBe(403);
    });

    it('needs organizations:read to read and organizations:update to change, rotate or reveal, each with reviews:read', async () => {
      const w = await makeWorld();
      const { id } = (await api(w.tokens.orgOwner).post('/webhooks', { url: RECEIVER })).body.data;
      const reader = api(await tokenFor(w.orgOwner, ['organizations:read', 'reviews:read']));
      expect((await reader.get('/webhooks')).status).toBe(200);
      expect((await reader.get(`/webhooks/${id}`)).status).toBe(200);
      for (const res of [
        await reader.post('/webhooks', { url: RECEIVER }),
        await reader.put(`/webhooks/${id}`, { enabled: false }),
        await reader.delete(`/webhooks/${id}`),
        await reader.post(`/webhooks/${id}/rotate-secret`),
        await reader.get(`/webhooks/${id}/secret`),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('missing_permission');
      }
      const blind = api(await tokenFor(w.orgOwner, ['reviews:read']));
      expect((await blind.get('/webhooks')).status).toBe(403);
    });

    it('refuses a token without reviews:read: receivers get, and the delivery log shows, reviews and private feedback', async () => {
      const w = await makeWorld();
      const { id } = (await api(w.tokens.orgOwner).post('/webhooks', { url: RECEIVER })).body.data;
      const orgsOnly = api(await tokenFor(w.orgOwner, ['organizations:read', 'organizations:create', 'organizations:update', 'organizations:delete']));
      expect((await orgsOnly.get('/reviews')).status).toBe(403);
      for (const res of [
        await orgsOnly.get('/webhooks'),
        await orgsOnly.get(`/webhooks/${id}`),
        await orgsOnly.get(`/webhooks/${id}/deliveries`),
        await orgsOnly.post('/webhooks', { url: RECEIVER }),
        await orgsOnly.put(`/webhooks/${id}`, { url: `${RECEIVER}/mine` }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('missing_permission');
        expect(res.body.message).toContain('reviews:read');
      }
      const writer = api(await tokenFor(w.orgOwner, ['organizations:update', 'reviews:read']));
      expect((await writer.put(`/webhooks/${id}`, { enabled: false })).status).toBe(200);
    });

    it('answers 404 for ids that name nothing', async () => {
      const w = await makeWorld();
      const owner = api(w.tokens.orgOwner);
      expect((await owner.get('/webhooks/abc')).status).toBe(404);
      expect((await owner.get('/webhooks/99999999999')).status).toBe(404);
      expect((await owner.get('/webhook-deliveries/not-a-uuid')).status).toBe(404);
      expect((await owner.get('/webhook-deliveries/00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await owner.post('/webhook-deliveries/00000000-0000-4000-8000-000000000000/redeliver')).status).toBe(404);
    });
  });

  describe('event filters (issue 15: subscribe to some events only; default all)', () => {
    it('a receiver gets only the events it subscribed to; null subscribes it to every event again', async () => {
      const w = await makeWorld();
      const owner = api(w.tokens.orgOwner);
      const all = (await owner.post('/webhooks', { url: RECEIVER })).body.data;
      const created = await owner.post('/webhooks', { url: `${RECEIVER}/locations`, events: ['location-created', 'location-deleted', 'location-created'] });
      expect(created.status).toBe(201);
      expect([all.events, created.body.data.events]).toEqual([null, ['location-created', 'location-deleted']]);
      const some = created.body.data;
      await drain();

      expect((await owner.put(`/locations/${w.branch.id}`, { name: 'Renamed' })).status).toBe(200); // location-updated
      const claimed = await delivery.claimPendingEvents(10);
      expect(claimed).toHaveLength(1);
      expect(claimed[0].deliveryIds).toHaveLength(1); // only the receiver of every event
      expect((await owner.get(`/webhooks/${some.id}/deliveries`)).body.data).toEqual([]);
      expect((await owner.get(`/webhooks/${all.id}/deliveries`)).body.data.map((d: { event: string }) => d.event)).toEqual(['location-updated']);

      // Every event again.
      const reset = await owner.put(`/webhooks/${some.id}`, { events: null });
      expect(reset.body.data.events).toBeNull();
      expect((await owner.put(`/locations/${w.branch.id}`, { name: 'Renamed again' })).status).toBe(200);
      const next = await delivery.claimPendingEvents(10);
      expect(next[0].deliveryIds).toHaveLength(2);
    });

    it('refuses unknown event names, an empty list and a value that is not a list (422 on events)', async () => {
      const w = await makeWorld();
      const owner = api(w.tokens.orgOwner);
      for (const events of [['review-created', 'nope'], [], 'review-created', [1]]) {
        const res = await owner.post('/webhooks', { url: RECEIVER, events });
        expect([JSON.stringify(events), res.status, Object.keys(res.body.errors ?? {})]).toEqual([JSON.stringify(events), 422, ['events']]);
      }
      expect(await WebhookEndpoint.count({ where: { customerId: w.org.customerId } })).toBe(0);
    });
  });

  describe('GET /api/v1/webhooks/{id}/deliveries and /api/v1/webhook-deliveries/{id}', () => {
    /** A receiver, and one delivery made the way the dispatcher makes them. */
    async function withDelivery() {
      const w = await makeWorld();
      const owner = api(w.tokens.orgOwner);
      const endpoint = (await owner.post('/webhooks', { url: RECEIVER })).body.data;
      await drain();
      expect((await owner.put(`/locations/${w.branch.id}`, { name: 'Branch renamed' })).status).toBe(200);
      const claimed = await delivery.claimPendingEvents(10);
      expect(claimed).toHaveLength(1);
      return { w, owner, endpoint, deliveryId: claimed[0].deliveryIds[0] };
    }

    it('lists the deliveries of a receiver, newest first, with their attempts', async () => {
      const { w, owner, endpoint, deliveryId } = await withDelivery();
      await delivery.recordAttempt(deliveryId, { attempt: 1, statusCode: 500, latencyMs: 42, error: 'The receiver answered 500', responseExcerpt: 'oops', succeeded: false });
      const res = await owner.get(`/webhooks/${endpoint.id}/deliveries`);
      expect(res.status).toBe(200);
      expect(res.body.meta).toMatchObject({ total: 1, per_page: 10 });
      expect(res.body.data).toEqual([
        {
          id: deliveryId,
          webhook_id: endpoint.id,
          event: 'location-updated',
          status: 'pending',
          attempt_count: 1,
          last_status_code: 500,
          last_error: 'The receiver answered 500',
          delivered_at: null,
          payload: {
            webhook_event: 'location-updated',
            id: w.branch.id,
            organization_id: w.org.id,
            name: 'Branch renamed',
            created_at: expect.any(String),
            updated_at: expect.any(String),
          },
          attempts: [
            {
              attempt: 1,
              status_code: 500,
              latency_ms: 42,
              error: 'The receiver answered 500',
              response_excerpt: 'oops',
              request_headers: null,
              response_headers: null,
              created_at: expect.any(String),
            },
          ],
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      ]);

      const one = await owner.get(`/webhook-deliveries/${deliveryId}`);
      expect(one.status).toBe(200);
      expect(one.body.data).toEqual(res.body.data[0]);
      expect((await owner.get(`/webhook-deliveries/${deliveryId.toUpperCase()}`)).status).toBe(200);
    });

    it("shows each attempt's headers sent, the receiver's headers and the first KB of its answer (REST and GraphQL)", async () => {
      const receiver = await startReceiver(() => ({
        status: 200,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Request-Id': 'rcv-123', 'Set-Cookie': ['a=1', 'b=2'] },
        body: `ab${'€'.repeat(340)}😀 and more after the first KB`, // the emoji runs across byte 1024
      }));
      const before = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
      process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true'; // the receiver lives on loopback
      try {
        const w = await makeWorld();
        const owner = api(w.tokens.orgOwner);
        const { id: endpointId, secret } = (await owner.post('/webhooks', { url: receiver.url })).body.data;
        await drain();
        expect((await owner.put(`/locations/${w.branch.id}`, { name: 'Branch logged' })).status).toBe(200);
        const [{ deliveryIds: [deliveryId] }] = await delivery.claimPendingEvents(10);
        // The worker's own activity, run outside Temporal.
        const { attemptWebhookDelivery } = buildActivities({ WEBHOOK_TIMEOUT_MS: 5_000, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
        await new MockActivityEnvironment({ attempt: 1 }, { logger: new DefaultLogger('ERROR') }).run(attemptWebhookDelivery, deliveryId);
        const [got] = receiver.received;

        const res = await owner.get(`/webhook-deliveries/${deliveryId}`);
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ webhook_id: endpointId, status: 'succeeded', attempt_count: 1 });
        const [attempt] = res.body.data.attempts;
        expect(attempt).toEqual({
          attempt: 1,
          status_code: 200,
          latency_ms: expect.any(Number),
          error: null,
          response_excerpt: `ab${'€'.repeat(340)}`, // 1022 bytes: the 4-byte character across the cut is left out
          request_headers: {
            'content-type': 'application/json',
            'user-agent': WEBHOOK_USER_AGENT,
            'webhook-id': deliveryId,
            'webhook-timestamp': got.headers['webhook-timestamp'],
            'webhook-signature': got.headers['webhook-signature'],
          },
          response_headers: expect.objectContaining({ 'content-type': 'text/plain; charset=utf-8', 'x-request-id': 'rcv-123', 'set-cookie': 'a=1, b=2', date: expect.any(String) }),
          created_at: expect.any(String),
        });
        expect(Buffer.byteLength(attempt.response_excerpt)).toBe(1022);
        expect(JSON.stringify(res.body)).not.toContain(secret.slice('whsec_'.length));
        expect((await owner.get(`/webhooks/${endpointId}/deliveries`)).body.data[0].attempts).toEqual([attempt]);

        const gql = await t
          .as(w.tokens.orgOwner)
          .post('/graphql')
          .send({
            query: 'query ($id: String!) { webhookDelivery(id: $id) { attempts { responseExcerpt requestHeaders { name value } responseHeaders { name value } } } }',
            variables: { id: deliveryId },
          });
        expect(gql.body.errors).toBeUndefined();
        const [served] = gql.body.data.webhookDelivery.attempts;
        expect(served.responseExcerpt).toBe(attempt.response_excerpt);
        expect(served.requestHeaders).toEqual(Object.entries(attempt.request_headers).map(([name, value]) => ({ name, value })));
        expect(served.responseHeaders).toEqual(Object.entries(attempt.response_headers).map(([name, value]) => ({ name, value })));
      } finally {
        if (before === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
        else process.env.WEBHOOK_ALLOW_PRIVATE_URLS = before;
        await receiver.close();
      }
    });

    it('filters by status and event, and answers 422 for unknown ones', async () => {
      const { owner, endpoint } = await withDelivery();
      const q = (query: string) => owner.get(`/webhooks/${endpoint.id}/deliveries?${query}`);
      expect((await q('status=pending')).body.meta.total).toBe(1);
      expect((await q('status=succeeded')).body.meta.total).toBe(0);
      expect((await q('event=location-updated')).body.meta.total).toBe(1);
      expect((await q('event=review-created')).body.meta.total).toBe(0);
      const badStatus = await q('status=lost');
      expect(badStatus.status).toBe(422);
      expect(badStatus.body.errors.status).toBeDefined();
      const badEvent = await q('event=everything');
      expect(badEvent.status).toBe(422);
      expect(badEvent.body.errors.event).toBeDefined();
      const badPage = await q('per_page=101');
      expect(badPage.status).toBe(422);
      expect(badPage.body.errors.per_page).toBeDefined();
      const paged = await q('per_page=1&page=2');
      expect(paged.body.data).toEqual([]);
      expect(paged.body.links.prev).toContain('per_page=1');
    });

    it("answers 404 for another account's delivery, and 422 webhook_disabled when redelivering to a disabled receiver", async () => {
      const { owner, endpoint, deliveryId } = await withDelivery();
      const other = api((await makeWorld()).tokens.orgOwner);
      expect((await other.get(`/webhook-deliveries/${deliveryId}`)).status).toBe(404);
      expect((await other.post(`/webhook-deliveries/${deliveryId}/redeliver`)).status).toBe(404);
      expect((await api((await makeWorld()).tokens.owner).get(`/webhook-deliveries/${deliveryId}`)).status).toBe(404);
      await owner.put(`/webhooks/${endpoint.id}`, { enabled: false });
      const res = await owner.post(`/webhook-deliveries/${deliveryId}/redeliver`);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('webhook_disabled');
    });

    it('resolves a page of deliveries with their attempts in a constant number of SQL statements (no N+1)', async () => {
      const { w, owner, endpoint } = await withDelivery();
      const count = async () => {
        const { n, result: res } = await countStatements(t.db(), async () => owner.get(`/webhooks/${endpoint.id}/deliveries?per_page=100`));
        expect(res.status).toBe(200);
        return { n, items: res.body.data.length };
      };
      await count(); // warm-up: token bookkeeping
      const before = await count();
      for (const name of ['One', 'Two', 'Three']) await owner.put(`/locations/${w.home.id}`, { name });
      for (const c of await delivery.claimPendingEvents(10)) {
        for (const id of c.deliveryIds) await delivery.recordAttempt(id, { attempt: 1, statusCode: 200, latencyMs: 5, error: null, responseExcerpt: null, succeeded: true });
      }
      const after = await count();
      expect(after.items).toBe(before.items + 3);
      expect(after.n).toBe(before.n);
      // Newest first: the last change's delivery leads.
      const names = (await owner.get(`/webhooks/${endpoint.id}/deliveries`)).body.data.map((d: { payload: { name: string } }) => d.payload.name);
      expect(names).toEqual(['Three', 'Two', 'One', 'Branch renamed']);
    });
  });
});
