import { ApplicationFailure, Context, heartbeat } from '@temporalio/activity';
import { ApplicationFailureCategory } from '@temporalio/common';
import { GridProviderRejected, GridProviderUnavailable, type MapResult } from '../../src/providers/ranking/types';
import { providerRetryDelay } from './platform-failures';

/** What a run works on: the snapshots (one per keyword) and the pins still without a result for each. */
export interface ScanRunPlan {
  tenantId: number;
  targetPlaceId: string | null;
  snapshots: Array<{ id: number; keyword: string }>;
  pins: Array<{ id: number; lat: number; lng: number }>;
  /** `snapshotId:pinId` pairs already stored (a resumed run skips them). */
  done: string[];
}

export interface PinQuery {
  tenantId: number;
  snapshotId: number;
  pinId: number;
  keyword: string;
  lat: number;
  lng: number;
  targetPlaceId: string | null;
  /**
   * The run's retries of this query, given by runs since the `scan-run-turns` patch: the query then waits for its
   * tenant's pace at the server (its attempt ends with the wait as the next retry's delay, holding no worker slot)
   * and counts its attempts itself, those waits left out. Absent (runs started before): it waits in the activity.
   */
  retry?: PinQueryRetry;
}

/** Attempts of a pin query that ask the provider or store its answer (the run's `ScanRunRetry`). */
export interface PinQueryRetry {
  maximumAttempts: number;
  initialIntervalMs: number;
  maximumIntervalMs: number;
}

/** Whether a run's waiting run may start querying: it holds one of its tenant's turns, waits for one, or has ended. */
export type ScanRunTurn = 'granted' | 'waiting' | 'ended';

export interface ScanActivityDeps {
  plan(runId: string): Promise<ScanRunPlan | null>;
  search(tenantId: number, query: { keyword: string; lat: number; lng: number }): Promise<MapResult[]>;
  store(query: PinQuery, results: MapResult[]): Promise<void>;
  complete(runId: string): Promise<void>;
  fail(runId: string, message: string): Promise<void>;
  startDue(): Promise<number>;
  /** One of the tenant's turns for the run, when fewer than `maxRunning` of its runs hold one (src/jobs/scan-runs.ts). */
  claimTurn(runId: string, maxRunning: number): Promise<ScanRunTurn>;
  /** Tells the tenant's run that has waited longest for a turn that one is free (after `complete`/`fail`). */
  turnFreed(runId: string): Promise<void>;
  /** Calls per second per tenant towards the ranking provider (per worker process). */
  ratePerSecond: number;
}

/** What an attempt of `queryScanPin` leaves to the next one (heartbeat details). */
interface PinQueryProgress {
  /** The provider's answer, once it has it. */
  results?: MapResult[];
  /** The attempt for which this one reserved its tenant's pace slot, ending with the wait as the retry's delay. */
  slotFor?: number;
  /** Attempts so far that only waited for the pace (not counted against the query's retries). */
  paced?: number;
}

export const GRID_PROVIDER_REJECTED = 'GridProviderRejected';
export const GRID_PROVIDER_UNAVAILABLE = 'GridProviderUnavailable';
/** The failure type of a pin query's attempt that only reserved its tenant's pace slot (retried at that slot). */
export const SCAN_PIN_PACED = 'ScanPinPaced';
/**
 * `queryScanPin` heartbeats this often while it waits (the provider; the pace, for runs from before the
 * `scan-run-turns` patch), so the workflow's heartbeat timeout (20 s) notices a killed worker's queries and retries
 * them elsewhere, instead of after the 2-minute start-to-close timeout. A query that answers sooner never heartbeats
 * (no extra load on Temporal).
 */
export const PIN_HEARTBEAT_EVERY_MS = 5_000;

/**
 * The longest wait for the pace a query of a run since the `scan-run-turns` patch does in its worker slot. Temporal
 * gives no durable wait much shorter than a second: a workflow timer or an activity retry delay of 50, 200 or 500 ms
 * fires after about 1 s on the dev server (its timer queue's granularity), so a shorter wait sent there would come
 * back late, and a run's lanes would lose the tenant's pace (8 lanes at 20 calls a second would make about 8). A wait
 * up to half a second is done in the slot, as a provider call of that length would be: at most rate / 2 + 1 of a
 * tenant's queries wait so at once, 11 at the default rate, 2 at 2 calls a second. A longer one goes to the server.
 */
export const PACE_IN_SLOT_MAX_MS = 500;

/**
 * Per-tenant pacing of provider calls: each tenant's calls are spaced 1/rate seconds apart within this worker
 * process (a run's lanes and concurrent runs of one tenant share it). `reserve` takes the tenant's next slot and
 * answers how many milliseconds away it is (0: now).
 */
function tenantPacer(ratePerSecond: number) {
  const nextSlot = new Map<number, number>();
  const gapMs = 1000 / ratePerSecond;
  return (tenantId: number): number => {
    const now = Date.now();
    const slot = Math.max(now, nextSlot.get(tenantId) ?? 0);
    nextSlot.set(tenantId, slot + gapMs);
    return Math.floor(slot - now);
  };
}

/** The provider's errors as the failures the run's retry policy knows (a refusal ends the run, unavailability retries). */
function providerFailure(e: unknown): unknown {
  if (e instanceof GridProviderRejected) return ApplicationFailure.nonRetryable(e.message, GRID_PROVIDER_REJECTED);
  if (e instanceof GridProviderUnavailable) {
    return ApplicationFailure.create({ message: e.message, type: GRID_PROVIDER_UNAVAILABLE, nextRetryDelay: providerRetryDelay(e.retryAfterMs) });
  }
  return e;
}

