import { ApplicationFailure } from '@temporalio/common';
import { createGbpActivities, type GbpActivityDeps } from '../../../workflows/activities/gbp';
import { createRetentionActivities } from '../../../workflows/activities/retention';
import { ProviderRejected, ProviderUnavailable } from '../../../src/providers/types';
import type { GbpPerformanceClient } from '../../../src/providers/google/performance.client';
import { activityEnv } from './support';

/**
 * The business-profile and retention activities with their dependencies injected (no database, no Google): what they
 * pass on, heartbeat, and how Google's errors become the failures the sync workflow's retry policy knows.
 */
describe('business-profile and retention activities', () => {
  const env = activityEnv;

  describe('business-profile sync', () => {
    const target = { integrationId: 9, locationId: 3, location: 'locations/9' };
    const deps = (over: Partial<GbpActivityDeps>): GbpActivityDeps => ({
      plan: async () => ({ skip: null, metrics: null, months: [] }),
      loadTarget: async () => ({ target, skip: null }) as Awaited<ReturnType<GbpActivityDeps['loadTarget']>>,
      accessToken: async () => 'token-9',
      client: () => ({ fetchDailyMetrics: async () => [], monthKeywords: async () => [] }) as unknown as GbpPerformanceClient,
      storeDaily: async () => ({ values: 0 }),
      storeKeywords: async () => ({ keywords: 0, removed: 0 }),
      integrationIds: async () => [],
      ...over,
    });

    it("fetches a month's keywords with a current token, heartbeating after each page, and stores them on the integration's location", async () => {
      const stored: unknown[] = [];
      const a = createGbpActivities(
        deps({
          client: () =>
            ({
              monthKeywords: async (token: string, location: string, _month: unknown, opts: { onPage: (page: number) => void }) => {
                for (const page of [1, 2, 3]) opts.onPage(page);
                return [{ keyword: `${token} ${location}`, value: 7 }];
              },
            }) as unknown as GbpPerformanceClient,
          storeKeywords: async (locationId, month, keywords) => (stored.push([locationId, month, keywords]), { keywords: keywords.length, removed: 0 }),
        }),
      );
      const e = env();
      const beats: unknown[] = [];
      e.on('heartbeat', (d: unknown) => beats.push(d));
      expect(await e.run(a.syncGbpKeywordMonth, { integrationId: 9, year: 2026, month: 10 })).toEqual({ keywords: 1, removed: 0 });
      expect(stored).toEqual([[3, { year: 2026, month: 10 }, [{ keyword: 'token-9 locations/9', value: 7 }]]]);
      expect(beats).toEqual([1, 2, 3]);
    });

    it("turns Google's refusal into a failure that stops and its unavailability into one retried after Retry-After; nothing left to sync stops", async () => {
      const failing = (e: Error) => createGbpActivities(deps({ accessToken: async () => Promise.reject(e) }));
      const failure = async (run: Promise<unknown>) => (await run.then(() => null, (e: unknown) => e)) as ApplicationFailure;
      const refused = await failure(env().run(failing(new ProviderRejected('google', 403, 'no access')).syncGbpDailyMetrics, { integrationId: 9, from: '2026-10-01', to: '2026-10-31' }));
      expect([refused.type, refused.nonRetryable, refused.message]).toEqual(['ProviderRejected', true, 'Google refused the request (403): no access']);
      const away = await failure(env().run(failing(new ProviderUnavailable('google', 'HTTP 429', 5_000)).syncGbpDailyMetrics, { integrationId: 9, from: '2026-10-01', to: '2026-10-31' }));
      expect([away.type, away.nonRetryable, away.nextRetryDelay]).toEqual(['ProviderUnavailable', false, 5_000]);
      const gone = createGbpActivities(deps({ loadTarget: async () => ({ target: null, skip: 'gone' }) as Awaited<ReturnType<GbpActivityDeps['loadTarget']>> }));
      const stopped = await failure(env().run(gone.syncGbpKeywordMonth, { integrationId: 9, year: 2026, month: 10 }));
      expect([stopped.type, stopped.message]).toEqual(['SyncStopped', 'Nothing to sync (gone).']);
    });
  });

  describe('retention', () => {
    it("purges a kind with its settings, from the workflow's time, heartbeating after each batch", async () => {
      const a = createRetentionActivities({
        settings: (kind) => ({ days: kind === 'outbox' ? 7 : 30, batchSize: 1_000 }),
        async purge(kind, opts) {
          expect(kind).toBe('outbox');
          expect(opts).toMatchObject({ now: new Date('2026-11-01T00:00:00.000Z'), days: 7, batchSize: 1_000, maxBatches: 4 });
          opts.onBatch?.(1_000);
          opts.onBatch?.(250);
          return { kind, cutoff: '2026-10-25T00:00:00.000Z', deleted: 1_250, batches: 2, more: false };
        },
      });
      const e = env();
      const beats: unknown[] = [];
      e.on('heartbeat', (d: unknown) => beats.push(d));
      expect(await e.run(a.purgeExpiredRows, { kind: 'outbox' as const, now: '2026-11-01T00:00:00.000Z', maxBatches: 4 })).toMatchObject({ deleted: 1_250, more: false });
      expect(beats).toEqual([1_000, 250]);
    });
  });
});
