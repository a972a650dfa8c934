import { ApplicationFailure, Context, heartbeat } from '@temporalio/activity';
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
}

export interface ScanActivityDeps {
  plan(runId: string): Promise<ScanRunPlan | null>;
  search(tenantId: number, query: { keyword: string; lat: number; lng: number }): Promise<MapResult[]>;
  store(query: PinQuery, results: MapResult[]): Promise<void>;
  complete(runId: string): Promise<void>;
  fail(runId: string, message: string): Promise<void>;
  startDue(): Promise<number>;
  /** Calls per second per tenant towards the ranking provider (per worker process). */
  ratePerSecond: number;
}

/** What an attempt of `queryScanPin` leaves to the next one (heartbeat details): the provider's answer, once it has it. */
interface PinQueryProgress {
  results: MapResult[];
}

export const GRID_PROVIDER_REJECTED = 'GridProviderRejected';
export const GRID_PROVIDER_UNAVAILABLE = 'GridProviderUnavailable';
/**
 * `queryScanPin` heartbeats this often while it waits (pacing, provider), so the workflow's heartbeat timeout
 * (20 s) notices a killed worker's queries and retries them elsewhere, instead of after the 2-minute
 * start-to-close timeout. A query that answers sooner never heartbeats (no extra load on Temporal).
 */
export const PIN_HEARTBEAT_EVERY_MS = 5_000;

/**
 * Per-tenant pacing of provider calls: each tenant's calls are spaced 1/rate seconds apart within this worker
 * process (a run's lanes and concurrent runs of one tenant share it).
 */
function tenantPacer(ratePerSecond: number) {
  const nextSlot = new Map<number, number>();
  const gapMs = 1000 / ratePerSecond;
  return async (tenantId: number): Promise<void> => {
    const now = Date.now();
    const slot = Math.max(now, nextSlot.get(tenantId) ?? 0);
    nextSlot.set(tenantId, slot + gapMs);
    if (slot > now) await new Promise((r) => setTimeout(r, slot - now));
  };
}

export function createScanActivities(deps: ScanActivityDeps) {
  const pace = tenantPacer(deps.ratePerSecond);
  return {
    /** The run's work, or null when the run is no longer the scan's current one (nothing to do). */
    async loadScanRun(runId: string): Promise<ScanRunPlan | null> {
      return deps.plan(runId);
    },

    /**
     * One provider query at one pin for one keyword, stored idempotently (upsert on snapshot + pin). The provider's
     * answer goes into the activity's heartbeat details before it is stored: an attempt whose store failed (the
     * database away) leaves it to the next attempt, which stores it without asking the provider (a paid call) again.
     */
    async queryScanPin(query: PinQuery): Promise<void> {
      let details = Context.current().info.heartbeatDetails as PinQueryProgress | undefined;
      const beat = setInterval(() => heartbeat(details), PIN_HEARTBEAT_EVERY_MS);
      const ask = async (): Promise<MapResult[]> => {
        await pace(query.tenantId);
        try {
          details = { results: await deps.search(query.tenantId, { keyword: query.keyword, lat: query.lat, lng: query.lng }) };
        } catch (e) {
          if (e instanceof GridProviderRejected) throw ApplicationFailure.nonRetryable(e.message, GRID_PROVIDER_REJECTED);
          if (e instanceof GridProviderUnavailable) {
            throw ApplicationFailure.create({ message: e.message, type: GRID_PROVIDER_UNAVAILABLE, nextRetryDelay: providerRetryDelay(e.retryAfterMs) });
          }
          throw e;
        }
        heartbeat(details);
        return details.results;
      };
      try {
        await deps.store(query, details?.results ?? (await ask()));
      } finally {
        clearInterval(beat);
      }
    },

    /** Computes each keyword's snapshot, clears `is_running` and writes scan-completed, in one transaction. */
    async completeScanRun(runId: string): Promise<void> {
      await deps.complete(runId);
    },

    /** Marks the run failed, clears `is_running` and writes scan-failed, in one transaction. */
    async failScanRun(runId: string, message: string): Promise<void> {
      await deps.fail(runId, message);
    },

    /** The tick: starts due scheduled runs and advances their `next_run_at`. */
    async startDueScans(): Promise<number> {
      return deps.startDue();
    },
  };
}

export type ScanActivities = ReturnType<typeof createScanActivities>;