/**
 * A paced query's failure (`retry` given): its retries are counted here, the attempts that only waited for the pace
 * left out, so waiting never costs a query one of its tries. Past `maximumAttempts` such attempts it fails for good;
 * before, its next attempt comes after the provider's Retry-After (capped) or the run's backoff (initial interval
 * doubling up to the maximum), as the run's retry policy would have it without the waits in between.
 */
function pacedQueryFailure(e: unknown, attempt: number, retry: PinQueryRetry): unknown {
  if (e instanceof ApplicationFailure && (e.nonRetryable || e.type === SCAN_PIN_PACED)) return e;
  const failure = providerFailure(e);
  const application = failure instanceof ApplicationFailure ? failure : null;
  const message = failure instanceof Error ? failure.message : String(failure);
  const type = (application ? application.type : failure instanceof Error ? failure.name : null) ?? 'Error';
  // A plain error (the database away while storing) stays the cause, with its stack.
  const cause = !application && failure instanceof Error ? failure : undefined;
  if (attempt >= retry.maximumAttempts) return ApplicationFailure.create({ message, type, nonRetryable: true, cause });
  const backoff = Math.min(retry.initialIntervalMs * 2 ** (attempt - 1), retry.maximumIntervalMs);
  return ApplicationFailure.create({ message, type, nextRetryDelay: application?.nextRetryDelay ?? backoff, cause });
}

export function createScanActivities(deps: ScanActivityDeps) {
  const reserve = tenantPacer(deps.ratePerSecond);
  // A wake-up that fails (Temporal away) costs the waiting run no more than its next look (at most 30 s away).
  const wake = (runId: string) =>
    deps.turnFreed(runId).catch((error: unknown) => Context.current().log.warn('a waiting scan run could not be woken; it looks again by itself', { runId, error }));
  return {
    /** The run's work, or null when the run is no longer the scan's current one (nothing to do). */
    async loadScanRun(runId: string): Promise<ScanRunPlan | null> {
      return deps.plan(runId);
    },

    /**
     * Claims one of the tenant's turns for the run: `granted` (also when it holds one already: a retried attempt or a
     * resumed run), `waiting` while `maxRunning` of the tenant's runs hold one, `ended` when the run is over.
     */
    async claimScanRunTurn(runId: string, maxRunning: number): Promise<ScanRunTurn> {
      return deps.claimTurn(runId, maxRunning);
    },

    /**
     * One provider query at one pin for one keyword, stored idempotently (upsert on snapshot + pin). The provider's
     * answer goes into the activity's heartbeat details before it is stored: an attempt whose store failed (the
     * database away) leaves it to the next attempt, which stores it without asking the provider (a paid call) again.
     *
     * Pacing: a query of a run since the `scan-run-turns` patch (`retry` given) waits in the activity only for a
     * slot at most PACE_IN_SLOT_MAX_MS away. For a later one the attempt reserves the slot, notes that in its
     * heartbeat details and ends with a benign `ScanPinPaced` failure whose next retry delay is the wait: Temporal
     * holds the query and hands it to a worker again at its slot, when it asks the provider at once. Meanwhile its
     * worker slot serves other work (another tenant's query). Such an attempt logs at debug level and counts in no
     * failure metric. A query of a run from before waits for its slot in the activity, as it did.
     */
    async queryScanPin(query: PinQuery): Promise<void> {
      const { attempt } = Context.current().info;
      let details: PinQueryProgress = (Context.current().info.heartbeatDetails as PinQueryProgress | undefined) ?? {};
      const beat = setInterval(() => heartbeat(details), PIN_HEARTBEAT_EVERY_MS);
      try {
        if (!details.results) {
          const wait = query.retry && details.slotFor === attempt ? 0 : reserve(query.tenantId);
          if (wait > PACE_IN_SLOT_MAX_MS && query.retry) {
            details = { ...details, slotFor: attempt + 1, paced: (details.paced ?? 0) + 1 };
            heartbeat(details);
            throw ApplicationFailure.create({
              message: `Waiting ${wait} ms for the tenant's pace at the ranking provider (SCAN_PROVIDER_RATE_PER_SECOND).`,
              type: SCAN_PIN_PACED,
              nextRetryDelay: wait,
              category: ApplicationFailureCategory.BENIGN,
            });
          }
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          try {
            details = { ...details, results: await deps.search(query.tenantId, { keyword: query.keyword, lat: query.lat, lng: query.lng }) };
          } catch (e) {
            throw providerFailure(e);
          }
          heartbeat(details);
        }
        await deps.store(query, details.results!);
      } catch (e) {
        throw query.retry ? pacedQueryFailure(e, attempt - (details.paced ?? 0), query.retry) : e;
      } finally {
        clearInterval(beat);
      }
    },

    /**
     * Computes each keyword's snapshot, clears `is_running` (and the run's turn) and writes scan-completed, in one
     * transaction; then wakes the tenant's run that has waited longest for a turn.
     */
    async completeScanRun(runId: string): Promise<void> {
      await deps.complete(runId);
      await wake(runId);
    },

    /** Marks the run failed, clears `is_running` (and the run's turn) and writes scan-failed, in one transaction; then wakes a waiting run. */
    async failScanRun(runId: string, message: string): Promise<void> {
      await deps.fail(runId, message);
      await wake(runId);
    },

    /** The tick: starts due scheduled runs and advances their `next_run_at`. */
    async startDueScans(): Promise<number> {
      return deps.startDue();
    },
  };
}

export type ScanActivities = ReturnType<typeof createScanActivities>;
