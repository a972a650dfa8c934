import { randomUUID } from 'node:crypto';
import { Location } from '../../src/models';
import { seedDemo } from '../../src/services/demo.service';
import { useApp } from '../support/app';

/**
 * The demo tenant carries business-profile data, so the README's metrics curl answers with numbers. seedDemo builds a
 * whole tenant (reviews, a year of business-profile history, a scan computed in process), which takes longer than
 * Jest's 30 s default on a loaded 2-core CI machine (as test/services/scans-demo.test.ts found before).
 */
jest.setTimeout(90_000);

describe('business-profile demo data', () => {
  const t = useApp();

  it('answers the README calls on the demo data: metrics of the first location and its search terms', async () => {
    const { tenant, tokens } = await seedDemo({ reviews: 5, domain: `demo-${randomUUID().slice(0, 8)}.test` });
    const [first] = await Location.findAll({ where: { tenantId: tenant.id }, order: [['id', 'ASC']], limit: 1 });
    const token = tokens[0].token; // tenant owner, customer API

    const metrics = await t.as(token).get(`/api/v1/gbp/metrics?location_id=${first.id}`);
    expect(metrics.status).toBe(200);
    expect(metrics.body.data.totals.impressions_total).toBeGreaterThan(0);
    expect(metrics.body.data.previous_period.totals.impressions_total).toBeGreaterThan(0);
    const longest = await t.as(token).get(`/api/v1/gbp/metrics?location_id=${first.id}&from=${metrics.body.data.period.from}&include_daily=1`);
    expect(longest.body.data.daily.every((d: { impressions_total: number }) => d.impressions_total > 0)).toBe(true);

    const year = new Date().getUTCMonth() === 0 ? new Date().getUTCFullYear() - 1 : new Date().getUTCFullYear();
    const terms = await t.as(token).get(`/api/v1/gbp/search-terms?location_id=${first.id}&year=${year}&per_page=200`);
    expect(terms.status).toBe(200);
    expect(terms.body.data.length).toBeGreaterThan(0);
    expect(terms.body.data.some((r: { below_threshold: boolean }) => r.below_threshold)).toBe(true);
    expect(terms.body.data.at(-1).below_threshold).toBe(true);
  });
});
