import { ApplicationFailure } from '@temporalio/common';
import { createScanActivities, PACE_IN_SLOT_MAX_MS, type PinQuery, type ScanActivityDeps } from '../../../workflows/activities/scans';
import { GridProviderRejected, GridProviderUnavailable, type MapResult } from '../../../src/providers/ranking/types';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { activityEnv, failureOf } from './support';

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
    claimTurn: async () => 'granted',
    turnFreed: async () => undefined,
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

  describe('a query of a run since the scan-run-turns patch (it carries the run\'s retries)', () => {
    const retry = { maximumAttempts: 2, initialIntervalMs: 100, maximumIntervalMs: 150 };
    const paced = (tenantId: number, pinId: number): PinQuery => ({ ...query(tenantId, pinId), retry });
    const attemptEnv = (attempt: number, heartbeatDetails?: unknown) =>
      new MockActivityEnvironment({ attempt, heartbeatDetails }, { logger: new DefaultLogger('ERROR', () => undefined) });

    it("does not wait in its worker slot for a pace slot over half a second away: it reserves it and ends with the wait as its retry delay, and the retry asks at once", async () => {
      expect(PACE_IN_SLOT_MAX_MS).toBe(500);
      const asked: number[] = [];
      const a = createScanActivities(deps({ ratePerSecond: 1, search: async (tenantId) => (asked.push(tenantId), result) }));
      // The tenant's first query: its slot is now.
      await env().run(a.queryScanPin, paced(1, 1));
      expect(asked).toHaveLength(1);

      // The second is a second away: the attempt ends at once, a benign failure (debug log, no failure metric) that
      // Temporal retries at the slot, its reservation noted in the heartbeat details the retry gets.
      const second = env();
      const beats: unknown[] = [];
      second.on('heartbeat', (d: unknown) => beats.push(d));
      const before = Date.now();
      const waited = await failureOf(second.run(a.queryScanPin, paced(1, 2)));
      expect(Date.now() - before).toBeLessThan(100);
      expect([waited.type, waited.nonRetryable, waited.category]).toEqual(['ScanPinPaced', false, 'BENIGN']);
      expect(waited.nextRetryDelay).toBeGreaterThan(900);
      expect(waited.nextRetryDelay).toBeLessThanOrEqual(1_000);
      expect(beats).toEqual([{ slotFor: 2, paced: 1 }]);
      expect(asked).toHaveLength(1);

      // Another tenant's query is not held up by tenant 1's pace.
      await env().run(a.queryScanPin, paced(2, 9));
      expect(asked).toEqual([1, 2]);

      // The retry (attempt 2, with those details) asks at once: its slot was reserved by the attempt before.
      await attemptEnv(2, beats[0]).run(a.queryScanPin, paced(1, 2));
      expect(asked).toEqual([1, 2, 1]);
      // Tenant 1's next slot is two seconds away now (slots at 0, 1 and 2 s).
      const third = await failureOf(env().run(a.queryScanPin, paced(1, 3)));
      expect(third.nextRetryDelay).toBeGreaterThan(1_900);
    });

    it('waits in its slot for a pace slot at most half a second away (Temporal gives no shorter durable wait)', async () => {
      const at: number[] = [];
      const a = createScanActivities(deps({ ratePerSecond: 4, search: async () => (at.push(Date.now()), result) }));
      await env().run(a.queryScanPin, paced(1, 1));
      // 250 ms away: waited here, not handed back to the server (whose retry would come after about a second).
      await env().run(a.queryScanPin, paced(1, 2));
      expect(at[1] - at[0]).toBeGreaterThanOrEqual(240);
      expect(at[1] - at[0]).toBeLessThan(500);
    });

    it('counts its tries without the pace waits: the run\'s backoff between them, then a failure for good', async () => {
      const a = createScanActivities(
        deps({
          ratePerSecond: 1_000_000,
          search: async () => {
            throw new GridProviderUnavailable('dataforseo', 'HTTP 503');
          },
        }),
      );
      const afterWait = { slotFor: 2, paced: 1 };
      // Attempt 2 after one wait for the pace is its first try: retried after the run's initial interval.
      const first = await failureOf(attemptEnv(2, afterWait).run(a.queryScanPin, paced(1, 1)));
      expect([first.type, first.nonRetryable, first.nextRetryDelay]).toEqual(['GridProviderUnavailable', false, 100]);
      // Attempt 3 is its second try, the last of maximumAttempts 2: it fails for good with the provider's reason.
      const last = await failureOf(attemptEnv(3, afterWait).run(a.queryScanPin, paced(1, 1)));
      expect([last.type, last.nonRetryable, last.message]).toEqual(['GridProviderUnavailable', true, 'dataforseo: HTTP 503']);

      // A Retry-After still names the delay; a refusal still ends the run at once.
      const limited = createScanActivities(deps({ ratePerSecond: 1_000_000, search: async () => Promise.reject(new GridProviderUnavailable('dataforseo', 'HTTP 429', 2_000)) }));
      expect((await failureOf(env().run(limited.queryScanPin, paced(1, 1)))).nextRetryDelay).toBe(2_000);
      const refused = createScanActivities(deps({ ratePerSecond: 1_000_000, search: async () => Promise.reject(new GridProviderRejected('dataforseo', 'invalid credentials')) }));
      expect((await failureOf(env().run(refused.queryScanPin, paced(1, 1)))).nonRetryable).toBe(true);

      // The database away while storing: the answer kept in the heartbeat, the try retried after the backoff.
      const storeFails = createScanActivities(deps({ ratePerSecond: 1_000_000, store: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:3306')) }));
      const stored = await failureOf(env().run(storeFails.queryScanPin, paced(1, 1)));
      expect([stored.type, stored.nonRetryable, stored.nextRetryDelay, stored.message]).toEqual(['Error', false, 100, 'connect ECONNREFUSED 127.0.0.1:3306']);
    });
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
