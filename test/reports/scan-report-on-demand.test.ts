import { JSDOM } from 'jsdom';
import { publicBaseUrl } from '../../src/config';
import { reportOf } from '../../src/services/scan-report.service';
import { useApp } from '../support/app';
import { agencyTokenFor, makeTenant, makeWorld, tokenFor } from '../support/factories';
import { seedPendingScan, seedReportScan } from '../support/scan-report';

/**
 * Issue 19, item 5: the scan report on demand through GraphQL (`scanReport`): the figures of the public report page
 * (`/reports/scans/{uuid}`) for the agency that owns the scan, with the page's and the PDF's links, under the rules
 * of the other scan queries (tenant owners only; another tenant's scan not found; `snapshotAt` checked alike).
 */
jest.setTimeout(60_000);

const AT = [new Date('2026-10-05T09:00:00Z'), new Date('2026-10-12T09:00:00Z'), new Date('2026-10-19T09:00:00Z')];

/** Everything the report page asks for (facades/pages/report.tsx, `ScanReportFields`), and the two links. */
const SNAPSHOT = 'snapshotAt label shortLabel monthYear avgRank changeFromPrevious top3Count top10Count belowTop10Count notRankingCount totalPins visibilityScore';
const QUERY = `query ($uuid: String!, $keyword: String, $snapshotAt: String) {
  scanReport(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) {
    brand { name logoUrl color language }
    scan { uuid location address type keywords gridSize distance distanceUnit lat lng }
    keyword
    snapshots { ${SNAPSHOT} }
    snapshot { ${SNAPSHOT} }
    pins { lat lng rank status top { placeId name rank } }
    summary { averageRank top3 top4to10 top11to20 notRanking totalPins visibilityScore changeFromPrevious previousSnapshotAt }
    competitors { name avgRank appearances coverage threatScore }
    history {
      size
      heatmaps { snapshot { ${SNAPSHOT} } size cells { x y rank status } }
      trend { ${SNAPSHOT} }
      competitors { placeId name points { avgRank visibility } }
      changes { previousSnapshotAt gained lost same cells { x y rank status previousRank change } }
      overtakers { name pins }
    }
    htmlUrl pdfUrl
  }
}`;

/** Three weekly snapshots of a 5 x 5 grid for two keywords; the business climbs one place everywhere each week. */
async function seed() {
  const { tenant, owner } = await makeTenant();
  await tenant.update({ brandName: 'Harbour Marketing', brandColor: '#0b6e4f' });
  const scan = await seedReportScan({
    tenantId: tenant.id,
    rivals: [
      { placeId: 'p-alpha', name: 'Alpha Dental' },
      { placeId: 'p-beta', name: 'Beta Smiles', where: (p) => p.row < 3 },
    ],
    snapshots: AT.map((at, i) => ({ at, rank: (p, keyword) => (keyword === 'dentist' ? Math.max(1, p.col + 3 - i) : p.row + 1) })),
  });
  return { tenant, owner, scan, token: await tokenFor(owner) };
}

