import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Express } from 'express';
import { GbpPerformanceClient, gbpPerformanceBaseUrl, performanceLocationName } from '../../src/providers/google/performance.client';
import { ProviderRejected, ProviderUnavailable } from '../../src/providers/types';
import { GbpPerformanceSimulator } from '../../src/providers/google/performance.simulator';

/**
 * The Performance API client against local HTTP servers: one answering Google's documented JSON verbatim (so the
 * client is not only checked against our own simulator), and the simulator itself.
 */
async function serve(app: Express): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('Business Profile Performance API client', () => {
  describe('against a server answering the documented wire format', () => {
    const seen: Array<{ path: string; query: string; auth: string | undefined }> = [];
    let server: Awaited<ReturnType<typeof serve>>;
    beforeAll(async () => {
      const app = express();
      app.use((req, res) => {
        const q = req.originalUrl.split('?')[1] ?? '';
        seen.push({ path: req.path, query: q, auth: req.headers.authorization });
        if (req.path === '/v1/locations/12345:fetchMultiDailyMetricsTimeSeries') {
          res.json({
            multiDailyMetricTimeSeries: [
              {
                dailyMetricTimeSeries: [
                  {
                    dailyMetric: 'CALL_CLICKS',
                    timeSeries: {
                      datedValues: [
                        { date: { year: 2024, month: 2, day: 28 }, value: '3' },
                        { date: { year: 2024, month: 2, day: 29 } }, // zero: no value
                        { date: { year: 2024, month: 3, day: 1 }, value: '12' },
                      ],
                    },
                  },
                  { dailyMetric: 'WEBSITE_CLICKS', timeSeries: { datedValues: [{ date: { year: 2024, month: 2, day: 28 }, value: '1' }] } },
                ],
              },
            ],
          });
          return;
        }
        if (req.path === '/v1/locations/12345/searchkeywords/impressions/monthly') {
          const page2 = req.query.pageToken === 'CAE=';
          res.json(
            page2
              ? { searchKeywordsCounts: [{ searchKeyword: 'dentist open sunday', insightsValue: { threshold: '15' } }] }
              : {
                  searchKeywordsCounts: [
                    { searchKeyword: 'dentist', insightsValue: { value: '2310' } },
                    { searchKeyword: 'dental clinic', insightsValue: { value: '95' } },
                  ],
                  nextPageToken: 'CAE=',
                },
          );
          return;
        }
        if (req.path === '/v1/locations/403:fetchMultiDailyMetricsTimeSeries') {
          res.status(403).json({ error: { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' } });
          return;
        }
        res.status(503).set('Retry-After', '7').json({ error: { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' } });
      });
      server = await serve(app);
    });
    afterAll(() => server.close());

    it('fetches several daily metrics in one call and reads string counts, a missing value as 0', async () => {
      const client = new GbpPerformanceClient({ baseUrl: server.url });
      const series = await client.fetchDailyMetrics('tok-1', 'accounts/99/locations/12345', ['CALL_CLICKS', 'WEBSITE_CLICKS'], { from: '2024-02-28', to: '2024-03-01' });
      expect(series).toEqual([
        { metric: 'CALL_CLICKS', values: [{ date: '2024-02-28', value: 3 }, { date: '2024-02-29', value: 0 }, { date: '2024-03-01', value: 12 }] },
        { metric: 'WEBSITE_CLICKS', values: [{ date: '2024-02-28', value: 1 }] },
      ]);
      const call = seen.find((s) => s.path.endsWith(':fetchMultiDailyMetricsTimeSeries'))!;
      expect(call.auth).toBe('Bearer tok-1');
      expect(call.query).toBe(
        'dailyMetrics=CALL_CLICKS&dailyMetrics=WEBSITE_CLICKS' +
          '&dailyRange.start_date.year=2024&dailyRange.start_date.month=2&dailyRange.start_date.day=28' +
          '&dailyRange.end_date.year=2024&dailyRange.end_date.month=3&dailyRange.end_date.day=1',
      );
    });

    it('lists monthly keyword impressions page by page: a value, or a threshold for a masked count; the caller is told after each page', async () => {
      const client = new GbpPerformanceClient({ baseUrl: `${server.url}/` });
      const pages: number[] = [];
      const all = await client.monthKeywords('tok-2', 'locations/12345', { year: 2026, month: 2 }, { onPage: (page) => pages.push(page) });
      expect(pages).toEqual([1, 2]);
      expect(all).toEqual([
        { keyword: 'dentist', value: 2310, threshold: null },
        { keyword: 'dental clinic', value: 95, threshold: null },
        { keyword: 'dentist open sunday', value: null, threshold: 15 },
      ]);
      const calls = seen.filter((s) => s.path.endsWith('/monthly'));
      expect(calls.map((c) => c.query)).toEqual([
        'monthlyRange.start_month.year=2026&monthlyRange.start_month.month=2&monthlyRange.end_month.year=2026&monthlyRange.end_month.month=2&pageSize=100',
        'monthlyRange.start_month.year=2026&monthlyRange.start_month.month=2&monthlyRange.end_month.year=2026&monthlyRange.end_month.month=2&pageSize=100&pageToken=CAE%3D',
      ]);
    });

    it("reports Google's refusal with its message, and unavailability with Retry-After", async () => {
      const client = new GbpPerformanceClient({ baseUrl: server.url });
      const refused = await client.fetchDailyMetrics('t', 'locations/403', ['CALL_CLICKS'], { from: '2026-01-01', to: '2026-01-02' }).catch((e) => e);
      expect(refused).toBeInstanceOf(ProviderRejected);
      expect(refused).toMatchObject({ status: 403, reason: 'The caller does not have permission' });
      const down = await client.fetchDailyMetrics('t', 'locations/500', ['CALL_CLICKS'], { from: '2026-01-01', to: '2026-01-02' }).catch((e) => e);
      expect(down).toBeInstanceOf(ProviderUnavailable);
      expect(down.retryAfterMs).toBe(7000);
    });
  });

  describe('against the simulator', () => {
    const sim = new GbpPerformanceSimulator({ seed: false, legacyMetrics: true, maxPageSize: 2 });
    let server: Awaited<ReturnType<typeof serve>>;
    beforeAll(async () => {
      const app = express();
      app.set('query parser', 'extended'); // as the API app mounts it
      app.use(sim.router);
      server = await serve(app);
    });
    afterAll(() => server.close());

    it('serves what was set, days without a count as zero, and the legacy view series alongside', async () => {
      sim.setDaily('locations/777', 'CALL_CLICKS', '2026-01-02', 4);
      const client = new GbpPerformanceClient({ baseUrl: server.url });
      const series = await client.fetchDailyMetrics('x', 'accounts/1/locations/777', ['CALL_CLICKS'], { from: '2026-01-01', to: '2026-01-02' });
      expect(series[0]).toEqual({ metric: 'CALL_CLICKS', values: [{ date: '2026-01-01', value: 0 }, { date: '2026-01-02', value: 4 }] });
      expect(series.map((s) => s.metric)).toEqual(['CALL_CLICKS', 'VIEWS_MAPS', 'VIEWS_SEARCH', 'PHOTOS_VIEWS_MERCHANT', 'PHOTOS_VIEWS_CUSTOMERS']);
    });

    it('pages keywords with its page tokens and refuses a revoked token (401) as Google does', async () => {
      sim.setKeywords('locations/777', { year: 2026, month: 1 }, [{ keyword: 'a', value: 5 }, { keyword: 'b', threshold: 15 }, { keyword: 'c', value: 30 }]);
      const client = new GbpPerformanceClient({ baseUrl: server.url });
      expect(await client.monthKeywords('x', 'locations/777', { year: 2026, month: 1 })).toEqual([
        { keyword: 'a', value: 5, threshold: null },
        { keyword: 'b', value: null, threshold: 15 },
        { keyword: 'c', value: 30, threshold: null },
      ]);
      sim.revokeToken('gone');
      await expect(client.monthKeywords('gone', 'locations/777', { year: 2026, month: 1 })).rejects.toMatchObject({ name: 'ProviderRejected', status: 401 });
      sim.failNext({ status: 429, retryAfter: '3' });
      await expect(client.monthKeywords('x', 'locations/777', { year: 2026, month: 1 })).rejects.toMatchObject({ name: 'ProviderUnavailable', retryAfterMs: 3000 });
    });
  });

  it('names the location the Performance API way and finds its base URL', () => {
    expect(performanceLocationName('accounts/1/locations/987')).toBe('locations/987');
    expect(performanceLocationName('locations/987')).toBe('locations/987');
    expect(performanceLocationName('987')).toBe('locations/987');
    expect(() => performanceLocationName('accounts/1')).toThrow(ProviderRejected);
    expect(gbpPerformanceBaseUrl({ GBP_PERFORMANCE_URL: 'http://perf.test/', GOOGLE_API_URL: 'http://g.test' })).toBe('http://perf.test');
    expect(gbpPerformanceBaseUrl({ GOOGLE_API_URL: 'http://g.test/' })).toBe('http://g.test');
    expect(gbpPerformanceBaseUrl({ PUBLIC_URL: 'http://127.0.0.1:3000' })).toBe('http://127.0.0.1:3000/simulators/google/performance');
    expect(gbpPerformanceBaseUrl({ GOOGLE_CLIENT_ID: 'real' })).toBe('https://businessprofileperformance.googleapis.com');
  });
});
