import { monthEnd } from '../../src/analytics/periods';
import { fixedClock } from '../../src/domain/clock';
import { ALL_PERMISSIONS } from '../../src/domain/permissions';
import type { Principal } from '../../src/domain/principal';
import { isPartialMonth, reportContent, reportPdf } from '../../src/reports/monthly';
import { principalFor } from '../../src/services/auth.service';
import { organizationReport } from '../../src/services/monthly-report.service';
import { previousMonthOf } from '../../workflows/reports/mail-run';
import { useApp } from '../support/app';
import { makeReview, makeWorld, testimonialsOf } from '../support/factories';
import { pdfText } from '../support/pdf-raster';

/**
 * A month is over at its end (the next month's first midnight, UTC), not on its last day: a report generated on
 * 31 October was presented as the whole of October (no "to date", partial note null, the response rate counting the
 * replies "by the period's end", 1 November, which had not come). The month is partial while the report is generated
 * before the month's end (generatedAt < monthEnd), in the service and in what the page and the PDF say alike.
 */
const LAST_DAY_NOON = new Date('2026-10-31T12:00:00Z');
const clock = fixedClock(LAST_DAY_NOON);

describe('a monthly report on the last day of its month', () => {
  const t = useApp({ clock });
  let w: Awaited<ReturnType<typeof makeWorld>>;
  let reader: Principal;
  const reportOf = (month: string) => organizationReport(reader, w.org.id, month, { clock });
  const page = (month: string) => t.as(w.tokens.orgOwner).get(`/api/v1/organizations/${w.org.id}/reports/${month}`);

  beforeAll(async () => {
    w = await makeWorld();
    reader = await principalFor(w.orgOwner, { id: 0, kind: 'customer', permissions: [...ALL_PERMISSIONS] });
    const source = await testimonialsOf(w.home);
    await makeReview(source, { publishedAt: new Date('2026-09-10T10:00:00Z'), reply: 'Thanks!', replyDate: new Date('2026-09-11T08:00:00Z') });
    await makeReview(source, { publishedAt: new Date('2026-10-05T10:00:00Z'), reply: 'Thanks!', replyDate: new Date('2026-10-06T08:00:00Z') });
    await makeReview(source, { publishedAt: new Date('2026-10-30T10:00:00Z'), reply: null, replyDate: null });
  });

  afterEach(() => clock.set(LAST_DAY_NOON));

  it('is reported to date at 2026-10-31T12:00Z: the title, the note, the page and the PDF say so', async () => {
    const report = await reportOf('2026-10');
    expect(report.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(report.generatedAt).toEqual(LAST_DAY_NOON);
    // The figures so far: October's reply rate is of replies made to date, not a month's final one.
    expect(report.totals).toMatchObject({ totalReviews: 2, responded: 1, responseRate: 50 });
    const content = reportContent(report);
    expect(content.title).toBe(`${w.org.name}: review report, October 2026 to date`);
    expect(content.partial).toBe('The current month (October 2026) is not over yet: its figures run to October 31, 2026, while those of September 2026 cover the whole month.');
    const text = (await pdfText(await reportPdf(report, content))).replace(/\s+/g, ' ');
    expect(text).toContain('October 2026 to date');
    expect(text).toContain('its figures run to October 31, 2026');

    const res = await page('2026-10');
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<h1>${w.org.name}: review report, October 2026 to date</h1>`);
    expect(res.text).toContain(`<p class="partial">${content.partial}</p>`);
    expect(isPartialMonth(report)).toBe(true);
  });

  it('is still to date in its last millisecond, and the GraphQL title says so', async () => {
    clock.set(new Date('2026-10-31T23:59:59.999Z'));
    expect(reportContent(await reportOf('2026-10')).partial).not.toBeNull();
    const gql = await t
      .http()
      .post('/graphql')
      .set('Authorization', `Bearer ${w.tokens.orgOwner}`)
      .send({ query: `{ organizationReport(organizationId: ${w.org.id}, month: "2026-10") { title period { from to } } }` });
    expect(gql.body.data.organizationReport).toEqual({ title: `${w.org.name}: review report, October 2026 to date`, period: { from: '2026-10-01', to: '2026-10-31' } });
  });

  it('is complete from 2026-11-01T00:00Z: the whole month, no "to date", no note', async () => {
    clock.set(new Date('2026-11-01T00:00:00Z'));
    const report = await reportOf('2026-10');
    expect(report.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    const content = reportContent(report);
    expect(content.partial).toBeNull();
    expect(content.title).toBe(`${w.org.name}: review report, October 2026`);
    expect(isPartialMonth(report)).toBe(false);

    const res = await page('2026-10');
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<h1>${w.org.name}: review report, October 2026</h1>`);
    expect(res.text).not.toContain('class="partial"');
  });

  it('leaves the month before whole on the last day, and reads a report as GraphQL answers it (time as ISO text)', async () => {
    const report = await reportOf('2026-09');
    expect(report.period).toEqual({ from: '2026-09-01', to: '2026-09-30' });
    expect(reportContent(report).partial).toBeNull();
    expect(isPartialMonth({ month: '2026-10', generatedAt: '2026-10-31T12:00:00.000Z' })).toBe(true);
    expect(isPartialMonth({ month: '2026-10', generatedAt: '2026-11-01T00:00:00.000Z' })).toBe(false);
  });

  it('the mail never sends a month before its end: a run mails the month before the one it starts in', () => {
    // The schedule starts on the 1st at 06:00 UTC (a missed run within a day); the month it mails has ended by then.
    for (const at of ['2026-11-01T06:00:00Z', '2026-11-01T00:00:00Z', '2026-11-02T05:59:00Z', '2026-10-31T23:59:59.999Z', '2027-01-01T06:00:00Z', '2026-03-01T06:00:00Z']) {
      const start = new Date(at);
      const month = previousMonthOf(start);
      expect(monthEnd(month).getTime()).toBeLessThanOrEqual(start.getTime());
      expect(isPartialMonth({ month, generatedAt: start })).toBe(false);
    }
  });
});