describe('GraphQL scanReport', () => {
  const t = useApp();
  const gql = (token: string, variables: Record<string, unknown>, query = QUERY) =>
    t.http().post('/graphql').set('Authorization', `Bearer ${token}`).send({ query, variables });
  const errorOf = (res: { body: { errors?: Array<{ extensions: { code: string; reason: string | null; fields: Record<string, string[]> | null } }> } }) => {
    const e = res.body.errors?.[0]?.extensions;
    return e ? { code: e.code, reason: e.reason, fields: e.fields } : null;
  };
  /** What the report page reads for the same scan, keyword and snapshot, as the wire writes it (dates as ISO text). */
  const pageData = async (uuid: string, args: { keyword?: string; snapshotAt?: string } = {}) => JSON.parse(JSON.stringify(await reportOf(uuid, args)));

  it("answers the page's figures for the scan's first keyword and latest snapshot, with the page's and the PDF's public links", async () => {
    const { scan, token } = await seed();
    const res = await gql(token, { uuid: scan.uuid });
    expect(res.body.errors).toBeUndefined();
    const { htmlUrl, pdfUrl, ...report } = res.body.data.scanReport;
    // Every figure the answer holds is the page's own for the same scan (the page data has a few more internal fields).
    expect(await pageData(scan.uuid)).toMatchObject(report);
    expect(report).toMatchObject({
      brand: { name: 'Harbour Marketing', color: '#0b6e4f', language: 'en' },
      keyword: 'dentist',
      snapshot: { snapshotAt: AT[2].toISOString(), totalPins: 25 },
      summary: { averageRank: 3, totalPins: 25, top3: 15, previousSnapshotAt: AT[1].toISOString(), changeFromPrevious: -1 },
      history: { size: 5, changes: { gained: 25, lost: 0, same: 0 } },
    });
    expect(report.snapshots).toHaveLength(3);
    expect(report.pins).toHaveLength(25);
    expect(report.competitors.map((c: { name: string }) => c.name).sort()).toEqual(['Alpha Dental', 'Beta Smiles']);
    expect(report.history.heatmaps).toHaveLength(3);

    // The links show this very report: its keyword and snapshot, on the platform's public address.
    const query = `keyword=dentist&snapshot_at=${encodeURIComponent(AT[2].toISOString())}`;
    expect(htmlUrl).toBe(`${publicBaseUrl()}/reports/scans/${scan.uuid}?${query}`);
    expect(pdfUrl).toBe(`${publicBaseUrl()}/reports/scans/${scan.uuid}.pdf?${query}`);
    // ...which the public page serves without a token, and whose own PDF link is the same.
    const page = await t.http().get(new URL(htmlUrl).pathname + new URL(htmlUrl).search);
    expect(page.status).toBe(200);
    const pdfLink = new JSDOM(page.text).window.document.querySelector('.pdf-link a')!.getAttribute('href');
    expect(pdfLink).toBe(new URL(pdfUrl).pathname + new URL(pdfUrl).search);
  });

  it('takes a keyword (matched as the page matches it) and an earlier snapshot, and still matches the page', async () => {
    const { scan, token } = await seed();
    const args = { keyword: '  Teeth   WHITENING ', snapshotAt: AT[1].toISOString() };
    const res = await gql(token, { uuid: scan.uuid, ...args });
    expect(res.body.errors).toBeUndefined();
    const { htmlUrl, pdfUrl: _pdf, ...report } = res.body.data.scanReport;
    expect(await pageData(scan.uuid, args)).toMatchObject(report);
    expect(report).toMatchObject({ keyword: 'teeth whitening', snapshot: { snapshotAt: AT[1].toISOString() }, summary: { top3: 15, changeFromPrevious: 0 } });
    // The trend ends with the shown snapshot: the later one is not part of this report.
    expect(report.history.trend.map((s: { snapshotAt: string }) => s.snapshotAt)).toEqual([AT[0].toISOString(), AT[1].toISOString()]);
    expect(htmlUrl).toBe(`${publicBaseUrl()}/reports/scans/${scan.uuid}?keyword=teeth+whitening&snapshot_at=${encodeURIComponent(AT[1].toISOString())}`);
  });

  it("answers the agency token of the tenant owner too, and an archived scan's report", async () => {
    const { owner, tenant } = await seed();
    const archived = await seedReportScan({ tenantId: tenant.id, archived: true, snapshots: [{ at: AT[0], rank: () => 2 }] });
    const res = await gql(await agencyTokenFor(owner), { uuid: archived.uuid });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.scanReport.summary).toMatchObject({ averageRank: 2, top3: 25 });
  });

  it('answers a scan before its first snapshot with no summary, pins or history, linking to the page of its keyword', async () => {
    const { tenant, owner } = await makeTenant();
    const scan = await seedPendingScan(tenant.id);
    const res = await gql(await tokenFor(owner), { uuid: scan.uuid });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.scanReport).toMatchObject({ keyword: 'dentist', snapshots: [], snapshot: null, summary: null, pins: [], competitors: [], history: null });
    expect(res.body.data.scanReport.htmlUrl).toBe(`${publicBaseUrl()}/reports/scans/${scan.uuid}?keyword=dentist`);
  });

  it("answers another tenant's, an unknown and a malformed scan id as NOT_FOUND, as the scan queries do", async () => {
    const { token } = await seed();
    const other = await seed();
    const insights = `query ($uuid: String!) { scanInsights(uuid: $uuid) { scanUuid } }`;
    for (const uuid of [other.scan.uuid, '6f1d2c3b-1111-4222-8333-444455556666', 'not-a-uuid']) {
      const res = await gql(token, { uuid });
      expect(res.body.data).toBeNull();
      expect(errorOf(res)).toEqual({ code: 'NOT_FOUND', reason: null, fields: null });
      expect(errorOf(await gql(token, { uuid }, insights))).toEqual(errorOf(res));
    }
  });

  it('refuses an organisation owner and a team member (FORBIDDEN tenant_owner_required) as the scan queries refuse them', async () => {
    const w = await makeWorld();
    const { scan } = await seed();
    const mine = await seedReportScan({ tenantId: w.tenant.id, snapshots: [{ at: AT[0], rank: () => 1 }] });
    const insights = `query ($uuid: String!) { scanInsights(uuid: $uuid) { scanUuid } }`;
    for (const token of [w.tokens.orgOwner, w.tokens.member]) {
      for (const uuid of [mine.uuid, scan.uuid]) {
        const res = await gql(token, { uuid });
        expect(res.body.data).toBeNull();
        expect(errorOf(res)).toMatchObject({ code: 'FORBIDDEN', reason: 'tenant_owner_required' });
        expect(errorOf(await gql(token, { uuid }, insights))).toEqual(errorOf(res));
      }
    }
    // Without a token at all: unauthenticated.
    const anonymous = await t.http().post('/graphql').send({ query: QUERY, variables: { uuid: mine.uuid } });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('answers a malformed snapshotAt as VALIDATION and a time that is no completed snapshot as NOT_FOUND, like scanInsights', async () => {
    const { scan, token } = await seed();
    const insights = `query ($uuid: String!, $keyword: String, $snapshotAt: String) { scanInsights(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) { scanUuid } }`;
    for (const [snapshotAt, code] of [
      ['last tuesday', 'VALIDATION'],
      ['2026-10-06T09:00:00Z', 'NOT_FOUND'],
    ]) {
      const res = await gql(token, { uuid: scan.uuid, snapshotAt });
      expect(errorOf(res)?.code).toBe(code);
      expect(errorOf(await gql(token, { uuid: scan.uuid, snapshotAt }, insights))).toEqual(errorOf(res));
    }
    expect(errorOf(await gql(token, { uuid: scan.uuid, snapshotAt: 'last tuesday' }))!.fields).toEqual({ snapshot_at: [expect.any(String)] });
  });

  it('answers a keyword the scan does not have as scanInsights does: a filter matching no snapshot, so no figures and no page to link', async () => {
    const { scan, token } = await seed();
    const res = await gql(token, { uuid: scan.uuid, keyword: 'plumber' });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.scanReport).toMatchObject({ keyword: 'plumber', snapshots: [], snapshot: null, summary: null, pins: [], history: null, htmlUrl: null, pdfUrl: null });
    const insights = await gql(token, { uuid: scan.uuid, keyword: 'plumber' }, `query ($uuid: String!, $keyword: String) { scanInsights(uuid: $uuid, keyword: $keyword) { keyword summary { totalPins } } }`);
    expect(insights.body.data.scanInsights).toEqual({ keyword: 'plumber', summary: null });
    // With a snapshot time, that keyword has no such snapshot: not found, as for scanInsights.
    expect(errorOf(await gql(token, { uuid: scan.uuid, keyword: 'plumber', snapshotAt: AT[2].toISOString() }))?.code).toBe('NOT_FOUND');
  });
});
