import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { MAX_PROVIDER_RETRY_AFTER_MS } from '../../../workflows/activities/platform-failures';
import { createReviewSyncActivities } from '../../../workflows/activities/reviews';
import { createGbpActivities, type GbpActivityDeps } from '../../../workflows/activities/gbp';
import { createScanActivities, type ScanActivityDeps } from '../../../workflows/activities/scans';
import { GoogleBusinessClient } from '../../../src/providers/google/business.client';
import { GbpPerformanceClient } from '../../../src/providers/google/performance.client';
import { DataForSeoClient } from '../../../src/providers/ranking/dataforseo.client';
import { startProviderApis, type ProviderApis } from '../../support/providers/review-platforms';
import { activityEnv, failureOf } from './support';

/**
 * A provider's Retry-After becomes the activity's next retry delay, at most MAX_PROVIDER_RETRY_AFTER_MS: a platform
 * asking for a day would hold the sync run until its run timeout (no `last_sync_error`, no sync for 6 hours). The
 * real clients over HTTP against loopback servers answering 429; the delay Temporal is handed is checked, not waited.
 */
describe("providers' Retry-After as the activities' retry delay", () => {
  const DAY_SECONDS = '86400';
  let apis: ProviderApis;
  let limited: Server;
  let limitedUrl: string;
  let retryAfter = DAY_SECONDS;

  beforeAll(async () => {
    apis = await startProviderApis();
    const app = express();
    // Every request is rate-limited, in both the Google and the DataForSEO error shape.
    app.use((_req, res) => {
      res.status(429).set('Retry-After', retryAfter).json({ status_code: 40202, status_message: 'Rate limit', error: { code: 429, message: 'Quota exceeded.', status: 'RESOURCE_EXHAUSTED' } });
    });
    limited = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    limitedUrl = `http://127.0.0.1:${(limited.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await apis.close();
    limited.closeAllConnections();
    await new Promise((resolve) => limited.close(resolve));
  });

  it('is five minutes, the review sync backoff at its longest', () => {
    expect(MAX_PROVIDER_RETRY_AFTER_MS).toBe(300_000);
  });

  describe('review sync page (Google)', () => {
    const LOCATION = 'accounts/31/locations/32';
    const activities = () =>
      createReviewSyncActivities({
        loadTarget: async () => ({ target: { integrationId: 5, provider: 'google', externalId: LOCATION }, skip: null }),
        accessToken: async () => 'tok',
        client: () => new GoogleBusinessClient({ baseUrl: apis.googleUrl }),
        upsert: async () => ({ created: 0, updated: 0, unchanged: 0 }),
        removeUnlisted: async () => ({ removed: 0, skipped: null }),
        record: async () => undefined,
        removeSchedule: async () => undefined,
      });

    it('retries a 429 with Retry-After: 86400 after the cap, not after a day', async () => {
      apis.google.addLocation(LOCATION);
      apis.google.failNext({ status: 429, retryAfter: DAY_SECONDS });
      const failure = await failureOf(activityEnv().run(activities().syncReviewPage, { integrationId: 5, pageToken: null }));
      expect([failure.type, failure.nonRetryable, failure.nextRetryDelay]).toEqual(['ProviderUnavailable', false, MAX_PROVIDER_RETRY_AFTER_MS]);
    });

    it('keeps a shorter Retry-After as it is', async () => {
      apis.google.failNext({ status: 429, retryAfter: '7' });
      const failure = await failureOf(activityEnv().run(activities().syncReviewPage, { integrationId: 5, pageToken: null }));
      expect(failure.nextRetryDelay).toBe(7_000);
    });
  });

  it('caps it for the business-profile sync (Performance API)', async () => {
    retryAfter = DAY_SECONDS;
    const deps: GbpActivityDeps = {
      plan: async () => ({ skip: null, metrics: null, months: [] }),
      loadTarget: async () => ({ target: { integrationId: 9, locationId: 3, location: 'locations/9' }, skip: null }) as Awaited<ReturnType<GbpActivityDeps['loadTarget']>>,
      accessToken: async () => 'tok',
      client: () => new GbpPerformanceClient({ baseUrl: limitedUrl }),
      storeDaily: async () => ({ values: 0 }),
      storeKeywords: async () => ({ keywords: 0, removed: 0 }),
      integrationIds: async () => [],
    };
    const failure = await failureOf(activityEnv().run(createGbpActivities(deps).syncGbpDailyMetrics, { integrationId: 9, from: '2026-10-01', to: '2026-10-31' }));
    expect([failure.type, failure.nextRetryDelay]).toEqual(['ProviderUnavailable', MAX_PROVIDER_RETRY_AFTER_MS]);
  });

  it('caps it for a scan pin query (DataForSEO)', async () => {
    retryAfter = DAY_SECONDS;
    const ranking = new DataForSeoClient({ login: 'user', password: 'secret', baseUrl: limitedUrl });
    const deps: ScanActivityDeps = {
      plan: async () => null,
      search: (_tenantId, q) => ranking.searchMaps(q),
      store: async () => undefined,
      complete: async () => undefined,
      fail: async () => undefined,
      startDue: async () => 0,
      claimTurn: async () => 'granted',
      turnFreed: async () => undefined,
      ratePerSecond: 1_000,
    };
    const query = { tenantId: 1, snapshotId: 1, pinId: 1, keyword: 'dentist', lat: 52.5, lng: 13.4, targetPlaceId: 'p1' };
    const failure = await failureOf(activityEnv().run(createScanActivities(deps).queryScanPin, query));
    expect([failure.type, failure.nextRetryDelay]).toEqual(['GridProviderUnavailable', MAX_PROVIDER_RETRY_AFTER_MS]);
  });
});
