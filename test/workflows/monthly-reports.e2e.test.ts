import { randomUUID } from 'node:crypto';
import { publicBaseUrl } from '../../src/config';
import { Customer, ReportDelivery } from '../../src/models';
import { pendingReportRecipients, sendReportMail } from '../../src/jobs/report-mail';
import { ReportMailInFlight, STALE_CLAIM_MS } from '../../src/jobs/report-deliveries';
import { temporal } from '../../workflows/client';
import { previousMonthOf, type MonthlyReportsResult } from '../../workflows/reports/monthly.workflow';
import { configureMonthlyReports, ensureMonthlyReportSchedule, monthlyReportScheduleId, removeMonthlyReportSchedule } from '../../workflows/reports/schedule';
import { makeReview, makeWorld, testimonialsOf } from '../support/factories';
import { addressesOf, startSmtpServer } from '../support/providers/smtp';
import { useMonthlyMail } from '../support/report-mail';
import { waitUntil } from '../support/wait';

/**
 * Issue 19, item 5: the monthly report is scheduled by Temporal (`monthly-reports`, the 1st of each month) and mailed
 * to the owners of each organisation (real Temporal dev server, real MariaDB, a real SMTP server on loopback), as a PDF
 * with a summary in the body, in the account's language and the agency's brand; nobody gets the same month twice.
 */
jest.setTimeout(180_000);

const MONTH = '2025-02';

