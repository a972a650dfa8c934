import { randomUUID } from 'node:crypto';
import { completeRun, storePinResult } from '../../src/jobs/scan-runs';
import { scanReportMailBody } from '../../src/jobs/scan-report-mail';
import { reportOf } from '../../src/services/scan-report.service';
import { OutboxEvent, ScanPin, ScanSnapshot } from '../../src/models';
import { useApp } from '../support/app';
import { agencyTokenFor, makeTenant } from '../support/factories';
import { seedReportScan, TARGET_PLACE_ID, type SeedSnapshot } from '../support/scan-report';

/**
 * A scan with no business to track (no `target_place_id`) has no rank figures: its detail and insights answer
 * `summary: null`, and so does its scan-completed event. Its snapshot rows (GET /scans/{uuid}/snapshots) keep their
 * time, labels and pins searched, with no figure of the business: the spec types them as numbers, so 0 (no rank is
 * 0), never the formula's "average rank 21, not ranking at every pin" (docs/decisions/local-search-grid.md).
 */
jest.setTimeout(60_000);

const AT = new Date('2026-10-05T09:00:00Z');
const LATER = new Date('2026-10-12T09:00:00Z');
const rivalsOnly: SeedSnapshot['results'] = () => [
  { placeId: 'p-alpha', name: 'Alpha Dental', rank: 1 },
  { placeId: 'p-beta', name: 'Beta Smiles', rank: 2 },
];
const NO_FIGURES = { avg_rank: 0, change_from_previous: 0, top_3_count: 0, top_10_count: 0, below_top_10_count: 0, not_ranking_count: 0, total_pins: 25, visibility_score: 0 };

