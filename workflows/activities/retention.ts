import { heartbeat } from '@temporalio/activity';
import type { PurgeOptions } from '../../src/jobs/retention';
import type { RetentionKind, RetentionPurgeResult } from '../retention/kinds';

/** Activities of data retention (`purgeExpiredData`): all I/O, wired to src/jobs/retention by `buildActivities`. */
export interface RetentionActivityDeps {
  /** The kind's age in days (0: keep forever) and the rows per statement, read per call from the worker's settings. */
  settings(kind: RetentionKind): { days: number; batchSize: number };
  purge(kind: RetentionKind, opts: PurgeOptions): Promise<RetentionPurgeResult>;
}

export interface PurgeExpiredRowsInput {
  kind: RetentionKind;
  /** The workflow's time (ISO 8601): ages are measured from it, never from the worker's clock. */
  now: string;
  /** Batches before the activity returns `more` and the workflow calls again (bounds one activity's run). */
  maxBatches: number;
}

export function createRetentionActivities(deps: RetentionActivityDeps) {
  return {
    /** Deletes one kind's rows older than its age, batch by batch, heartbeating after each batch. */
    async purgeExpiredRows(input: PurgeExpiredRowsInput): Promise<RetentionPurgeResult> {
      const { days, batchSize } = deps.settings(input.kind);
      return deps.purge(input.kind, { now: new Date(input.now), days, batchSize, maxBatches: input.maxBatches, onBatch: (deleted) => heartbeat(deleted) });
    },
  };
}

export type RetentionActivities = ReturnType<typeof createRetentionActivities>;
