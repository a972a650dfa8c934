import { ApplicationFailure } from '@temporalio/activity';
import { DomainError } from '../../src/domain/errors';
import type { YearMonth } from '../../src/gbp/dates';
import { DAILY_METRICS } from '../../src/gbp/metrics';
import type { DailyMetricSeries, GbpPerformanceClient, KeywordCount } from '../../src/providers/google/performance.client';
import { ProviderRejected, ProviderUnavailable } from '../../src/providers/types';
import type { GbpSyncPlan, GbpSyncSkip, GbpSyncTarget } from '../../src/jobs/gbp-sync';

export interface GbpActivityDeps {
  plan(integrationId: number): Promise<GbpSyncPlan>;
  loadTarget(integrationId: number): Promise<{ target: GbpSyncTarget | null; skip: GbpSyncSkip | null }>;
  accessToken(integrationId: number): Promise<string>;
  client(): GbpPerformanceClient;
  storeDaily(locationId: number, series: DailyMetricSeries[], range: { from: string; to: string }): Promise<{ values: number }>;
  storeKeywords(locationId: number, month: YearMonth, keywords: KeywordCount[]): Promise<{ keywords: number; removed: number }>;
  integrationIds(afterId: number, limit: number): Promise<number[]>;
}

/** Failure types the sync does not retry: Google refused, or there is nothing left to sync. */
export const GBP_PROVIDER_REJECTED = 'ProviderRejected';
export const GBP_SYNC_STOPPED = 'SyncStopped';

/** Google's errors as Temporal failures: a refusal stops the run, unavailability retries (after Retry-After). */
function asFailure(e: unknown): unknown {
  if (e instanceof ProviderRejected) {
    return ApplicationFailure.nonRetryable(`Google refused the request (${e.status}): ${e.reason}`, GBP_PROVIDER_REJECTED);
  }
  if (e instanceof ProviderUnavailable) {
    return ApplicationFailure.create({ message: e.message, type: 'ProviderUnavailable', nextRetryDelay: e.retryAfterMs ?? undefined });
  }
  // From the token store: no sign-in left, or one the customer must renew; an unreachable token endpoint retries.
  if (e instanceof DomainError) {
    if (e.code === 'NOT_FOUND') return ApplicationFailure.nonRetryable(e.message, GBP_SYNC_STOPPED);
    if (e.reason === 'reconnect_required') return ApplicationFailure.nonRetryable(e.message, GBP_PROVIDER_REJECTED);
    return ApplicationFailure.retryable(e.message, 'ProviderUnavailable');
  }
  return e;
}

async function targetOf(deps: GbpActivityDeps, integrationId: number): Promise<GbpSyncTarget> {
  const { target, skip } = await deps.loadTarget(integrationId);
  if (!target) throw ApplicationFailure.nonRetryable(`Nothing to sync (${skip}).`, GBP_SYNC_STOPPED);
  return target;
}

export function createGbpActivities(deps: GbpActivityDeps) {
  return {
    /** What one run fetches (metric days, keyword months), or why it does nothing. */
    async planGbpSync(integrationId: number): Promise<GbpSyncPlan> {
      return deps.plan(integrationId);
    },

    /** Daily metrics of the window, fetched in one call with a current token and upserted. */
    async syncGbpDailyMetrics(input: { integrationId: number; from: string; to: string }): Promise<{ values: number }> {
      const target = await targetOf(deps, input.integrationId);
      let series: DailyMetricSeries[];
      try {
        const token = await deps.accessToken(input.integrationId);
        series = await deps.client().fetchDailyMetrics(token, target.location, DAILY_METRICS, { from: input.from, to: input.to });
      } catch (e) {
        throw asFailure(e);
      }
      return deps.storeDaily(target.locationId, series, { from: input.from, to: input.to });
    },

    /** One month's search keywords (every page), replacing what was stored for that month. */
    async syncGbpKeywordMonth(input: { integrationId: number; year: number; month: number }): Promise<{ keywords: number; removed: number }> {
      const target = await targetOf(deps, input.integrationId);
      const month = { year: input.year, month: input.month };
      let keywords: KeywordCount[];
      try {
        const token = await deps.accessToken(input.integrationId);
        keywords = await deps.client().monthKeywords(token, target.location, month);
      } catch (e) {
        throw asFailure(e);
      }
      return deps.storeKeywords(target.locationId, month, keywords);
    },

    /** The sweep's next batch of connected Google integrations (ids after `afterId`). */
    async listGbpSyncIntegrations(afterId: number, limit: number): Promise<number[]> {
      return deps.integrationIds(afterId, limit);
    },
  };
}

export type GbpActivities = ReturnType<typeof createGbpActivities>;
