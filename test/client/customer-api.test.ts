import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { ApiError, createCustomerClient, paginate, pages, verifyWebhook, type CustomerClient, type WebhookEvent } from '../../clients/typescript/src';
import { OutboxEvent, WebhookDelivery } from '../../src/models';
import { claimPendingEvents } from '../../src/jobs/webhook-delivery';
import { buildActivities } from '../../workflows/activities';
import { serveApp, type ServedApp } from '../support/app';
import { useDatabase } from '../support/db';
import { ALL, makeOrgOwner, makeTenant, tokenFor } from '../support/factories';
import { startReceiver } from '../support/receiver';

/**
 * The typed client (clients/typescript, issue 15 item 5) against the real app on a loopback port: what an integrator
 * writes, end to end. Every answer it receives is also checked against the OpenAPI document (contract hooks).
 */
describe('typed client: customer API end to end', () => {
  useDatabase();
  let served: ServedApp;
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
  beforeAll(async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true'; // receivers live on loopback
    served = await serveApp();
  });
  afterAll(async () => {
    await served?.close();
    if (saved === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
    else process.env.WEBHOOK_ALLOW_PRIVATE_URLS = saved;
  });

  /** Later files of this worker must find no undelivered events of ours (a dispatcher there would deliver them). */
  const drainOutbox = () => OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });

  /** A new account (tenant, organisation owner) and a client holding its token with `permissions`. */
  async function account(permissions: string[] = ALL): Promise<CustomerClient> {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id);
    return createCustomerClient({ baseUrl: served.origin, token: await tokenFor(owner, permissions) });
  }

  /** An organisation made through the API, and the custom/testimonial source its default location writes to. */
  async function organisationWithSource(client: CustomerClient, name = `Client Org ${Date.now()}`) {
    const { data: org, response } = await client.POST('/organizations', { body: { name } });
    expect(response.status).toBe(201);
    const { data: sources } = await client.GET('/reviews/sources', { params: { query: { per_page: 100 } } });
    const source = sources.data.find((s) => s.location_id === org.default_location_id);
    if (!source || org.default_location_id === null) throw new Error('the new organisation has no writable source');
    return { org, locationId: org.default_location_id, sourceId: source.id };
  }

  it('creates an organisation, then creates, lists across pages, updates, replies to and deletes reviews', async () => {
    const client = await account();
    const { org, locationId, sourceId } = await organisationWithSource(client);
    expect(org).toMatchObject({ name: expect.stringMatching(/^Client Org/), default_location_id: locationId });

    const created: number[] = [];
    for (let i = 0; i < 7; i++) {
      const { data, response } = await client.POST('/reviews', {
        body: {
          author: `Author ${i}`,
          rating: 1 + (i % 5),
          published_on: `2026-01-${String(10 + i).padStart(2, '0')}`,
          organization_id: org.id,
          location_id: locationId,
          source: sourceId,
          message: `Review number ${i}`,
        },
      });
      expect(response.status).toBe(201);
      expect(data.data).toMatchObject({ author: `Author ${i}`, organization_id: org.id, location_id: locationId, integration_id: sourceId });
      created.push(data.data.id);
    }

    // Three pages of 3, 3 and 1, walked by the iterator: every review once, newest first.
    const seenPages: Array<{ page: number; count: number }> = [];
    for await (const page of pages(client, '/reviews', { query: { organization_id: org.id, per_page: 3 } })) {
      seenPages.push({ page: page.meta.current_page, count: page.data.length });
    }
    expect(seenPages).toEqual([
      { page: 1, count: 3 },
      { page: 2, count: 3 },
      { page: 3, count: 1 },
    ]);
    const authors: string[] = [];
    for await (const review of paginate(client, '/reviews', { query: { organization_id: org.id, per_page: 3 } })) authors.push(review.author);
    expect(authors).toEqual([6, 5, 4, 3, 2, 1, 0].map((i) => `Author ${i}`));
    // Filters ride along on every page (rating 2: reviews 1 and 6).
    const twos: number[] = [];
    for await (const review of paginate(client, '/reviews', { query: { organization_id: org.id, rating: 2, per_page: 1 } })) twos.push(review.id);
    expect(twos.sort()).toEqual([created[1], created[6]].sort());

    const [first] = created;
    const { data: updated } = await client.PUT('/reviews/{id}', { params: { path: { id: first } }, body: { rating: 4, title: 'Better on a second visit' } });
    expect(updated.data).toMatchObject({ id: first, rating: 4, title: 'Better on a second visit', reply: null });

    const { data: replied } = await client.POST('/reviews/{id}/reply', { params: { path: { id: first } }, body: { message: 'Thank you, come again.' } });
    expect(replied.data).toMatchObject({ id: first, reply: 'Thank you, come again.', reply_date: expect.any(String) });
    const { data: fetched } = await client.GET('/reviews/{id}', { params: { path: { id: first } } });
    expect(fetched.data.reply).toBe('Thank you, come again.');

    const { data: deleted } = await client.DELETE('/reviews/{id}', { params: { path: { id: first } } });
    expect(deleted.message).toEqual(expect.any(String));
    const gone = await client.GET('/reviews/{id}', { params: { path: { id: first } } }).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toMatchObject({ status: 404, message: expect.any(String) });
  });

  it('answers a typed ApiError: 404 for another account\'s review, 422 with the field errors, 403 with the permission missing', async () => {
    const client = await account();
    const { org, locationId, sourceId } = await organisationWithSource(client);
    const other = await account();
    const { data: mine } = await client.POST('/reviews', {
      body: { author: 'Ada', rating: 5, published_on: '2026-02-01', organization_id: org.id, location_id: locationId, source: sourceId },
    });

    const notFound = await other.GET('/reviews/{id}', { params: { path: { id: mine.data.id } } }).catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(ApiError);
    expect((notFound as ApiError).status).toBe(404);
    expect((notFound as ApiError).errors).toEqual({});

    const base = { author: 'Ada', rating: 5, published_on: '2026-02-01', organization_id: org.id, location_id: locationId, source: sourceId };
    const missing = await client.POST('/reviews', { body: { ...base, author: '', published_on: '' } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    const e = missing as ApiError;
    expect(e.status).toBe(422);
    expect(e.message.length).toBeGreaterThan(0);
    expect(Object.keys(e.errors).sort()).toEqual(['author', 'published_on']);
    expect(e.fieldErrors('author')).toEqual([expect.any(String)]);
    expect(e.fieldErrors('message')).toEqual([]);
    const outOfRange = (await client.POST('/reviews', { body: { ...base, rating: 9 } }).catch((err: unknown) => err)) as ApiError;
    expect(outOfRange).toMatchObject({ status: 422, errors: { rating: [expect.any(String)] } });

    const readOnly = createCustomerClient({ baseUrl: `${served.origin}/api/v1/`, token: await tokenFor(await makeOrgOwner((await makeTenant()).tenant.id), ['reviews:read']) });
    const forbidden = await readOnly.POST('/organizations', { body: { name: 'Not allowed' } }).catch((err: unknown) => err);
    expect(forbidden).toMatchObject({ name: 'ApiError', status: 403 });

    // The openapi-fetch client underneath answers instead of throwing, for callers who prefer that.
    const raw = await other.raw.GET('/reviews/{id}', { params: { path: { id: mine.data.id } } });
    expect(raw.response.status).toBe(404);
    expect(raw.error).toMatchObject({ message: expect.any(String) });
  });

  it('creates a webhook receiver, and the receiver verifies the test ping and a real review-created delivery with verifyWebhook', async () => {
    const client = await account();
    const { org, locationId, sourceId } = await organisationWithSource(client);
    const received: WebhookEvent[] = [];
    let secret = '';
    const receiver = await startReceiver((_n, req) => {
      try {
        received.push(verifyWebhook({ secret, headers: req.headers, body: req.body }));
        return { status: 200, body: 'ok' };
      } catch {
        return { status: 400, body: 'bad signature' };
      }
    });
    try {
      const { data: hook } = await client.POST('/webhooks', { body: { url: receiver.url, description: 'Typed client test' } });
      secret = hook.data.secret;
      expect(secret).toMatch(/^whsec_/);

      const { data: ping } = await client.POST('/webhooks/{id}/test', { params: { path: { id: hook.data.id } } });
      expect(ping.data).toMatchObject({ delivered: true, status_code: 200 });
      expect(received).toEqual([expect.objectContaining({ webhook_event: 'ping', webhook_id: hook.data.id })]);

      // A review made through the API becomes a review-created event, delivered by the worker's own activity.
      await drainOutbox();
      const { data: review } = await client.POST('/reviews', {
        body: { author: 'Webhook Watcher', rating: 4, published_on: '2026-03-01', organization_id: org.id, location_id: locationId, source: sourceId },
      });
      await claimPendingEvents(100);
      const delivery = await WebhookDelivery.findOne({ where: { endpointId: hook.data.id, event: 'review-created' } });
      expect(delivery).not.toBeNull();
      const activities = buildActivities({ WEBHOOK_TIMEOUT_MS: 5_000, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
      await new MockActivityEnvironment({ attempt: 1 }, { logger: new DefaultLogger('ERROR') }).run(activities.attemptWebhookDelivery, delivery!.id);

      expect(receiver.received).toHaveLength(2);
      const event = received[1];
      if (event?.webhook_event !== 'review-created') throw new Error(`expected review-created, got ${event?.webhook_event}`);
      expect(event).toMatchObject({ webhook_event: 'review-created' });
      expect(JSON.stringify(event)).toContain(String(review.data.id));
      expect(await WebhookDelivery.findByPk(delivery!.id)).toMatchObject({ status: 'succeeded' });

      // The same bytes with another secret, or a minute past the tolerance, are refused.
      const [, got] = receiver.received;
      expect(() => verifyWebhook({ secret: 'whsec_' + Buffer.from('another secret of enough bytes!!').toString('base64'), headers: got.headers, body: got.body })).toThrow(
        /No webhook-signature entry matches/,
      );
      const late = new Date((Number(got.headers['webhook-timestamp']) + 360) * 1000);
      expect(() => verifyWebhook({ secret, headers: got.headers, body: got.body, now: late })).toThrow(/too old or too new/);

      const { data: removed } = await client.DELETE('/webhooks/{id}', { params: { path: { id: hook.data.id } } });
      expect(removed).toBeDefined();
    } finally {
      await receiver.close();
      await drainOutbox();
    }
  });
});
