import { heartbeat } from '@temporalio/activity';
import type { YearMonth } from '../../src/gbp/dates';
import { DAILY_METRICS } from '../../src/gbp/metrics';
import type { DailyMetricSeries, GbpPerformanceClient, KeywordCount } from '../../src/providers/google/performance.client';
import type { GbpSyncPlan, GbpSyncSkip, GbpSyncTarget } from '../../src/jobs/gbp-sync';
import { platformFailure, syncStopped } from './platform-failures';

export interface GbpActivityDeps {
  plan(integrationId: number): Promise<GbpSyncPlan>;
  loadTarget(integrationId: number): Promise<{ target: GbpSyncTarget | null; skip: GbpSyncSkip | null }>;
  accessToken(integrationId: number): Promise<string>;
  client(): GbpPerformanceClient;
  storeDaily(locationId: number, series: DailyMetricSeries[], range: { from: string; to: string }): Promise<{ values: number }>;
  storeKeywords(locationId: number, month: YearMonth, keywords: KeywordCount[]): Promise<{ keywords: number; removed: number }>;
  integrationIds(afterId: number, limit: number): Promise<number[]>;
}

async function targetOf(deps: GbpActivityDeps, integrationId: number): Promise<GbpSyncTarget> {
  const { target, skip } = await deps.loadTarget(integrationId);
  if (!target) throw syncStopped(skip);
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
        throw platformFailure(e);
      }
      return deps.storeDaily(target.locationId, series, { from: input.from, to: input.to });
    },

    /** One month's search keywords (every page, a heartbeat after each), replacing what was stored for that month. */
    async syncGbpKeywordMonth(input: { integrationId: number; year: number; month: number }): Promise<{ keywords: number; removed: number }> {
      const target = await targetOf(deps, input.integrationId);
      const month = { year: input.year, month: input.month };
      let keywords: KeywordCount[];
      try {
        const token = await deps.accessToken(input.integrationId);
        keywords = await deps.client().monthKeywords(token, target.location, month, { onPage: (page) => heartbeat(page) });
      } catch (e) {
        throw platformFailure(e);
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
