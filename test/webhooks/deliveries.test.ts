import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { QueryTypes } from 'sequelize';
import { Webhook } from 'standardwebhooks';
import { fixedClock } from '../../src/domain/clock';
import { Forbidden, NotFound, Upstream, Validation } from '../../src/domain/errors';
import { Integration, OutboxEvent, WebhookAttempt, WebhookDelivery, WebhookEndpoint, type User } from '../../src/models';
import { principalFor } from '../../src/services/auth.service';
import * as locations from '../../src/services/locations.service';
import * as reviews from '../../src/services/reviews.service';
import * as webhooks from '../../src/services/webhooks.service';
import * as delivery from '../../src/jobs/webhook-delivery';
import { EXCERPT_BYTES, MAX_HEADER_VALUE_CHARS, MAX_LOGGED_HEADERS } from '../../src/webhooks/delivery-log';
import { signatureHeaders, WEBHOOK_USER_AGENT } from '../../src/webhooks/signing';
import { buildActivities } from '../../workflows/activities';
import { useDatabase } from '../support/db';
import { ALL, makeOrgOwner, makeOrganization, makeTenant, makeWorld } from '../support/factories';
import { startReceiver } from '../support/receiver';
import { waitUntil } from '../support/wait';

/** What the outbox dispatcher and the delivery activity call (the Temporal side is tested with the workflows). */
describe('webhook deliveries: dispatch, attempts, redelivery', () => {
  // Leave no receivers or undispatched events behind for later files in this worker (a dispatcher there would
  // try to deliver them). Declared before the database hook, so it runs while the connection is open.
  afterAll(async () => {
    await WebhookEndpoint.destroy({ where: {} });
    await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });
  });
  useDatabase();
  const as = (user: User) => principalFor(user, { id: 0, kind: 'customer', permissions: ALL });
  const PUBLIC = { allowPrivateUrls: false };
  const addEndpoint = async (user: User, input: { url?: string; enabled?: boolean } = {}) =>
    (await webhooks.createEndpoint(await as(user), { url: input.url ?? 'https://93.184.215.14/hooks', enabled: input.enabled }, PUBLIC)).endpoint;
  /** Other files' events stay in this worker's database: each test starts from an empty outbox. */
  const drain = () => OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });

  /** A world whose org owner's account has receivers, and one event for that account. */
  async function eventWithReceivers(receivers: Array<{ enabled?: boolean }> = [{}, {}]) {
    const w = await makeWorld();
    const endpoints = [];
    for (const r of receivers) endpoints.push(await addEndpoint(w.orgOwner, r));
    await drain();
    await locations.update(await as(w.orgOwner), w.branch.id, { name: `Renamed ${Date.now()}` });
    const event = (await OutboxEvent.findOne({ where: { tenantId: w.tenant.id, event: 'location-updated' } }))!;
    return { w, endpoints, event };
  }

  it('claims an event once per enabled receiver of its account, and a retry finds the same deliveries', async () => {
    const { w, endpoints, event } = await eventWithReceivers([{}, {}, { enabled: false }]);
    const first = await delivery.claimPendingEvents(10);
    expect(first).toEqual([{ eventId: Number(event.id), deliveryIds: [expect.any(String), expect.any(String)] }]);
    const deliveries = await WebhookDelivery.findAll({ where: { outboxEventId: event.id }, order: [['endpointId', 'ASC']] });
    expect(deliveries.map((d) => d.endpointId)).toEqual([endpoints[0].id, endpoints[1].id]);
    expect(deliveries.map((d) => d.id).sort()).toEqual([...first[0].deliveryIds].sort());
    expect(deliveries[0]).toMatchObject({ tenantId: w.tenant.id, customerId: w.org.customerId, event: 'location-updated', status: 'pending', attempts: 0 });
    const [raw] = await OutboxEvent.sequelize!.query<{ payload: string }>('SELECT payload FROM outbox_events WHERE id = ?', { replacements: [event.id], type: QueryTypes.SELECT });
    expect(deliveries[0].payload).toBe(raw!.payload); // the body is the event's stored JSON, byte for byte
    expect(JSON.parse(deliveries[0].payload).webhook_event).toBe('location-updated');

    // The dispatcher died before marking the event: claiming again gives the same ids and no duplicates.
    const again = await delivery.claimPendingEvents(10);
    expect(again).toEqual(first);
    expect(await WebhookDelivery.count({ where: { outboxEventId: event.id } })).toBe(2);

    await delivery.markEventsDispatched([Number(event.id)]);
    expect((await OutboxEvent.findByPk(event.id))!.dispatchedAt).toBeInstanceOf(Date);
    expect(await delivery.claimPendingEvents(10)).toEqual([]);
  });

  it('claims large bodies for many receivers (statements are cut by size)', async () => {
    const w = await makeWorld();
    for (let i = 0; i < 6; i++) await addEndpoint(w.orgOwner);
    await drain();
    const source = await Integration.findOne({ where: { locationId: w.home.id, type: 'testimonials' } });
    const message = 'é'.repeat(450_000); // 900 KB of UTF-8 per body, 5.4 MB for the six receivers
    await reviews.create(await as(w.orgOwner), { author: 'Long', rating: 5, publishedOn: '2026-11-20', organizationId: w.org.id, locationId: w.home.id, source: source!.id, message });
    const [claimed] = await delivery.claimPendingEvents(10);
    expect(claimed.deliveryIds).toHaveLength(6);
    const deliveries = await WebhookDelivery.findAll({ where: { outboxEventId: claimed.eventId } });
    expect(deliveries.every((d) => JSON.parse(d.payload).message === message)).toBe(true);
  });

  it('marks events of accounts without an enabled receiver dispatched at once, with no deliveries', async () => {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id);
    await drain();
    const org = await makeOrganization(owner); // organization-created + location-created
    const claimed = await delivery.claimPendingEvents(10);
    expect(claimed).toHaveLength(2);
    expect(claimed.every((c) => c.deliveryIds.length === 0)).toBe(true);
    const events = await OutboxEvent.findAll({ where: { tenantId: tenant.id } });
    expect(events.every((e) => e.dispatchedAt !== null)).toBe(true);
    expect(await WebhookDelivery.count({ where: { customerId: org.customerId } })).toBe(0);
    expect(await delivery.claimPendingEvents(10)).toEqual([]);
  });

  it('gives a receiver only the events that occurred after it was added', async () => {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id);
    await drain();
    await makeOrganization(owner); // two events, before any receiver
    // The receiver is added strictly after them on the millisecond clock (an event of the same millisecond is its).
    const last = Math.max(...(await OutboxEvent.findAll({ where: { tenantId: tenant.id } })).map((e) => e.occurredAt.getTime()));
    await waitUntil(async () => Date.now() > last, 1_000, 1);
    await addEndpoint(owner);
    const claimed = await delivery.claimPendingEvents(10);
    expect(claimed.map((c) => c.deliveryIds)).toEqual([[], []]);
  });

  it('claims the oldest events first, at most `limit`', async () => {
    const { w, event } = await eventWithReceivers([{}]);
    await locations.update(await as(w.orgOwner), w.home.id, { name: 'Second' });
    const [only] = await delivery.claimPendingEvents(1);
    expect(only.eventId).toBe(Number(event.id));
    await delivery.markEventsDispatched([only.eventId]);
    const [next] = await delivery.claimPendingEvents(1);
    expect(next.eventId).toBeGreaterThan(only.eventId);
  });

  it('loads what an attempt needs, signing with both secrets during the 24-hour overlap of a rotation', async () => {
    const { w, endpoints } = await eventWithReceivers([{}]);
    const [{ deliveryIds }] = await delivery.claimPendingEvents(10);
    const oldSecret = (await WebhookEndpoint.findByPk(endpoints[0].id))!.secret;
    const loaded = (await delivery.loadDeliveryForAttempt(deliveryIds[0]))!;
    expect(loaded).toMatchObject({ id: deliveryIds[0], status: 'pending', url: 'https://93.184.215.14/hooks', endpointId: endpoints[0].id, secrets: [oldSecret] });
    const headers = signatureHeaders({ id: loaded.id, timestamp: new Date(), body: loaded.body, secrets: loaded.secrets });
    expect(new Webhook(oldSecret).verify(loaded.body, headers)).toMatchObject({ webhook_event: 'location-updated', id: w.branch.id });

    const now = new Date();
    const clock = fixedClock(now);
    const { secret } = await webhooks.rotateSecret(await as(w.orgOwner), endpoints[0].id, { clock });
    expect((await delivery.loadDeliveryForAttempt(deliveryIds[0], { clock }))!.secrets).toEqual([secret, oldSecret]);
    clock.advance(webhooks.SECRET_OVERLAP_MS - 1000);
    expect((await delivery.loadDeliveryForAttempt(deliveryIds[0], { clock }))!.secrets).toEqual([secret, oldSecret]);
    clock.advance(2000);
    expect((await delivery.loadDeliveryForAttempt(deliveryIds[0], { clock }))!.secrets).toEqual([secret]);

    await webhooks.updateEndpoint(await as(w.orgOwner), endpoints[0].id, { enabled: false }, PUBLIC);
    expect(await delivery.loadDeliveryForAttempt(deliveryIds[0])).toBeNull();
    await webhooks.deleteEndpoint(await as(w.orgOwner), endpoints[0].id);
    expect(await delivery.loadDeliveryForAttempt(deliveryIds[0])).toBeNull();
    expect(await WebhookDelivery.count({ where: { id: deliveryIds[0] } })).toBe(0); // the log goes with its receiver
  });

  it('records attempts: a failure keeps the delivery pending, a success marks it delivered; failing it later changes nothing', async () => {
    await eventWithReceivers([{}]);
    const [{ deliveryIds: [id] }] = await delivery.claimPendingEvents(10);
    const at = new Date('2026-11-22T10:00:00.000Z');
    await delivery.recordAttempt(id, { attempt: 1, statusCode: 503, latencyMs: 120.4, error: 'The receiver answered 503', responseExcerpt: 'é'.repeat(600), succeeded: false }, { clock: fixedClock(at) });
    expect(await WebhookDelivery.findByPk(id)).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 503, lastError: 'The receiver answered 503', deliveredAt: null });
    await delivery.recordAttempt(id, { attempt: 2, statusCode: 204, latencyMs: 35, error: null, responseExcerpt: null, succeeded: true }, { clock: fixedClock(new Date(at.getTime() + 5000)) });
    const delivered = (await WebhookDelivery.findByPk(id))!;
    expect(delivered).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 204, lastError: null });
    expect(delivered.deliveredAt!.toISOString()).toBe('2026-11-22T10:00:05.000Z');
    const attempts = await WebhookAttempt.findAll({ where: { deliveryId: id }, order: [['id', 'ASC']] });
    expect(attempts.map((a) => [a.attempt, a.statusCode, a.latencyMs])).toEqual([[1, 503, 120], [2, 204, 35]]);
    expect(attempts[0].responseExcerpt).toBe('é'.repeat(512)); // 1200 bytes of UTF-8 kept to the first 1024
    expect([attempts[0].requestHeaders, attempts[0].responseHeaders]).toEqual([null, null]); // none given

    await delivery.markDeliveryFailed(id, 'gave up');
    expect((await WebhookDelivery.findByPk(id))!.status).toBe('succeeded');
  });

  it('marks a delivery failed with the reason when the workflow gives up', async () => {
    await eventWithReceivers([{}]);
    const [{ deliveryIds: [id] }] = await delivery.claimPendingEvents(10);
    await delivery.markDeliveryFailed(id, 'Retries exhausted: '.padEnd(700, '.'));
    const failed = (await WebhookDelivery.findByPk(id))!;
    expect(failed.status).toBe('failed');
    expect(failed.lastError).toHaveLength(500);
    await expect(delivery.recordAttempt('00000000-0000-4000-8000-000000000000', { attempt: 1, statusCode: null, latencyMs: 1, error: 'x', responseExcerpt: null, succeeded: false })).resolves.toBeUndefined();
  });

  it("gives a pending delivery to the first retry run that claims it; another run is told it is held, and can't fail it", async () => {
    await eventWithReceivers([{}]);
    const [{ deliveryIds: [id] }] = await delivery.claimPendingEvents(10);
    const [a, b] = ['webhook-retries:q:1:1000', 'webhook-retries:q:1:2000'];
    // Both at once: one conditional UPDATE wins.
    const [heldForA, heldForB] = await Promise.all([delivery.claimDeliveriesForRetries([id], a), delivery.claimDeliveriesForRetries([id], b)]);
    const owner = (await WebhookDelivery.findByPk(id))!.retryOwner;
    expect([a, b]).toContain(owner);
    const [winner, loser] = owner === a ? [heldForA, heldForB] : [heldForB, heldForA];
    expect([[...winner], [...loser]]).toEqual([[], [id]]);
    // The winner keeps it on its next rounds; the loser still may not take it.
    expect([...(await delivery.claimDeliveriesForRetries([id], owner!))]).toEqual([]);
    const other = owner === a ? b : a;
    expect([...(await delivery.claimDeliveriesForRetries([id], other))]).toEqual([id]);
    await delivery.markDeliveriesGaveUp([id], { owner: other });
    expect((await WebhookDelivery.findByPk(id))!.status).toBe('pending');
    await delivery.markDeliveriesGaveUp([id], { owner: owner! });
    expect((await WebhookDelivery.findByPk(id))!.status).toBe('failed');
  });

  it("takes the delivery over from the retry run holding it when redelivered; gives it back when it can't be queued", async () => {
    const { w } = await eventWithReceivers([{}]);
    const [{ deliveryIds: [id] }] = await delivery.claimPendingEvents(10);
    const run = 'webhook-retries:q:1:3000';
    await delivery.claimDeliveriesForRetries([id], run);
    const refused = await webhooks.redeliver(await as(w.orgOwner), id, { deps: { startDelivery: async () => { throw new Error('connection refused'); } } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Upstream);
    expect((await WebhookDelivery.findByPk(id))!.retryOwner).toBe(run);
    await webhooks.redeliver(await as(w.orgOwner), id, { deps: { startDelivery: async () => undefined } });
    expect((await WebhookDelivery.findByPk(id))!.retryOwner).toBe(`webhook:${id}`);
    // The run's next round leaves it to the redelivery.
    expect([...(await delivery.claimDeliveriesForRetries([id], run))]).toEqual([id]);
  });

  it('redelivers with the same delivery id: back to pending, and the injected starter is called with it', async () => {
    const { w } = await eventWithReceivers([{}]);
    const [{ deliveryIds: [id] }] = await delivery.claimPendingEvents(10);
    await delivery.recordAttempt(id, { attempt: 1, statusCode: 200, latencyMs: 10, error: null, responseExcerpt: 'ok', succeeded: true });
    const started: string[] = [];
    const redelivered = await webhooks.redeliver(await as(w.orgOwner), id, { deps: { startDelivery: async (deliveryId) => void started.push(deliveryId) } });
    expect(started).toEqual([id]);
    expect(redelivered.id).toBe(id);
    expect(await WebhookDelivery.findByPk(id)).toMatchObject({ id, status: 'pending', deliveredAt: null, attempts: 1 });
    expect(await WebhookDelivery.count({ where: { id } })).toBe(1);
  });

  it('answers 502 delivery_not_queued when the engine cannot be reached, leaving the delivery as it was (failed: try again)', async () => {
    const { w } = await eventWithReceivers([{}]);
    const [{ deliveryIds: [id] }] = await delivery.claimPendingEvents(10);
    await delivery.markDeliveryFailed(id, 'receiver down');
    const err = await webhooks
      .redeliver(await as(w.orgOwner), id, { deps: { startDelivery: async () => { throw new Error('connection refused'); } } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Upstream);
    expect((err as Upstream).reason).toBe('delivery_not_queued');
    expect((await WebhookDelivery.findByPk(id))!.status).toBe('failed');
  });

  it('refuses to redeliver to a disabled receiver, another account\'s delivery, or for a team member', async () => {
    const { w, endpoints } = await eventWithReceivers([{}]);
    const [{ deliveryIds: [id] }] = await delivery.claimPendingEvents(10);
    const never = { deps: { startDelivery: async () => { throw new Error('must not start'); } } };
    const other = await makeWorld();
    await expect(webhooks.redeliver(await as(other.orgOwner), id, never)).rejects.toBeInstanceOf(NotFound);
    await expect(webhooks.redeliver(await as(other.owner), id, never)).rejects.toBeInstanceOf(NotFound);
    await expect(webhooks.redeliver(await as(w.member), id, never)).rejects.toBeInstanceOf(Forbidden);
    await expect(webhooks.redeliver(await as(w.orgOwner), 'not-a-uuid', never)).rejects.toBeInstanceOf(NotFound);
    await webhooks.updateEndpoint(await as(w.orgOwner), endpoints[0].id, { enabled: false }, PUBLIC);
    const disabled = await webhooks.redeliver(await as(w.orgOwner), id, never).catch((e: unknown) => e);
    expect(disabled).toBeInstanceOf(Validation);
    expect((disabled as Validation).reason).toBe('webhook_disabled');
  });

  describe("each attempt's exchange in the log (issue 15 item 7): headers sent, headers answered, the first KB", () => {
    // The worker's own activities, run outside Temporal, POSTing to a real receiver on loopback.
    const activities = buildActivities({ WEBHOOK_TIMEOUT_MS: 5_000, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    const run = (attempt: number, deliveryId: string) =>
      new MockActivityEnvironment({ attempt }, { logger: new DefaultLogger('ERROR') }).run(activities.attemptWebhookDelivery, deliveryId);
    // 1022 bytes, then a 4-byte character across byte 1024: the excerpt stops before it.
    const SPLIT = `ab${'€'.repeat(340)}😀${'ü'.repeat(300)}`;
    // Exactly 1024 bytes, then more: the excerpt is those 1024 bytes.
    const EXACT = `abcd${'€'.repeat(340)}${'ü'.repeat(300)}`;
    const EXTRA = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`X-Extra-${String(i).padStart(2, '0')}`, `value ${i}`]));

    it('logs the headers sent, the receiver\'s headers (at most 50, values cut) and the first 1024 bytes on a character boundary', async () => {
      const receiver = await startReceiver((n) =>
        n === 1
          ? {
              status: 503,
              headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Request-Id': 'rcv-123', 'Set-Cookie': ['a=1', 'b=2'], 'X-Long': 'y'.repeat(800) },
              body: SPLIT,
            }
          : { status: 200, headers: EXTRA, body: EXACT },
      );
      try {
        const w = await makeWorld();
        const { endpoint, secret } = await webhooks.createEndpoint(await as(w.orgOwner), { url: receiver.url }, { allowPrivateUrls: true });
        await drain();
        await locations.update(await as(w.orgOwner), w.branch.id, { name: `Logged ${Date.now()}` });
        const [{ deliveryIds: [id] }] = await delivery.claimPendingEvents(10);

        await expect(run(1, id)).rejects.toMatchObject({ type: 'DeliveryFailure' });
        await run(2, id);
        expect(await WebhookDelivery.findByPk(id)).toMatchObject({ endpointId: endpoint.id, status: 'succeeded', attempts: 2 });

        const [failed, succeeded] = await WebhookAttempt.findAll({ where: { deliveryId: id }, order: [['id', 'ASC']] });
        receiver.received.forEach((got, i) => {
          // Exactly the headers we set on that POST, names in lower case (the signature may be shown, the secret never).
          expect([failed, succeeded][i].requestHeaders).toEqual({
            'content-type': 'application/json',
            'user-agent': WEBHOOK_USER_AGENT,
            'webhook-id': id,
            'webhook-timestamp': got.headers['webhook-timestamp'],
            'webhook-signature': got.headers['webhook-signature'],
          });
        });
        expect(JSON.stringify(await WebhookAttempt.findAll({ where: { deliveryId: id }, raw: true }))).not.toContain(secret.slice('whsec_'.length));

        expect(failed.responseHeaders).toMatchObject({ 'content-type': 'text/plain; charset=utf-8', 'x-request-id': 'rcv-123', 'set-cookie': 'a=1, b=2' });
        expect(failed.responseHeaders!['x-long']).toBe('y'.repeat(MAX_HEADER_VALUE_CHARS));
        expect(failed.responseExcerpt).toBe(`ab${'€'.repeat(340)}`);
        expect(Buffer.byteLength(failed.responseExcerpt!)).toBe(EXCERPT_BYTES - 2);

        expect(succeeded.responseExcerpt).toBe(`abcd${'€'.repeat(340)}`);
        expect(Buffer.byteLength(succeeded.responseExcerpt!)).toBe(EXCERPT_BYTES);
        // 65 headers answered (60 extra and the server's own): the first 50 by name are kept.
        const names = Object.keys(succeeded.responseHeaders!);
        expect(names).toHaveLength(MAX_LOGGED_HEADERS);
        expect(names).toEqual([...names].sort());
        expect(succeeded.responseHeaders).toMatchObject({ 'content-type': 'text/plain', 'x-extra-00': 'value 0' });
        expect(succeeded.responseHeaders).not.toHaveProperty('x-extra-59');
      } finally {
        await receiver.close();
      }
    });

    it('logs the headers sent and no answer headers when no answer comes', async () => {
      const w = await makeWorld();
      await webhooks.createEndpoint(await as(w.orgOwner), { url: 'http://127.0.0.1:9/nobody' }, { allowPrivateUrls: true });
      await drain();
      await locations.update(await as(w.orgOwner), w.branch.id, { name: `Unanswered ${Date.now()}` });
      const [{ deliveryIds: [id] }] = await delivery.claimPendingEvents(10);
      await expect(run(1, id)).rejects.toMatchObject({ type: 'DeliveryFailure' });
      const [attempt] = await WebhookAttempt.findAll({ where: { deliveryId: id } });
      expect(attempt).toMatchObject({ statusCode: null, responseExcerpt: null, responseHeaders: null, error: expect.stringMatching(/^Connection failed/) });
      expect(Object.keys(attempt.requestHeaders!)).toEqual(['content-type', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature']);
    });
  });

  it(`keeps at most ${webhooks.MAX_ENDPOINTS_PER_ACCOUNT} receivers per account`, async () => {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id);
    for (let i = 0; i < webhooks.MAX_ENDPOINTS_PER_ACCOUNT; i++) await addEndpoint(owner);
    const err = await addEndpoint(owner).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Validation);
    expect((err as Validation).reason).toBe('webhook_limit');
  });
});
