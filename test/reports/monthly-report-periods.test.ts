import { fixedClock } from '../../src/domain/clock';
import { ALL_PERMISSIONS } from '../../src/domain/permissions';
import type { Principal } from '../../src/domain/principal';
import { translator, UI_LANGUAGES } from '../../src/i18n';
import { reportContent, reportPdf } from '../../src/reports/monthly';
import { principalFor } from '../../src/services/auth.service';
import { organizationReport } from '../../src/services/monthly-report.service';
import { metrics } from '../../src/services/review-analytics.service';
import { useApp } from '../support/app';
import { makeReview, makeWorld, testimonialsOf } from '../support/factories';
import { pdfText } from '../support/pdf-raster';

/**
 * What period a monthly report's figures cover. A month's response rate counts the replies made by the month's end,
 * the month before's by its own end, so a rate never changes after the fact and the comparison is like for like;
 * the review metrics keep "reviews with a reply" (docs/decisions/analytics.md). The current month is reported "to
 * date", never as a whole month beside the whole month before.
 */
const NOW = new Date('2026-11-25T12:00:00Z');
const clock = fixedClock(NOW);

describe('monthly report periods', () => {
  const t = useApp({ clock });
  let w: Awaited<ReturnType<typeof makeWorld>>;
  let reader: Principal;
  const reportOf = (month: string) => organizationReport(reader, w.org.id, month, { clock });

  beforeAll(async () => {
    w = await makeWorld();
    reader = await principalFor(w.orgOwner, { id: 0, kind: 'customer', permissions: [...ALL_PERMISSIONS] });
    const source = await testimonialsOf(w.home);
    const at = (iso: string) => new Date(iso);
    for (const [published, reply, replied] of [
      // August: answered before reply dates were recorded (older data).
      ['2026-08-10T10:00:00Z', 'Thanks!', null],
      // September: one answered the next day, one only on 3 October.
      ['2026-09-10T10:00:00Z', 'Thanks!', '2026-09-11T08:00:00Z'],
      ['2026-09-25T10:00:00Z', 'Thanks!', '2026-10-03T08:00:00Z'],
      // October: one answered, one not.
      ['2026-10-05T10:00:00Z', 'Thanks!', '2026-10-06T08:00:00Z'],
      ['2026-10-20T10:00:00Z', null, null],
      // November so far.
      ['2026-11-03T10:00:00Z', 'Thanks!', '2026-11-04T08:00:00Z'],
    ] as const) {
      await makeReview(source, { publishedAt: at(published), reply, replyDate: replied ? at(replied) : null });
    }
  });

  describe('response rate', () => {
    it("counts a month's replies made by its end, the month before's by its own end", async () => {
      const report = await reportOf('2026-10');
      expect(report.totals).toMatchObject({ totalReviews: 2, responded: 1, responseRate: 50 });
      // September's late reply (3 October) does not count for September: 1 of 2, not 2 of 2.
      expect(report.previousTotals).toMatchObject({ totalReviews: 2, responded: 1, responseRate: 50 });
      const rate = (month: string) => report.months.find((m) => m.month === month)!.responseRate;
      // A reply without a recorded date counts as made in time.
      expect([rate('2026-08'), rate('2026-09'), rate('2026-10')]).toEqual([100, 50, 50]);
      expect(reportContent(report).changes).toContain('The response rate held at 50%.');
    });

    it("gives a month the same rate whenever its report is drawn, and September's own report says the same", async () => {
      const september = await reportOf('2026-09');
      expect(september.totals.responseRate).toBe(50);
      expect(september.previousTotals.responseRate).toBe(100);
    });

    it('keeps the review metrics (get_metrics) counting every review with a reply, as documented', async () => {
      const m = await metrics(reader, { organizationId: w.org.id, dateFrom: '2026-09-01', dateTo: '2026-09-30' }, { clock });
      expect(m.totals).toMatchObject({ totalReviews: 2, responded: 2, responseRate: 100 });
    });
  });

  describe('the current month', () => {
    it('is reported to date: its period ends today, the title and a note say so', async () => {
      const report = await reportOf('2026-11');
      expect(report.period).toEqual({ from: '2026-11-01', to: '2026-11-25' });
      const content = reportContent(report);
      expect(content.title).toBe(`${w.org.name}: review report, November 2026 to date`);
      expect(content.partial).toBe('The current month (November 2026) is not over yet: its figures run to November 25, 2026, while those of October 2026 cover the whole month.');
      const text = (await pdfText(await reportPdf(report, content))).replace(/\s+/g, ' ');
      expect(text).toContain('November 2026 to date');
      expect(text).toContain('its figures run to November 25, 2026');

      const page = await t.as(w.tokens.orgOwner).get(`/api/v1/organizations/${w.org.id}/reports/2026-11`);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`<h1>${w.org.name}: review report, November 2026 to date</h1>`);
      expect(page.text).toContain(`<p class="partial">${content.partial}</p>`);
    });

    it('says so in every language', async () => {
      const report = await reportOf('2026-11');
      for (const language of UI_LANGUAGES) {
        const tr = translator(language);
        const content = reportContent({ ...report, language });
        expect(content.title).toContain(tr.t('report.monthToDate', { month: content.monthName }));
        expect(content.partial).toContain(tr.date(new Date('2026-11-25T00:00:00Z')));
        expect(`${content.title} ${content.partial}`).not.toMatch(/\{\{|\}\}/);
      }
    });

    it('leaves a past month whole', async () => {
      const report = await reportOf('2026-10');
      expect(report.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
      const content = reportContent(report);
      expect(content.partial).toBeNull();
      expect(content.title).toBe(`${w.org.name}: review report, October 2026`);
    });
  });
});
