import { ApplicationFailure } from '@temporalio/common';
import { createScanActivities, type PinQuery, type ScanActivityDeps } from '../../../workflows/activities/scans';
import { GridProviderRejected, GridProviderUnavailable, type MapResult } from '../../../src/providers/ranking/types';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { activityEnv } from './support';

/**
 * The scan activities with their dependencies injected (no database, no ranking provider): a pin query stores what
 * the provider answered, one tenant's queries are paced at its rate while another tenant's are not held up, and the
 * provider's errors become the failures the run's retry policy knows.
 */
describe('scan activities', () => {
  const env = activityEnv;
  const query = (tenantId: number, pinId: number): PinQuery => ({ tenantId, snapshotId: 1, pinId, keyword: 'dentist', lat: 52.5, lng: 13.4, targetPlaceId: 'p1' });
  const result: MapResult[] = [{ placeId: 'p1', name: 'Main Street Dental', rank: 1 } as MapResult];
  const deps = (over: Partial<ScanActivityDeps>): ScanActivityDeps => ({
    plan: async () => null,
    search: async () => result,
    store: async () => undefined,
    complete: async () => undefined,
    fail: async () => undefined,
    startDue: async () => 0,
    ratePerSecond: 1_000,
    ...over,
  });

  it('stores what the provider answered for the pin and keyword it asked', async () => {
    const asked: unknown[] = [];
    const stored: unknown[] = [];
    const a = createScanActivities(deps({ search: async (tenantId, q) => (asked.push([tenantId, q]), result), store: async (q, r) => void stored.push([q.pinId, r]) }));
    await env().run(a.queryScanPin, query(4, 7));
    expect(asked).toEqual([[4, { keyword: 'dentist', lat: 52.5, lng: 13.4 }]]);
    expect(stored).toEqual([[7, result]]);
  });

  it("keeps the provider's answer in its heartbeat when the store fails; the next attempt stores it without asking again", async () => {
    const asked: number[] = [];
    const stored: unknown[] = [];
    let databaseUp = false;
    const a = createScanActivities(
      deps({
        search: async () => (asked.push(1), result),
        store: async (q, r) => {
          if (!databaseUp) throw new Error('connect ECONNREFUSED 127.0.0.1:3306');
          stored.push([q.pinId, r]);
        },
      }),
    );
    const first = env();
    const beats: unknown[] = [];
    first.on('heartbeat', (d: unknown) => beats.push(d));
    await expect(first.run(a.queryScanPin, query(1, 7))).rejects.toThrow('ECONNREFUSED');
    expect(asked).toHaveLength(1);
    expect(beats).toEqual([{ results: result }]);

    // The retry: Temporal hands it the last heartbeat details of the attempt before.
    databaseUp = true;
    const retry = new MockActivityEnvironment({ attempt: 2, heartbeatDetails: beats[0] }, { logger: new DefaultLogger('ERROR', () => undefined) });
    await retry.run(a.queryScanPin, query(1, 7));
    expect(asked).toHaveLength(1); // not asked again
    expect(stored).toEqual([[7, result]]);
  });

  it("spaces one tenant's queries at its rate without holding up another tenant's", async () => {
    const at: Array<[number, number]> = [];
    const a = createScanActivities(deps({ ratePerSecond: 10, search: async (tenantId) => (at.push([tenantId, Date.now()]), result) }));
    const started = Date.now();
    await Promise.all([1, 2, 3].map((pin) => env().run(a.queryScanPin, query(1, pin))).concat(env().run(a.queryScanPin, query(2, 9))));
    const tenant1 = at.filter(([t]) => t === 1).map(([, ms]) => ms - started);
    const tenant2 = at.filter(([t]) => t === 2).map(([, ms]) => ms - started);
    // 10 a second: the third call of tenant 1 comes at least 200 ms after the first; tenant 2's first is not queued.
    expect(tenant1[2] - tenant1[0]).toBeGreaterThanOrEqual(190);
    expect(tenant2[0]).toBeLessThan(tenant1[2]);
  });

  it("turns the provider's refusal into a failure that stops the run and its unavailability into one retried after Retry-After", async () => {
    const failure = async (e: Error) =>
      (await env()
        .run(createScanActivities(deps({ search: async () => Promise.reject(e) })).queryScanPin, query(1, 1))
        .then(() => null, (err: unknown) => err)) as ApplicationFailure;
    const refused = await failure(new GridProviderRejected('dataforseo', 'invalid credentials'));
    expect([refused.type, refused.nonRetryable]).toEqual(['GridProviderRejected', true]);
    const away = await failure(new GridProviderUnavailable('dataforseo', 'HTTP 503', 2_000));
    expect([away.type, away.nonRetryable, away.nextRetryDelay]).toEqual(['GridProviderUnavailable', false, 2_000]);
  });
});