describe('GET /api/agency/v1/scans/{uuid}/snapshots of a scan without a business to track', () => {
  const t = useApp();

  it('stores and lists the snapshot with no figures of the business, and its scan-completed has no summary', async () => {
    const { owner, tenant } = await makeTenant();
    const scan = await seedReportScan({ tenantId: tenant.id, keywords: ['dentist'], targetPlaceId: null, snapshots: [{ at: AT, results: rivalsOnly }] });

    const [stored] = await ScanSnapshot.findAll({ where: { scanId: scan.id } });
    expect(stored).toMatchObject({ status: 'completed', avgRank: null, top3Count: null, notRankingCount: null, visibilityScore: null, changeFromPrevious: null, totalPins: 25 });

    const res = await t.as(await agencyTokenFor(owner)).get(`/api/agency/v1/scans/${scan.uuid}/snapshots`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ snapshot_at: AT.toISOString(), label: 'Oct 5, 2026 09:00', short_label: 'Oct 5', month_year: 'Oct 2026', ...NO_FIGURES }]);

    const events = await OutboxEvent.findAll({ where: { aggregateType: 'scan', aggregateId: scan.uuid } });
    expect(events.map((e) => [e.event, (e.payload as { summary: unknown }).summary])).toEqual([['scan-completed', null]]);
  });

  it('judges the rows by the scan\'s business now, as the detail does: no figures once it tracks none', async () => {
    const { owner, tenant } = await makeTenant();
    const scan = await seedReportScan({ tenantId: tenant.id, keywords: ['dentist'], snapshots: [{ at: AT, rank: () => 4 }] });
    const agency = t.as(await agencyTokenFor(owner));
    expect((await agency.get(`/api/agency/v1/scans/${scan.uuid}/snapshots`)).body.data[0]).toMatchObject({ avg_rank: 4, top_10_count: 25, total_pins: 25 });

    await scan.update({ targetPlaceId: null });
    expect((await agency.get(`/api/agency/v1/scans/${scan.uuid}`)).body.data.summary).toBeNull();
    expect((await agency.get(`/api/agency/v1/scans/${scan.uuid}/snapshots`)).body.data[0]).toMatchObject(NO_FIGURES);
  });

  it('compares a tracked snapshot with none before it when the one before had no business to track', async () => {
    const { owner, tenant } = await makeTenant();
    const scan = await seedReportScan({ tenantId: tenant.id, keywords: ['dentist'], targetPlaceId: null, snapshots: [{ at: AT, results: rivalsOnly }] });
    await scan.update({ targetPlaceId: TARGET_PLACE_ID });
    // The scan's next run, now tracking the business, at rank 3 at every pin.
    const runId = randomUUID();
    const [snap] = await ScanSnapshot.bulkCreate([{ tenantId: tenant.id, scanId: scan.id, runId, keyword: 'dentist', pinVersion: 1, snapshotAt: LATER, status: 'running' as const }]);
    await scan.update({ isRunning: true, currentRunId: runId });
    for (const pin of await ScanPin.findAll({ where: { scanId: scan.id } })) {
      await storePinResult({ tenantId: tenant.id, snapshotId: snap.id, pinId: pin.id, keyword: 'dentist', lat: pin.lat, lng: pin.lng, targetPlaceId: TARGET_PLACE_ID }, [
        { placeId: 'p-alpha', name: 'Alpha Dental', rank: 1 },
        { placeId: 'p-beta', name: 'Beta Smiles', rank: 2 },
        { placeId: TARGET_PLACE_ID, name: 'Main Street Dental', rank: 3 },
      ]);
    }
    await completeRun(runId);
    const agency = t.as(await agencyTokenFor(owner));
    const rows = (await agency.get(`/api/agency/v1/scans/${scan.uuid}/snapshots`)).body.data;
    expect(rows.map((r: { snapshot_at: string; avg_rank: number; change_from_previous: number }) => [r.snapshot_at, r.avg_rank, r.change_from_previous])).toEqual([
      [LATER.toISOString(), 3, 0],
      [AT.toISOString(), 0, 0],
    ]);

    // The report, its page and the monthly mail tell the row without figures apart: a gap, not rank 0 or visibility 0 %.
    const report = await reportOf(scan.uuid, {});
    expect(report.snapshots.map((r) => [r.snapshotAt.toISOString(), r.ranked])).toEqual([
      [LATER.toISOString(), true],
      [AT.toISOString(), false],
    ]);
    const mail = scanReportMailBody(report, { name: 'Ada', month: '2026-10' });
    expect(mail.text).toContain('- Average rank: 3 (October 5, 2026: n/a)');
    expect(mail.text).toMatch(/- Visibility: [^\n]* \(October 5, 2026: n\/a\)/);
    expect(mail.text).not.toMatch(/\(October 5, 2026: 0/);
    const page = await t.http().get(`/reports/scans/${scan.uuid}`);
    expect(page.status).toBe(200);
    const olderRow = /<tr(?: class="[^"]*")?><td><a [^>]*>[^<]*Oct 5, 2026[^<]*<\/a><\/td>(.*?)<\/tr>/.exec(page.text);
    expect(olderRow?.[1]).toBe('<td class="num">-</td>'.repeat(5));
    // Pins compare with nothing: the mail's pins gained and lost read n/a, not every ranked pin "gained".
    expect(report.history?.changes ?? null).toBeNull();
    expect(mail.text).toMatch(/- Pins gained: n\/a/);

    // The insights of the older snapshot have no summary (as for a scan that tracks none); the newer one compares with
    // no earlier snapshot, since the only one has no rank of the business; its pin changes have nothing to compare.
    const older = (await agency.get(`/api/agency/v1/scans/${scan.uuid}/insights?snapshot_at=${AT.toISOString()}`)).body.data;
    expect(older).toMatchObject({ snapshot_at: AT.toISOString(), summary: null, trends_vs_previous_snapshot: null, trends_vs_first_snapshot: null });
    const newer = (await agency.get(`/api/agency/v1/scans/${scan.uuid}/insights`)).body.data;
    expect(newer).toMatchObject({ snapshot_at: LATER.toISOString(), summary: { avg_rank: 3, total_pins: 25 }, trends_vs_previous_snapshot: null, trends_vs_first_snapshot: null });
    const changes = await agency.get(`/api/agency/v1/scans/${scan.uuid}/pin-changes`);
    expect(changes.status).toBe(200);
    expect(changes.body.data).toMatchObject({ snapshot_at: LATER.toISOString(), previous_snapshot_at: null, gained: 0, lost: 0, pins: [] });
  });
});
