import { Webhook } from 'standardwebhooks';
import { OutboxEvent, WebhookAttempt, WebhookDelivery } from '../../src/models';
import { useApp } from '../support/app';
import { makeWorld, testimonialsOf } from '../support/factories';
import { startReceiver } from '../support/receiver';
import { recordHistory, useTemporalWorker } from '../support/temporal';
import { deliveryRunState, deliveryWorkflowId, receiverRetriesWorkflowId, startDeliveryWorkflow, temporal, webhookRetryQueue } from '../../workflows/client';
import { resumeUnstartedRedeliveries } from '../../src/jobs/webhook-delivery';
import type { RetryCohort, retryReceiverDeliveries } from '../../workflows/webhooks/receiver-retries.workflow';
import { WorkflowNotFoundError } from '@temporalio/client';
import { waitUntil } from '../support/wait';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';

/**
 * Outbound webhooks end to end: REST change -> outbox row in the same transaction -> dispatcher workflow ->
 * delivery workflow -> signed POST to a real receiver on loopback, on a real Temporal dev server.
 */
// jest.setTimeout is file-wide (the last call wins), so it is set once here; longer tests pass their own timeout.
jest.setTimeout(90_000);

describe('outbound webhooks on Temporal', () => {
  const t = useApp();
  useTemporalWorker();

  async function setUp(respond: Parameters<typeof startReceiver>[0]) {
    const w = await makeWorld();
    const receiver = await startReceiver(respond);
    const auth = { Authorization: `Bearer ${w.tokens.orgOwner}` };
    const created = await t.http().post('/api/v1/webhooks').set(auth).send({ url: receiver.url });
    expect(created.status).toBe(201);
    const secret: string = created.body.data.secret;
    const source = await testimonialsOf(w.home);
    const createReview = () =>
      t.http().post('/api/v1/reviews').set(auth).send({
        author: 'Hook Reviewer',
        rating: 5,
        published_on: '2026-11-01',
        organization_id: w.org.id,
        location_id: w.home.id,
        source: source.id,
        message: 'Signed and delivered.',
      });
    return { w, receiver, secret, auth, createReview, endpointId: created.body.data.id as number };
  }

  it('delivers review-created to the receiver with a valid Standard Webhooks signature and the product User-Agent', async () => {
    const { receiver, secret, createReview } = await setUp(() => ({ status: 204 }));
    try {
      const res = await createReview();
      expect(res.status).toBe(201);
      await receiver.waitFor(1);
      const [got] = receiver.received;
      const payload = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as Record<string, unknown>;
      expect(payload).toMatchObject({ webhook_event: 'review-created', id: res.body.data.id, author: 'Hook Reviewer', rating: 5 });
      expect(got.headers['content-type']).toMatch(/^application\/json/);
      expect(got.headers['user-agent']).toMatch(/\/V1$/);
      const [delivery] = await deliveriesOf('review-created', res.body.data.id);
      expect(got.headers['webhook-id']).toBe(delivery.id);
      await waitUntil(async () => (await WebhookDelivery.findByPk(delivery.id))!.status === 'succeeded');
      // Delivered by the dispatcher's first attempt in bulk: no retry workflow was needed.
      expect(await anyRunFor(delivery)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('retries while the receiver is down and delivers once it is up: one success, every attempt logged', async () => {
    const { receiver, secret, createReview } = await setUp((n) => (n <= 3 ? { status: 503 } : { status: 200 }));
    try {
      const res = await createReview();
      await receiver.waitFor(4);
      const [delivery] = await deliveriesOf('review-created', res.body.data.id);
      await waitUntil(async () => (await WebhookDelivery.findByPk(delivery.id))!.status === 'succeeded');
      await recordHistory((await retryRunsOf(delivery.endpointId))[0], 'receiver-retries-succeed');
      const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
      expect(ids).toEqual(new Set([delivery.id]));
      for (const r of receiver.received) new Webhook(secret).verify(r.body, r.headers as Record<string, string>);
      const attempts = await WebhookAttempt.findAll({ where: { deliveryId: delivery.id }, order: [['attempt', 'ASC']] });
      expect(attempts.map((a) => a.statusCode)).toEqual([503, 503, 503, 200]);
      await retriesEnded([delivery.endpointId]);
      expect(receiver.received).toHaveLength(4); // nothing after the success
    } finally {
      await receiver.close();
    }
  });

  it('gives up after 11 attempts (10 retries) when the receiver always fails, and marks the delivery failed', async () => {
    const { receiver, createReview } = await setUp(() => ({ status: 500 }));
    try {
      const res = await createReview();
      await receiver.waitFor(11);
      const [delivery] = await deliveriesOf('review-created', res.body.data.id);
      await waitUntil(async () => (await WebhookDelivery.findByPk(delivery.id))!.status === 'failed');
      expect(await WebhookAttempt.count({ where: { deliveryId: delivery.id } })).toBe(11);
      await recordHistory((await retryRunsOf(delivery.endpointId))[0], 'receiver-retries-give-up');
      await retriesEnded([delivery.endpointId]);
      expect(receiver.received).toHaveLength(11);
    } finally {
      await receiver.close();
    }
  });

  it("delivers every account's events to the agency's (tenant owner's) own receivers, and only its tenant's", async () => {
    const w = await makeWorld();
    const other = await makeWorld();
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const agency = await t.http().post('/api/v1/webhooks').set('Authorization', `Bearer ${w.tokens.owner}`).send({ url: receiver.url });
      expect(agency.status).toBe(201);
      const mine = await t.http().post('/api/v1/locations').set('Authorization', `Bearer ${w.tokens.orgOwner}`).send({ organization_id: w.org.id, name: 'Customer change' });
      await t.http().post('/api/v1/locations').set('Authorization', `Bearer ${other.tokens.orgOwner}`).send({ organization_id: other.org.id, name: 'Other tenant' });
      await receiver.waitFor(1);
      await allSettled([w.org.tenantId, other.org.tenantId], agency.body.data.id);
      expect(receiver.received.map((r) => JSON.parse(r.body).id)).toEqual([mine.body.data.id]);
      const log = await t.http().get(`/api/v1/webhooks/${agency.body.data.id}/deliveries`).set('Authorization', `Bearer ${w.tokens.owner}`);
      expect(log.body.data).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('honours Retry-After on 429 instead of the (short) backoff', async () => {
    const { receiver, createReview } = await setUp((n) => (n === 1 ? { status: 429, headers: { 'Retry-After': '2' } } : { status: 200 }));
    try {
      await createReview();
      await receiver.waitFor(2);
      // The configured backoff here is 20 ms; the receiver asked for 2 s.
      expect(receiver.received[1].at - receiver.received[0].at).toBeGreaterThanOrEqual(1_900);
    } finally {
      await receiver.close();
    }
  });

  it('does not retry a 4xx other than 408/429', async () => {
    const { receiver, createReview } = await setUp(() => ({ status: 410 }));
    try {
      const res = await createReview();
      await receiver.waitFor(1);
      const [delivery] = await deliveriesOf('review-created', res.body.data.id);
      await waitUntil(async () => (await WebhookDelivery.findByPk(delivery.id))!.status === 'failed');
      expect(receiver.received).toHaveLength(1);
      expect((await WebhookDelivery.findByPk(delivery.id))!.lastError).toBe('The receiver answered 410');
      // The first attempt settled it for good: no retry workflow.
      expect(await anyRunFor(delivery)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('sends nothing for a change whose transaction rolled back', async () => {
    const { receiver, auth, w, endpointId } = await setUp(() => ({ status: 200 }));
    try {
      const bad = await t.http().post('/api/v1/locations').set(auth).send({ organization_id: w.org.id, name: 'x'.repeat(300) });
      expect(bad.status).toBe(422);
      const good = await t.http().post('/api/v1/locations').set(auth).send({ organization_id: w.org.id, name: 'After the failure' });
      expect(good.status).toBe(201);
      await receiver.waitFor(1);
      await allSettled([w.org.tenantId], endpointId);
      expect(receiver.received.map((r) => JSON.parse(r.body).webhook_event)).toEqual(['location-created']);
      expect(JSON.parse(receiver.received[0].body).name).toBe('After the failure');
    } finally {
      await receiver.close();
    }
  });
});

describe('a worker killed in the middle of a delivery', () => {
  const t = useApp();
  const engine = useTemporalWorker();

  // Generous: a second worker process starts (Node, the app's modules, the run's workflow bundle), slow when the machine is busy.
  it('still delivers the event, with the same webhook-id, after another worker takes over', async () => {
    const w = await makeWorld();
    // The first request is held open (the worker dies waiting for it); the second is answered.
    const receiver = await startReceiver((n) => (n === 1 ? null : { status: 200 }));
    const auth = { Authorization: `Bearer ${w.tokens.orgOwner}` };
    expect((await t.http().post('/api/v1/webhooks').set(auth).send({ url: receiver.url })).status).toBe(201);

    await engine.stopWorker();
    let worker: WorkerProcess | undefined;
    try {
      worker = await startWorkerProcess(engine.settings());
      const source = await testimonialsOf(w.home);
      const res = await t.http().post('/api/v1/reviews').set(auth).send({
        author: 'Survivor', rating: 4, published_on: '2026-11-02', organization_id: w.org.id, location_id: w.home.id, source: source.id,
      });
      expect(res.status).toBe(201);
      await receiver.waitFor(1, 90_000);
      await worker.kill();

      await engine.startWorker();
      await receiver.waitFor(2, 90_000);
      const [delivery] = await deliveriesOf('review-created', res.body.data.id);
      await waitUntil(async () => (await WebhookDelivery.findByPk(delivery.id))!.status === 'succeeded', 30_000);
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([delivery.id, delivery.id]);
    } finally {
      await worker?.kill();
      await receiver.close();
    }
  }, 300_000);
});

/** A workflow by id, if one was ever started. */
async function runOf(workflowId: string) {
  try {
    return await temporal().client.workflow.getHandle(workflowId).describe();
  } catch (e) {
    if (e instanceof WorkflowNotFoundError) return null;
    throw e;
  }
}

/** The workflows started for a delivery: its own (a redelivery) and its receiver's retry runs. */
const anyRunFor = async (d: { id: string; endpointId: number }) =>
  [...((await runOf(deliveryWorkflowId(d.id))) ? [deliveryWorkflowId(d.id)] : []), ...(await retryRunsOf(d.endpointId))];

/** The retry runs of a receiver (`retryReceiverDeliveries`, one per window of hand-overs), oldest first. */
async function retryRunsOf(endpointId: number): Promise<string[]> {
  const { client, settings } = temporal();
  const ids: Array<{ id: string; start: number }> = [];
  const query = `WorkflowType = 'retryReceiverDeliveries' AND TaskQueue = '${settings.taskQueue}' AND RgBusinessId = 'receiver-${endpointId}'`;
  for await (const run of client.workflow.list({ query })) ids.push({ id: run.workflowId, start: run.startTime.getTime() });
  return ids.sort((a, b) => a.start - b.start).map((r) => r.id);
}

const deliveriesOf = async (event: string, reviewId: number) =>
  (await WebhookDelivery.findAll({ where: { event } })).filter((d) => JSON.parse(d.payload).id === reviewId);

/** Waits for the retry runs of these receivers to end: after the first attempt, they alone POST. */
async function retriesEnded(endpointIds: number[]): Promise<void> {
  for (const endpointId of endpointIds) for (const id of await retryRunsOf(endpointId)) await temporal().client.workflow.getHandle(id).result();
}

/**
 * Waits until every event of the tenants has been claimed (a claim makes the event's deliveries) and each delivery
 * to the receiver has ended: nothing more is on its way to it.
 */
async function allSettled(tenantIds: number[], endpointId: number): Promise<void> {
  await waitUntil(
    async () =>
      (await OutboxEvent.count({ where: { tenantId: tenantIds, dispatchedAt: null } })) === 0 &&
      (await WebhookDelivery.count({ where: { endpointId, status: 'pending' } })) === 0,
  );
}

describe('a delivery handed to two retry runs (a hand-over that failed after its signal went through, claimed again in a later window)', () => {
  const t = useApp();
  // A schedule slow enough for the second run to join while the first still retries.
  const worker = useTemporalWorker({ retry: { maximumAttempts: 5, initialIntervalMs: 500, maximumIntervalMs: 500 } });

  it('is retried on one schedule: every attempt number POSTed once, by the run that claimed it first', async () => {
    const w = await makeWorld();
    const receiver = await startReceiver(() => ({ status: 503 }));
    try {
      const auth = { Authorization: `Bearer ${w.tokens.orgOwner}` };
      const hook = await t.http().post('/api/v1/webhooks').set(auth).send({ url: receiver.url });
      expect(hook.status).toBe(201);
      const loc = await t.http().post('/api/v1/locations').set(auth).send({ organization_id: w.org.id, name: 'Handed over twice' });
      expect(loc.status).toBe(201);
      const created = () => WebhookDelivery.findOne({ where: { endpointId: hook.body.data.id, event: 'location-created' } });
      // The first run has made its first round.
      await waitUntil(async () => ((await created())?.attempts ?? 0) >= 2);
      const delivery = (await created())!;
      expect(delivery.status).toBe('pending');
      // The same delivery handed to the receiver's run of another window, as the dispatcher's retried batch does.
      const { client, settings } = temporal();
      const second = await client.workflow.signalWithStart<typeof retryReceiverDeliveries, [RetryCohort]>('retryReceiverDeliveries', {
        workflowId: receiverRetriesWorkflowId(settings.taskQueue, delivery.endpointId, 1_000),
        taskQueue: settings.taskQueue,
        args: [{ endpointId: delivery.endpointId, retry: worker.retry, activityQueue: webhookRetryQueue(settings.taskQueue), acceptUntil: Date.now() + 1_000 }],
        signal: 'add-retries',
        signalArgs: [{ deliveryIds: [delivery.id], after: { attempts: delivery.attempts, delayMs: 0 } }],
      });
      await waitUntil(async () => (await WebhookDelivery.findByPk(delivery.id))!.status === 'failed', 30_000);
      await second.result();
      await retriesEnded([delivery.endpointId]);
      const attempts = await WebhookAttempt.findAll({ where: { deliveryId: delivery.id }, order: [['attempt', 'ASC']] });
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
      expect(receiver.received).toHaveLength(5);
      // The run that claimed it first kept it.
      expect((await WebhookDelivery.findByPk(delivery.id))!.retryOwner).toBe(delivery.retryOwner);
    } finally {
      await receiver.close();
    }
  });
});

describe('redelivery', () => {
  const t = useApp();
  useTemporalWorker();

  it('sends a delivered event again with the same webhook-id through POST /webhook-deliveries/{id}/redeliver', async () => {
    const w = await makeWorld();
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const auth = { Authorization: `Bearer ${w.tokens.orgOwner}` };
      const hook = await t.http().post('/api/v1/webhooks').set(auth).send({ url: receiver.url });
      const loc = await t.http().post('/api/v1/locations').set(auth).send({ organization_id: w.org.id, name: 'Redelivered' });
      expect(loc.status).toBe(201);
      await receiver.waitFor(1);
      const log = await t.http().get(`/api/v1/webhooks/${hook.body.data.id}/deliveries`).set(auth);
      const deliveryId = log.body.data[0].id;
      await waitUntil(async () => (await WebhookDelivery.findByPk(deliveryId))!.status === 'succeeded');
      const again = await t.http().post(`/api/v1/webhook-deliveries/${deliveryId}/redeliver`).set(auth);
      expect(again.status).toBe(202);
      await receiver.waitFor(2);
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([deliveryId, deliveryId]);
      new Webhook(hook.body.data.secret).verify(receiver.received[1].body, receiver.received[1].headers as Record<string, string>);
    } finally {
      await receiver.close();
    }
  });

  it('starts the run of a redelivery whose API died between its commit and the start: the same webhook-id once more', async () => {
    const w = await makeWorld();
    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const auth = { Authorization: `Bearer ${w.tokens.orgOwner}` };
      await t.http().post('/api/v1/webhooks').set(auth).send({ url: receiver.url });
      expect((await t.http().post('/api/v1/locations').set(auth).send({ organization_id: w.org.id, name: 'Left pending' })).status).toBe(201);
      await receiver.waitFor(1);
      const deliveryId = receiver.received[0].headers['webhook-id'] as string;
      await waitUntil(async () => (await WebhookDelivery.findByPk(deliveryId))!.status === 'succeeded');
      // What a redelivery commits before it starts the run, three minutes ago, and no run started.
      await WebhookDelivery.sequelize!.query(
        "UPDATE webhook_deliveries SET status = 'pending', delivered_at = NULL, retry_owner = ?, updated_at = NOW(3) - INTERVAL 3 MINUTE WHERE id = ?",
        { replacements: [deliveryWorkflowId(deliveryId), deliveryId] },
      );
      const runs = { state: deliveryRunState, start: (id: string) => startDeliveryWorkflow(id, { again: true }) };
      // The dispatcher's activity sweeps once a minute too; whichever starts the run, it is started once.
      await resumeUnstartedRedeliveries(runs);
      await receiver.waitFor(2);
      expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([deliveryId, deliveryId]);
      await waitUntil(async () => (await WebhookDelivery.findByPk(deliveryId))!.status === 'succeeded');
      // Its run now exists and closed after the delivery's last change: nothing more to do for it.
      expect((await resumeUnstartedRedeliveries(runs)).started).not.toContain(deliveryId);
      expect(receiver.received).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });
});

describe('first attempts in bulk: a receiver that hangs never holds the others (issue 17)', () => {
  const t = useApp();
  // Attempts may wait 20 s here, so the held requests are answered (released) well inside one attempt's timeout.
  useTemporalWorker({ retry: { timeoutMs: 20_000 } });

  it("delivers every event to the healthy receiver while the slow one's first answers are still held; the slow one's deliveries then succeed once each", async () => {
    const w = await makeWorld();
    const healthy = await startReceiver(() => ({ status: 204 }));
    const slow = await startReceiver(() => null); // holds every request until released
    try {
      const auth = { Authorization: `Bearer ${w.tokens.orgOwner}` };
      const hooks = [];
      for (const receiver of [slow, healthy]) hooks.push(await t.http().post('/api/v1/webhooks').set(auth).send({ url: receiver.url }));
      expect(hooks.map((h) => h.status)).toEqual([201, 201]);
      const [slowHook, healthyHook]: number[] = hooks.map((h) => h.body.data.id);
      const source = await testimonialsOf(w.home);
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await t.http().post('/api/v1/reviews').set(auth).send({
          author: `Burst ${i}`, rating: 5, published_on: '2026-11-03', organization_id: w.org.id, location_id: w.home.id, source: source.id,
        });
        expect(res.status).toBe(201);
        ids.push(res.body.data.id);
      }
      // Every event reaches the healthy receiver while no request of the slow one has been answered.
      await healthy.waitFor(6);
      expect(new Set(healthy.received.map((r) => JSON.parse(r.body).id))).toEqual(new Set(ids));
      await slow.waitFor(6);
      expect(await WebhookDelivery.count({ where: { endpointId: healthyHook, status: 'succeeded' } })).toBe(6);

      slow.release(200);
      const slowDeliveries = await WebhookDelivery.findAll({ where: { endpointId: slowHook }, order: [['outboxEventId', 'ASC']] });
      expect(slowDeliveries).toHaveLength(6);
      await waitUntil(async () => (await WebhookDelivery.count({ where: { endpointId: slowHook, status: 'succeeded' } })) === 6, 30_000);
      // The first ones were handed over waiting for their answers; told their attempts ended, the receiver's retry run
      // found them delivered and POSTed nothing more.
      await waitUntil(async () => (await retryRunsOf(slowHook)).length > 0);
      const runs = await retryRunsOf(slowHook);
      for (const id of runs) expect(await temporal().client.workflow.getHandle(id).result()).toEqual({ succeeded: expect.any(Number), failed: 0 });
      await recordHistory(runs[0], 'receiver-retries-standby');
      await retriesEnded([slowHook]);
      expect(slow.received.map((r) => r.headers['webhook-id']).sort()).toEqual(slowDeliveries.map((d) => d.id).sort()); // one POST each
      expect(await WebhookAttempt.count({ where: { deliveryId: slowDeliveries.map((d) => d.id) } })).toBe(6);
    } finally {
      await slow.close();
      await healthy.close();
    }
  }, 120_000);
});

describe('a worker killed (SIGKILL) in the middle of a burst (issue 17)', () => {
  const t = useApp();
  const engine = useTemporalWorker();

  it('delivers every event of the burst once another worker takes over, each under its one webhook-id', async () => {
    const w = await makeWorld();
    const receiver = await startReceiver(() => ({ status: 200 }));
    const auth = { Authorization: `Bearer ${w.tokens.orgOwner}` };
    const hook = await t.http().post('/api/v1/webhooks').set(auth).send({ url: receiver.url });
    expect(hook.status).toBe(201);
    await engine.stopWorker();
    let worker: WorkerProcess | undefined;
    try {
      worker = await startWorkerProcess(engine.settings());
      const source = await testimonialsOf(w.home);
      const BURST = 300;
      const created: number[] = [];
      // The burst goes on while the worker dies: it is killed once 20 events have arrived.
      const creating = Promise.all(
        Array.from({ length: 4 }, async (_, lane) => {
          for (let i = lane; i < BURST; i += 4) {
            const res = await t.http().post('/api/v1/reviews').set(auth).send({
              author: `Killed ${i}`, rating: 4, published_on: '2026-11-04', organization_id: w.org.id, location_id: w.home.id, source: source.id,
            });
            expect(res.status).toBe(201);
            created.push(res.body.data.id);
          }
        }),
      );
      await receiver.waitFor(20, 90_000);
      await worker.kill();
      const beforeKill = new Set(receiver.received.map((r) => r.headers['webhook-id'])).size;
      await creating;
      await engine.startWorker();
      // (Other tests of this file share the database: only this receiver's deliveries count.)
      await waitUntil(async () => (await WebhookDelivery.count({ where: { endpointId: hook.body.data.id, status: 'succeeded' } })) === BURST, 120_000);
      const delivered = new Map<string, number>();
      for (const r of receiver.received) delivered.set(JSON.parse(r.body).id, 0);
      expect(new Set(delivered.keys())).toEqual(new Set(created));
      // At least once, and every copy of an event under its one delivery id.
      const idsByEvent = new Map<number, Set<string>>();
      for (const r of receiver.received) {
        const id = JSON.parse(r.body).id as number;
        idsByEvent.set(id, (idsByEvent.get(id) ?? new Set()).add(String(r.headers['webhook-id'])));
      }
      expect([...idsByEvent.values()].every((s) => s.size === 1)).toBe(true);
      expect(beforeKill).toBeLessThan(BURST); // the kill did land in the middle
    } finally {
      await worker?.kill();
      await receiver.close();
    }
  }, 300_000);
});