describe('monthly report mail (sendMonthlyReports)', () => {
  const { t, worker, run, mine, settle } = useMonthlyMail('sendMonthlyReports', pendingReportRecipients, removeMonthlyReportSchedule);

  /** A world whose organisation has two reviews in `month` (one answered) and one the month before. */
  async function world(month = MONTH, language = 'en') {
    const w = await makeWorld();
    await w.tenant.update({ brandName: `Harbour ${randomUUID().slice(0, 6)}`, brandColor: '#0b6e4f' });
    await Customer.update({ language }, { where: { id: w.org.customerId } });
    const source = await testimonialsOf(w.home);
    const [y, m] = month.split('-').map(Number);
    const day = (d: number, back = 0) => new Date(Date.UTC(y, m - 1 - back, d, 10));
    await makeReview(source, { publishedAt: day(3), rating: 5, originalRating: 5, message: 'Friendly staff, spotless rooms.', reply: 'Thanks!', replyDate: day(4) });
    await makeReview(source, { publishedAt: day(12), rating: 2, originalRating: 2, message: 'We waited over an hour.' });
    await makeReview(source, { publishedAt: day(20, 1), rating: 4, originalRating: 4, message: 'Good visit.' });
    return w;
  }

  it("mails each organisation's owner the month's report as a PDF with the figures in the body, in the account's language, once", async () => {
    await settle(MONTH);
    const es = await world(MONTH, 'es');
    const en = await world();
    const result = await run({ month: MONTH, pageSize: 1, concurrency: 2 }, 'monthly-reports-mailed');
    expect(result).toEqual({ month: MONTH, sent: 2, alreadySent: 0, gone: 0, failed: 0 });

    const [mail] = mine(es.orgOwner.email);
    expect(mine(es.orgOwner.email)).toHaveLength(1);
    expect(mail.subject).toBe(`${es.org.name}: su informe de reseñas de febrero de 2025`);
    expect(mail.from!.value[0].name).toBe((await es.tenant.reload()).brandName);
    expect(mail.headers.get('x-mail-kind')).toBe('monthly-report');
    expect(mail.text).toContain('Hola, Org Owner:');
    // The month at a glance: 2 reviews (1 in January), 3.5 stars, half answered.
    expect(mail.text).toMatch(/- Reseñas: 2 \(enero de 2025: 1\)/);
    expect(mail.text).toContain('3,5');
    expect(mail.html).toContain('<html lang="es">');
    expect(mail.html).toContain('background:#0b6e4f');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0].contentType).toBe('application/pdf');
    expect(mail.attachments[0].filename).toBe(`report-${es.org.id}-${MONTH}.pdf`);
    expect(mail.attachments[0].content.subarray(0, 5).toString()).toBe('%PDF-');
    expect(addressesOf(mail)).toEqual([es.orgOwner.email.toLowerCase()]);

    expect(mine(en.orgOwner.email)).toHaveLength(1);
    expect(mine(en.orgOwner.email)[0].subject).toBe(`${en.org.name}: your review report for February 2025`);
    expect(await ReportDelivery.count({ where: { organizationId: [es.org.id, en.org.id], month: MONTH } })).toBe(2);

    // Run again (a re-run, a retried schedule): nobody is mailed twice; the service says so for a direct call too.
    await run({ month: MONTH });
    expect(mine(es.orgOwner.email)).toHaveLength(1);
    expect(mine(en.orgOwner.email)).toHaveLength(1);
    expect(await sendReportMail({ organizationId: es.org.id, userId: es.orgOwner.id }, MONTH)).toBe('already_sent');
  });

  it('skips accounts that turned the mail off (GraphQL), paused accounts and organisations without reviews by then', async () => {
    await settle(MONTH);
    const off = await world();
    const toggled = await t
      .http()
      .post('/graphql')
      .set('Authorization', `Bearer ${off.tokens.orgOwner}`)
      .send({ query: 'mutation { setAccountReportEmails(enabled: false) { reportEmails } }' });
    expect(toggled.body.errors).toBeUndefined();
    expect(toggled.body.data.setAccountReportEmails.reportEmails).toBe(false);
    const refused = await t.http().post('/graphql').set('Authorization', `Bearer ${off.tokens.member}`).send({ query: 'mutation { setAccountReportEmails(enabled: true) { reportEmails } }' });
    expect(refused.body.errors[0].extensions.code).toBe('FORBIDDEN');

    const paused = await world();
    await Customer.update({ subscriptionStatus: 'paused' }, { where: { id: paused.org.customerId } });
    // Reviews only after the month: nothing to report for it.
    const later = await world('2025-04');
    const on = await world();

    await run({ month: MONTH });
    expect(mine(off.orgOwner.email)).toHaveLength(0);
    expect(mine(paused.orgOwner.email)).toHaveLength(0);
    expect(mine(later.orgOwner.email)).toHaveLength(0);
    // Team members are not owners: the report goes to the owner only.
    expect(mine(on.member.email)).toHaveLength(0);
    expect(mine(on.orgOwner.email)).toHaveLength(1);
  });

  it('mails once when attempts race (a retry while the first attempt still sends, two runs of one month), and takes over a stale claim', async () => {
    const w = await world();
    const who = { organizationId: w.org.id, userId: w.orgOwner.id };
    const outcomes = await Promise.allSettled([sendReportMail(who, MONTH), sendReportMail(who, MONTH), sendReportMail(who, MONTH)]);
    // One sends; the others find it sent, or find the claim held and are to be retried (ReportMailInFlight).
    expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value === 'sent')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(ReportMailInFlight);
    expect(await sendReportMail(who, MONTH)).toBe('already_sent');
    expect(mine(w.orgOwner.email)).toHaveLength(1);

    // An attempt that died after its claim (a killed worker): the claim stays 'sending'; a fresh one is respected...
    const crashed = await world();
    const left = { organizationId: crashed.org.id, userId: crashed.orgOwner.id };
    const claim = await ReportDelivery.create({ tenantId: crashed.org.tenantId, ...left, month: MONTH, messageId: 'x', status: 'sending' });
    await expect(sendReportMail(left, MONTH)).rejects.toBeInstanceOf(ReportMailInFlight);
    expect(mine(crashed.orgOwner.email)).toHaveLength(0);
    // ...and one older than STALE_CLAIM_MS is taken over: the mail goes, once.
    await ReportDelivery.sequelize!.query('UPDATE report_deliveries SET updated_at = ? WHERE id = ?', { replacements: [new Date(Date.now() - STALE_CLAIM_MS - 1_000), claim.id] });
    expect(await sendReportMail(left, MONTH)).toBe('sent');
    expect(mine(crashed.orgOwner.email)).toHaveLength(1);
    expect((await ReportDelivery.findByPk(claim.id))!.status).toBe('sent');
  });

  it('records nothing when the mail server refuses, so the next attempt sends it', async () => {
    const w = await world();
    const refusing = await startSmtpServer({ reject: true });
    const previous = process.env.SMTP_URL;
    process.env.SMTP_URL = refusing.url;
    try {
      await expect(sendReportMail({ organizationId: w.org.id, userId: w.orgOwner.id }, MONTH)).rejects.toThrow();
      expect(await ReportDelivery.count({ where: { organizationId: w.org.id, month: MONTH } })).toBe(0);
    } finally {
      process.env.SMTP_URL = previous;
      await refusing.close();
    }
    expect(await sendReportMail({ organizationId: w.org.id, userId: w.orgOwner.id }, MONTH)).toBe('sent');
    expect(mine(w.orgOwner.email)).toHaveLength(1);
    // The Message-ID is the organisation's, month's and owner's: the same on every attempt.
    expect(mine(w.orgOwner.email)[0].messageId).toBe(`<report.${w.org.id}.${MONTH}.${w.orgOwner.id}@${new URL(publicBaseUrl()).hostname}>`);
  });

  it('is a Temporal Schedule on the 1st of each month whose run mails the month before', async () => {
    expect(previousMonthOf(new Date('2026-03-01T06:00:00Z'))).toBe('2026-02');
    expect(previousMonthOf(new Date('2026-01-01T06:00:00Z'))).toBe('2025-12');

    expect(await ensureMonthlyReportSchedule()).toBe('created');
    expect(await ensureMonthlyReportSchedule()).toBe('unchanged');
    const handle = temporal().client.schedule.getHandle(monthlyReportScheduleId());
    const described = await handle.describe();
    expect(described.spec.calendars).toHaveLength(1);
    expect(described.spec.calendars![0].dayOfMonth).toEqual([{ start: 1, end: 1, step: 1 }]);
    expect(described.spec.calendars![0].hour).toEqual([{ start: 6, end: 6, step: 1 }]);
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'sendMonthlyReports', taskQueue: worker.settings().taskQueue });
    const next = described.info.nextActionTimes[0];
    expect([next.getUTCDate(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 6, 0]);

    // A run the schedule starts (triggered now) mails last month's report.
    const last = previousMonthOf(new Date());
    await settle(last);
    const w = await world(last);
    await handle.trigger();
    await waitUntil(async () => (await handle.describe()).info.recentActions.length > 0);
    const started = (await handle.describe()).info.recentActions[0].action.workflow.workflowId;
    const result = (await temporal().client.workflow.getHandle(started).result()) as MonthlyReportsResult;
    expect(result).toMatchObject({ month: last, sent: 1, failed: 0 });
    expect(mine(w.orgOwner.email)).toHaveLength(1);
    expect(await ReportDelivery.count({ where: { organizationId: w.org.id, month: last } })).toBe(1);

    configureMonthlyReports({ hourUtc: 7 });
    try {
      expect(await ensureMonthlyReportSchedule()).toBe('updated');
    } finally {
      configureMonthlyReports({ hourUtc: 6 });
    }
  });
});
