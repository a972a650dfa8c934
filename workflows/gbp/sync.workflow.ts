import { defineSearchAttributeKey, SearchAttributeType, WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure, continueAsNew, executeChild, proxyActivities } from '@temporalio/workflow';
import type { GbpActivities } from '../activities/gbp';
import type { WorkflowKind } from '../../src/temporal/search-attributes';
import { backoffPolicy, QUERY_RETRY } from '../retry';

/** Retries of a Google call while the API is unavailable (5xx, 429, network). */
export interface GbpSyncRetry {
  maximumAttempts: number;
  initialIntervalMs: number;
  maximumIntervalMs: number;
}

export interface GbpSyncInput {
  integrationId: number;
  retry?: GbpSyncRetry;
}

export interface GbpSyncResult {
  status: 'synced' | 'skipped';
  reason: string | null;
  /** Daily values stored (every metric of every day fetched). */
  values: number;
  /** Keyword months fetched and the keywords stored over them. */
  months: number;
  keywords: number;
}

// Two of the keys of src/temporal/search-attributes.ts, which workflow code may not import at run time.
const RG_KIND = defineSearchAttributeKey('RgKind', SearchAttributeType.KEYWORD);
const RG_BUSINESS_ID = defineSearchAttributeKey('RgBusinessId', SearchAttributeType.KEYWORD);
const GBP_SYNC_KIND: WorkflowKind = 'gbp-sync';

const DEFAULT_RETRY: GbpSyncRetry = { maximumAttempts: 6, initialIntervalMs: 10_000, maximumIntervalMs: 300_000 };

/**
 * One business-profile performance sync of one connected Google integration (`gbp-sync:<integration id>`): the
 * daily metrics since a week before the newest stored day (540 days on the first run), then each keyword month
 * (18 on the first run, else the last two complete ones), each upserted. A refusal from Google fails the run at
 * once; unavailability retries the call.
 */
export async function syncGbpPerformance(input: GbpSyncInput): Promise<GbpSyncResult> {
  const retry = input.retry ?? DEFAULT_RETRY;
  const { planGbpSync } = proxyActivities<GbpActivities>({
    startToCloseTimeout: '1m',
    retry: QUERY_RETRY,
  });
  const fetchRetry = backoffPolicy(retry, ['ProviderRejected', 'SyncStopped']);
  // A daily fetch is one call.
  const { syncGbpDailyMetrics } = proxyActivities<GbpActivities>({ startToCloseTimeout: '10m', retry: fetchRetry });
  // A keyword month is up to 100 pages of at most 30 s each: it heartbeats after each page, and a worker lost
  // mid-month is noticed within the heartbeat timeout rather than at the end of the hour.
  const { syncGbpKeywordMonth } = proxyActivities<GbpActivities>({ startToCloseTimeout: '1h', heartbeatTimeout: '2m', retry: fetchRetry });

  const plan = await planGbpSync.executeWithOptions({ summary: `Plan the business-profile sync of integration ${input.integrationId}` }, [input.integrationId]);
  const result: GbpSyncResult = { status: 'skipped', reason: plan.skip, values: 0, months: 0, keywords: 0 };
  if (plan.skip || !plan.metrics) return result;
  try {
    result.values = (
      await syncGbpDailyMetrics.executeWithOptions({ summary: `Daily metrics of integration ${input.integrationId}` }, [{ integrationId: input.integrationId, ...plan.metrics }])
    ).values;
    for (const month of plan.months) {
      result.keywords += (
        await syncGbpKeywordMonth.executeWithOptions({ summary: `Search keywords of integration ${input.integrationId}, one month` }, [{ integrationId: input.integrationId, ...month }])
      ).keywords;
      result.months++;
    }
  } catch (err) {
    const cause = err instanceof ActivityFailure ? err.cause : err;
    if (cause instanceof ApplicationFailure && cause.type === 'SyncStopped') return { ...result, reason: cause.message };
    const message = cause instanceof Error ? cause.message : 'The business-profile sync failed.';
    throw ApplicationFailure.nonRetryable(message, 'GbpSyncFailed');
  }
  return { ...result, status: 'synced', reason: null };
}

export interface GbpSweepInput {
  /** Integrations with a larger id than this are next (continue-as-new carries it). */
  afterId?: number;
  /** Appended to the child workflow ids (`gbp-sync:<id>:<scope>`): tests sharing one dev server. */
  idScope?: string;
  /** Integrations synced at the same time. */
  concurrency?: number;
  /** Integrations per batch; a full batch continues as new (keeps the history short). */
  batchSize?: number;
  retry?: GbpSyncRetry;
  /** Totals so far, carried over continue-as-new. */
  synced?: number;
  failed?: number;
}

export interface GbpSweepResult {
  synced: number;
  failed: number;
}

export const gbpSyncWorkflowId = (integrationId: number, scope?: string): string => `gbp-sync:${integrationId}${scope ? `:${scope}` : ''}`;

/**
 * The periodic sweep (Temporal Schedule `gbp-performance-sync`): one child `syncGbpPerformance` per connected
 * Google integration of an active account, a few at a time. A failing integration is counted, not fatal; one that
 * is being synced already (started on demand) is left to that run.
 */
export async function syncGbpPerformanceSweep(input: GbpSweepInput = {}): Promise<GbpSweepResult> {
  const { listGbpSyncIntegrations } = proxyActivities<GbpActivities>({
    startToCloseTimeout: '1m',
    retry: QUERY_RETRY,
  });
  const batchSize = input.batchSize ?? 200;
  const concurrency = Math.max(1, input.concurrency ?? 4);
  let synced = input.synced ?? 0;
  let failed = input.failed ?? 0;

  const ids = await listGbpSyncIntegrations.executeWithOptions({ summary: `List up to ${batchSize} connected Google integrations` }, [input.afterId ?? 0, batchSize]);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < ids.length) {
      const integrationId = ids[next++];
      try {
        await executeChild(syncGbpPerformance, {
          workflowId: gbpSyncWorkflowId(integrationId, input.idScope),
          args: [{ integrationId, retry: input.retry }],
          // The sweep knows only ids: the owner's tags are on on-demand runs (startGbpSync), kind and id on these.
          typedSearchAttributes: [
            { key: RG_KIND, value: GBP_SYNC_KIND },
            { key: RG_BUSINESS_ID, value: String(integrationId) },
          ],
          staticSummary: `Business-profile sync of integration ${integrationId}`,
        });
        synced++;
      } catch (err) {
        if (err instanceof WorkflowExecutionAlreadyStartedError) continue;
        if (err instanceof ChildWorkflowFailure) {
          failed++;
          continue;
        }
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, () => lane()));

  if (ids.length === batchSize) {
    await continueAsNew<typeof syncGbpPerformanceSweep>({ ...input, afterId: ids[ids.length - 1], synced, failed });
  }
  return { synced, failed };
}
