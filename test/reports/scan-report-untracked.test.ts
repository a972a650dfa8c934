import { CATALOGUES } from '../../src/i18n';
import { scanReportMailBody } from '../../src/jobs/scan-report-mail';
import { reportMail } from '../../src/reports/mail';
import { scanReportPdf, untracked } from '../../src/reports/scan';
import { reportOf } from '../../src/services/scan-report.service';
import { scanDetail, scanInsights } from '../../src/services/scans.service';
import { principalFor } from '../../src/services/auth.service';
import { useApp } from '../support/app';
import { agencyTokenFor, makeTenant } from '../support/factories';
import { pdfText } from '../support/pdf-raster';
import { seedReportScan } from '../support/scan-report';

/**
 * A live scan created without `target_place_id` tracks no business: no pin has a rank for it, which is "unknown", not
 * "not in the top 20 everywhere". Its detail and insights answer no summary (as before the first snapshot), and its
 * report (page data, PDF) says no business is set to track and lists the businesses that rank, instead of "average
 * rank 21, visibility 0 %, not ranking 25".
 */
jest.setTimeout(60_000);

const AT = new Date('2026-10-05T09:00:00Z');
const en = CATALOGUES.en.scanReport;

/** A 5 x 5 scan whose results hold the business itself (unknown to the scan), Alpha and Beta at every pin. */
async function seedUntracked() {
  const { tenant, owner } = await makeTenant();
  await tenant.update({ brandName: 'Harbour Marketing', language: 'en' });
  const scan = await seedReportScan({
    tenantId: tenant.id,
    keywords: ['dentist'],
    // Stored as a live run without a target stores them: no pin has a target rank.
    targetPlaceId: 'place-nobody',
    snapshots: [
      {
        at: AT,
        results: () => [
          { placeId: 'p-alpha', name: 'Alpha Dental', rank: 1 },
          { placeId: 'p-main', name: 'Main Street Dental', rank: 2 },
          { placeId: 'p-beta', name: 'Beta Smiles', rank: 3 },
        ],
      },
    ],
  });
  await scan.update({ targetPlaceId: null });
  return { tenant, owner, scan };
}

describe('a scan without a business to track', () => {
  const t = useApp();

  it('answers no summary in the scan detail (REST and service) and the insights, but keeps the pins and the businesses that rank', async () => {
    const { owner, scan } = await seedUntracked();
    const reader = await principalFor(owner, { id: 0, kind: 'agency', permissions: [] });
    const detail = await scanDetail(reader, scan.uuid, {});
    expect(detail.summary).toBeNull();
    expect(detail.results).toHaveLength(25);
    const insights = await scanInsights(reader, scan.uuid, {});
    expect(insights.snapshotAt).toEqual(AT);
    expect(insights).toMatchObject({ summary: null, trendsVsFirstSnapshot: null, trendsVsPreviousSnapshot: null, geographicStrength: [], recommendations: [] });
    expect(insights.topCompetitors.map((c) => c.name)).toEqual(['Alpha Dental', 'Main Street Dental', 'Beta Smiles']);

    const res = await t.as(await agencyTokenFor(owner)).get(`/api/agency/v1/scans/${scan.uuid}`);
    expect(res.status).toBe(200);
    expect(res.body.data.summary).toBeNull();
    expect(res.body.data.results).toHaveLength(25);
    const rest = await t.as(await agencyTokenFor(owner)).get(`/api/agency/v1/scans/${scan.uuid}/insights`);
    expect(rest.status).toBe(200);
    expect(rest.body.data.summary).toBeNull();
  });

  it('reports the snapshot without figures or heat maps: a note that no business is set to track, and the businesses that rank', async () => {
    const { scan } = await seedUntracked();
    const report = await reportOf(scan.uuid, {});
    expect(report.snapshot?.snapshotAt).toEqual(AT);
    expect(report.summary).toBeNull();
    expect(report.history).toBeNull();
    expect(untracked(report)).toBe(true);
    expect(report.competitors.map((c) => [c.name, c.appearances])).toEqual([
      ['Alpha Dental', 25],
      ['Main Street Dental', 25],
      ['Beta Smiles', 25],
    ]);

    const text = (await pdfText(await scanReportPdf(report))).replace(/\s+/g, ' ');
    expect(text).toContain(en.untrackedTitle);
    expect(text).toContain(en.untrackedText.replace('{{location}}', 'Main Street Dental').replace(/\s+/g, ' '));
    expect(text).toContain('Businesses ranking for “dentist”');
    expect(text).toContain('2. Main Street Dental: Average rank 2, 25 of 25 pins');
    // None of the figures of a business found nowhere.
    expect(text).not.toMatch(/Average rank 21|Not ranking|Visibility|Top 3/);
  });

  it('says so in the public PDF (read back through GraphQL), and the public page shows no figures', async () => {
    const { scan } = await seedUntracked();
    const res = await t
      .http()
      .get(`/reports/scans/${scan.uuid}.pdf`)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    const text = (await pdfText(res.body as Buffer)).replace(/\s+/g, ' ');
    expect(text).toContain(en.untrackedTitle);
    expect(text).toContain('1. Alpha Dental: Average rank 1, 25 of 25 pins');
    expect(text).not.toMatch(/Average rank 21|Not ranking/);
    const page = await t.http().get(`/reports/scans/${scan.uuid}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('data-stat="average-rank"');
    // It says why, and lists who ranks (not "no results yet": the snapshot has results).
    expect(page.text).toContain(en.untrackedTitle);
    expect(page.text).not.toContain(en.noResults);
    expect(page.text).toContain('Alpha Dental');
  });

  it("mails the month's snapshot with the note and the businesses that rank, no figures", async () => {
    const { scan } = await seedUntracked();
    const mail = scanReportMailBody(await reportOf(scan.uuid, {}), { name: 'Ada', month: '2026-10' });
    expect(mail.text).toContain(en.untrackedText.replace('{{location}}', 'Main Street Dental'));
    expect(mail.text).toContain('Alpha Dental: Average rank 1');
    expect(mail.text).not.toMatch(/Average rank 21|Visibility/);
  });

  it('is told apart from a report before the first snapshot, which has no snapshot either', () => {
    expect(untracked({ snapshot: null, summary: null })).toBe(false);
  });

  it('leaves the figures out of a report mail that has none', () => {
    const mail = reportMail({
      language: 'en',
      subject: 'Subject',
      brand: { name: 'Harbour Marketing', color: null },
      paragraphs: ['Hello,', en.untrackedText],
      figures: { title: 'The grid at a glance', kpis: [] },
      why: 'Why',
    });
    expect(mail.text).not.toContain('The grid at a glance');
    expect(mail.html).not.toContain('The grid at a glance');
    expect(mail.html).not.toContain('<table>');
  });
});
