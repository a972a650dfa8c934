import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { RetentionActivities } from '../activities/retention';
import { RETENTION_KINDS, type RetentionKind, type RetentionPurgeResult } from './kinds';

export interface RetentionInput {
  /** Batches per activity call before it hands back (default 100: at most 100,000 rows of 1,000 per call). */
  maxBatchesPerActivity?: number;
}

export type RetentionResult = Record<RetentionKind, { cutoff: string | null; deleted: number; batches: number }>;

const DEFAULT_MAX_BATCHES = 100;

/**
 * The data retention purge (Temporal Schedule `retention-purge`, daily by default, overlapping runs skipped): every
 * kind of log row older than its age setting is deleted, kind by kind. Ages are measured from the run's start in
 * Temporal time, so a retried activity or a replay uses the same cutoff. A kind with a large backlog takes several
 * bounded activity calls rather than one long one.
 */
export async function purgeExpiredData(input: RetentionInput = {}): Promise<RetentionResult> {
  const now = workflowInfo().runStartTime.toISOString();
  const maxBatches = Math.max(1, input.maxBatchesPerActivity ?? DEFAULT_MAX_BATCHES);
  const result = {} as RetentionResult;
  for (const kind of RETENTION_KINDS) {
    const { purgeExpiredRows } = proxyActivities<RetentionActivities>({
      startToCloseTimeout: '30m',
      // Each batch heartbeats: a worker killed mid-purge is noticed in 2 minutes, and the retry resumes where the
      // deletes stopped (what is gone is gone; the rest is selected again).
      heartbeatTimeout: '2m',
      retry: { initialInterval: '10s', backoffCoefficient: 2, maximumInterval: '10m', maximumAttempts: 10 },
      summary: `purge expired ${kind} rows`,
    });
    const total = { cutoff: null as string | null, deleted: 0, batches: 0 };
    let last: RetentionPurgeResult;
    do {
      last = await purgeExpiredRows({ kind, now, maxBatches });
      total.cutoff = last.cutoff;
      total.deleted += last.deleted;
      total.batches += last.batches;
    } while (last.more);
    result[kind] = total;
  }
  return result;
}
