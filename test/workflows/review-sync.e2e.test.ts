import { Customer, Integration, OutboxEvent, Review } from '../../src/models';
import { attachSynced } from '../../src/services/integrations.service';
import { saveConnection } from '../../src/services/provider-connections.service';
import { ensureReviewSync, removeReviewSync, reviewSyncScheduleId, temporal } from '../../workflows/client';
import type { SyncReviewsResult } from '../../workflows/reviews/sync.workflow';
import { useApp } from '../support/app';
import { makeWorld } from '../support/factories';
import { useProviderApis } from '../support/providers/review-platforms';
import { startReceiver } from '../support/receiver';
import { recordHistory, useTemporalWorker } from '../support/temporal';
import { waitUntil } from '../support/wait';

/**
 * Periodic review sync end to end: a Temporal Schedule per integration starts `syncReviews` on the real dev
 * server; its activities read the loopback Google server with the stored token and upsert reviews, whose
 * events reach a real webhook receiver. Time is shortened by configuration (a 2 s schedule interval).
 */
jest.setTimeout(90_000);

describe('review sync on Temporal', () => {
  const t = useApp();
  const worker = useTemporalWorker();
  const apis = useProviderApis();
  const integrations: number[] = [];
  let seq = 0;

  beforeAll(() => {
    // Schedules live in the namespace, not the task queue: scope their ids to this file's queue.
    temporal().settings.reviewSync = { intervalMs: 2_000, idScope: worker.settings().taskQueue };
  });
  afterAll(async () => {
    for (const id of integrations) await removeReviewSync(id).catch(() => undefined);
  });

  async function connectedGoogle(token = 'sync-token') {
    const w = await makeWorld();
    const location = apis().google.addLocation(`accounts/5${++seq}/locations/6${seq}`, { title: 'Synced Dental' });
    const integration = await attachSynced(w.home, 'google', location);
    await saveConnection({ integrationId: integration.id, provider: 'google', accessToken: token, refreshToken: null, expiresAt: null, scope: null });
    integrations.push(integration.id);
    return { w, location, integration };
  }

  /** The runs the schedule started so far (newest last). */
  async function runIds(integrationId: number): Promise<string[]> {
    const d = await temporal().client.schedule.getHandle(reviewSyncScheduleId(integrationId)).describe();
    return [...d.info.recentActions, ...d.info.runningActions.map((a) => ({ action: a }))].map((a) => a.action.workflow.workflowId);
  }

  const eventsOf = async (integrationId: number) => {
    const ids = (await Review.findAll({ where: { integrationId }, attributes: ['id'] })).map((r) => String(r.id));
    return ids.length ? OutboxEvent.findAll({ where: { aggregateType: 'review', aggregateId: ids }, order: [['id', 'ASC']] }) : [];
  };

  it('syncs a connected integration: review-created once per review, review-updated on a change, nothing on re-runs', async () => {
    const { w, location, integration } = await connectedGoogle();
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const hook = await t.as(w.tokens.orgOwner).post('/api/v1/webhooks').send({ url: receiver.url });
      expect(hook.status).toBe(201);
      const first = apis().google.addReview(location, {
        rating: 4,
        comment: 'Very good.',
        displayName: 'Ada Lovelace',
        createTime: new Date('2026-10-01T09:00:00Z'),
      });
      apis().google.addReview(location, {
        rating: 5,
        comment: 'Perfect.',
        displayName: 'Grace Hopper',
        createTime: new Date('2026-10-02T09:00:00Z'),
        reply: { comment: 'Thanks Grace!', updateTime: new Date('2026-10-03T09:00:00Z') },
      });

      expect(await ensureReviewSync(integration.id)).toBe(true);
      const schedule = await temporal().client.schedule.getHandle(reviewSyncScheduleId(integration.id)).describe();
      expect(schedule.policies.overlap).toBe('SKIP');
      expect(schedule.spec.intervals?.[0].every).toBe(2_000);
      expect(schedule.action).toMatchObject({ workflowType: 'syncReviews', taskQueue: worker.settings().taskQueue, args: [{ integrationId: integration.id }] });

      await receiver.waitFor(2);
      const created = receiver.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);
      expect(created.map((p) => p.webhook_event)).toEqual(['review-created', 'review-created']);
      const ada = created.find((p) => p.author === 'Ada Lovelace')!;
      expect(ada).toMatchObject({ source_name: 'Google', identifier: first, rating: 4, message: 'Very good.', replied: false, published_on: '2026-10-01T09:00:00.000Z' });
      expect(created.find((p) => p.author === 'Grace Hopper')).toMatchObject({ replied: true, reply_message: 'Thanks Grace!', reply_published_on: '2026-10-03T09:00:00.000Z' });
      await waitUntil(async () => (await Integration.findByPk(integration.id))!.lastSyncedAt !== null);
      expect((await Integration.findByPk(integration.id))!.lastSyncError).toBeNull();

      // The author changes their review: a later scheduled run finds it.
      apis().google.editReview(first, { rating: 2, comment: 'Went downhill.' });
      await receiver.waitFor(3);
      const updated = JSON.parse(receiver.received[2].body) as Record<string, unknown>;
      expect(updated).toMatchObject({ webhook_event: 'review-updated', id: ada.id, rating: 2, original_rating: 4, message: 'Went downhill.' });

      // Two more complete runs after the change: they find nothing new and emit nothing.
      const events = (await eventsOf(integration.id)).length;
      expect(events).toBe(3);
      for (let i = 0; i < 2; i++) {
        const before = (await Integration.findByPk(integration.id))!.lastSyncedAt!.getTime();
        await waitUntil(async () => (await Integration.findByPk(integration.id))!.lastSyncedAt!.getTime() > before);
      }
      expect(await eventsOf(integration.id)).toHaveLength(3);
      expect(await Review.count({ where: { integrationId: integration.id } })).toBe(2);
      const ids = await runIds(integration.id);
      expect(ids.length).toBeGreaterThanOrEqual(3);
      await recordHistory(ids[0], 'review-sync-created');
    } finally {
      await removeReviewSync(integration.id);
      await receiver.close();
    }
  });

  it('fails the run without retry when the platform refuses (revoked access) and records the reason on the integration', async () => {
    temporal().settings.reviewSync = { intervalMs: 60 * 60_000, idScope: worker.settings().taskQueue };
    const { location, integration } = await connectedGoogle('revoked-token');
    apis().google.revokeToken('revoked-token');
    apis().google.addReview(location, { rating: 5 });
    await ensureReviewSync(integration.id);
    await waitUntil(async () => (await Integration.findByPk(integration.id))!.lastSyncError !== null);
    const stored = (await Integration.findByPk(integration.id))!;
    expect(stored.lastSyncError).toMatch(/Google refused the request \(401\): Request had invalid authentication credentials/);
    expect(stored.lastSyncedAt).toBeNull();
    const [runId] = await runIds(integration.id);
    const handle = temporal().client.workflow.getHandle(runId);
    await expect(handle.result()).rejects.toThrow();
    const calls = apis().google.requests.filter((r) => r.path === `/v4/${location}/reviews`);
    expect(calls).toHaveLength(1); // not retried
    expect(await Review.count({ where: { integrationId: integration.id } })).toBe(0);
    await recordHistory(runId, 'review-sync-rejected');
    await removeReviewSync(integration.id);
  });

  it('skips integrations of paused customer accounts', async () => {
    temporal().settings.reviewSync = { intervalMs: 60 * 60_000, idScope: worker.settings().taskQueue };
    const { w, location, integration } = await connectedGoogle();
    await Customer.update({ subscriptionStatus: 'paused' }, { where: { id: w.orgOwner.customerId! } });
    apis().google.addReview(location, { rating: 5 });
    await ensureReviewSync(integration.id);
    let ids: string[] = [];
    await waitUntil(async () => (ids = await runIds(integration.id)).length > 0);
    const result = (await temporal().client.workflow.getHandle(ids[0]).result()) as SyncReviewsResult;
    expect(result).toMatchObject({ status: 'skipped', reason: 'paused', pages: 0 });
    expect(apis().google.requests.filter((r) => r.path === `/v4/${location}/reviews`)).toHaveLength(0);
    expect(await Review.count({ where: { integrationId: integration.id } })).toBe(0);
    await recordHistory(ids[0], 'review-sync-skipped');
    await removeReviewSync(integration.id);
  });
});
