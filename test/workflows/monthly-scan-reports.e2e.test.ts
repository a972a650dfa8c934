import { randomUUID } from 'node:crypto';
import { publicBaseUrl } from '../../src/config';
import { ReportDelivery } from '../../src/models';
import { ReportMailInFlight, STALE_CLAIM_MS } from '../../src/jobs/report-deliveries';
import { pendingScanReportRecipients, sendScanReportMail } from '../../src/jobs/scan-report-mail';
import { createUser } from '../../src/services/admin.service';
import { temporal } from '../../workflows/client';
import { previousMonthOf } from '../../workflows/reports/mail-run';
import type { MonthlyScanReportsResult } from '../../workflows/reports/scan-reports.workflow';
import { configureMonthlyReports, ensureMonthlyScanReportSchedule, monthlyScanReportScheduleId, removeMonthlyScanReportSchedule } from '../../workflows/reports/schedule';
import { makeOrganization, makeOrgOwner, makeTenant, tokenFor } from '../support/factories';
import { addressesOf } from '../support/providers/smtp';
import { useMonthlyMail } from '../support/report-mail';
import { seedPendingScan, seedReportScan, type PinPos } from '../support/scan-report';
import { waitUntil } from '../support/wait';

/**
 * Issue 19, item 5, per scan: each month `sendMonthlyScanReports` (Temporal Schedule `monthly-scan-reports`) mails the
 * report of every scan with a snapshot completed in the month to its agency's owners (real Temporal dev server, real
 * MariaDB, a real SMTP server on loopback): the PDF of the latest snapshot of the month, the summary and the link in
 * the body, in the agency's language and brand; each owner gets a scan's month once, and a scan that did not run in
 * the month gets none.
 */
jest.setTimeout(180_000);

const MONTH = '2025-02';
/** Two snapshots in the month and one after it (which the month's mail must not show). */
const FEB_3 = new Date('2025-02-03T09:00:00Z');
const FEB_17 = new Date('2025-02-17T09:00:00Z');
const MAR_3 = new Date('2025-03-03T09:00:00Z');

/**
 * 5 x 5 pins. On Feb 3 the business ranks column + 1 everywhere (average 3, visibility 90 %, top 3 at 15 pins); on
 * Feb 17 it falls two places along the north row (5 pins lost: average 3.4, visibility 88 %, top 3 at 13 pins); on
 * Mar 3 it ranks first everywhere.
 */
const ranks = [(p: PinPos) => p.col + 1, (p: PinPos) => p.col + 1 + (p.row === 0 ? 2 : 0), () => 1];

describe('monthly scan report mail (sendMonthlyScanReports)', () => {
  const { t, worker, run, mine, settle } = useMonthlyMail('sendMonthlyScanReports', pendingScanReportRecipients, removeMonthlyScanReportSchedule);

  /** An agency (brand, colour, language) with a scan of the three snapshots (`at`: other times). */
  async function agency(language = 'de', at = [FEB_3, FEB_17, MAR_3]) {
    const { tenant, owner } = await makeTenant();
    await tenant.update({ brandName: `Harbour ${randomUUID().slice(0, 6)}`, brandColor: '#0b6e4f', language });
    const scan = await seedReportScan({ tenantId: tenant.id, location: 'Main Street Dental', snapshots: at.map((when, i) => ({ at: when, rank: ranks[i] })) });
    return { tenant, owner, scan };
  }

  it("mails each agency owner the scan's report of the month's latest snapshot, as a PDF with the summary and link, in the agency's language and brand, once", async () => {
    await settle(MONTH);
    const { tenant, owner, scan } = await agency('de');
    const partner = await createUser({ tenantId: tenant.id, email: `partner-${randomUUID().slice(0, 8)}@agency.test`, name: 'Partner', role: 'tenant_owner' });
    // A customer account of the agency: scans are the agency's, so its owner gets none.
    const customer = await makeOrgOwner(tenant.id);
    await makeOrganization(customer);
    const fresh = await seedPendingScan(tenant.id);
    const archived = await seedReportScan({ tenantId: tenant.id, location: 'Old Town Dental', snapshots: [{ at: FEB_3, rank: ranks[0] }], archived: true });
    const en = await agency('en');

    const result = await run({ month: MONTH, pageSize: 1, concurrency: 2 }, 'monthly-scan-reports-mailed');
    expect(result).toEqual({ month: MONTH, sent: 3, alreadySent: 0, gone: 0, failed: 0 });

    expect(mine(owner.email)).toHaveLength(1);
    expect(mine(partner.email)).toHaveLength(1);
    expect(mine(customer.email)).toHaveLength(0);
    const [mail] = mine(owner.email);
    expect(addressesOf(mail)).toEqual([owner.email.toLowerCase()]);
    expect(mail.subject).toBe('Main Street Dental: Ihr Bericht zum lokalen Suchraster für Februar 2025 („dentist“)');
    expect(mail.from!.value[0].name).toBe((await tenant.reload()).brandName);
    expect(mail.headers.get('x-mail-kind')).toBe('scan-report');
    expect(mail.messageId).toBe(`<scan-report.${scan.uuid}.${MONTH}.${owner.id}@${new URL(publicBaseUrl()).hostname}>`);
    expect(mail.html).toContain('<html lang="de">');
    expect(mail.html).toContain('background:#0b6e4f');
    // The month's latest snapshot (Feb 17), against the one before (Feb 3); March's is after the month.
    expect(mail.text).toContain('Hallo Tenant Owner,');
    expect(mail.text).toContain('„dentist“ in der Messung vom 17. Feb. 2025');
    expect(mail.text).toContain('- Durchschnittliche Position: 3,4 (3. Februar 2025: 3)');
    expect(mail.text).toMatch(/- Sichtbarkeit: 88\s%/);
    expect(mail.text).toContain('- Plätze 1-3: 13 von 25 Punkten (3. Februar 2025: 15)');
    expect(mail.text).toContain('- Gewonnene Punkte: 0 (seit dem 3. Februar 2025)');
    expect(mail.text).toContain('- Verlorene Punkte: 5 (seit dem 3. Februar 2025)');
    expect(mail.text).toContain(`Bericht online öffnen: ${publicBaseUrl()}/reports/scans/${scan.uuid}?keyword=dentist&snapshot_at=2025-02-17T09%3A00%3A00.000Z`);
    expect(mail.text).toContain('anderen Suchbegriffe dieses Scans: teeth whitening.');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0].contentType).toBe('application/pdf');
    expect(mail.attachments[0].filename).toBe(`scan-report-${scan.uuid}-${MONTH}.pdf`);
    expect(mail.attachments[0].content.subarray(0, 5).toString()).toBe('%PDF-');

    expect(mine(en.owner.email)).toHaveLength(1);
    expect(mine(en.owner.email)[0].subject).toBe(`Main Street Dental: your local search grid report for February 2025 (“dentist”)`);
    // A scan without a completed snapshot, and an archived one: nothing is claimed for them either.
    expect(await ReportDelivery.count({ where: { scanId: [fresh.id, archived.id] } })).toBe(0);
    expect(await ReportDelivery.count({ where: { scanId: [scan.id, en.scan.id], month: MONTH, status: 'sent' } })).toBe(3);

    // Run again (a re-run, a retried schedule): nobody is mailed twice; the job says so for a direct call too.
    expect(await run({ month: MONTH })).toEqual({ month: MONTH, sent: 0, alreadySent: 0, gone: 0, failed: 0 });
    expect(mine(owner.email)).toHaveLength(1);
    expect(mine(partner.email)).toHaveLength(1);
    expect(mine(en.owner.email)).toHaveLength(1);
    expect(await sendScanReportMail({ scanId: scan.id, userId: owner.id }, MONTH)).toBe('already_sent');
    // The month before the first snapshot has nothing to mail.
    expect((await pendingScanReportRecipients('2025-01', null, 500)).filter((r) => r.scanId === scan.id)).toEqual([]);
  });

  it('mails a scan for the month only when it has a snapshot completed within it: one that stopped running is not mailed its old snapshot again', async () => {
    await settle(MONTH);
    // Stopped running in January (its last snapshot a second before February began): nothing new to say in February.
    const stopped = await agency('en', [new Date('2025-01-10T09:00:00Z'), new Date('2025-01-31T23:59:59Z')]);
    // Ran in January and again at February's first instant: mailed, its February snapshot against January's.
    const running = await agency('en', [new Date('2025-01-20T09:00:00Z'), new Date('2025-02-01T00:00:00Z')]);

    expect(await run({ month: MONTH })).toEqual({ month: MONTH, sent: 1, alreadySent: 0, gone: 0, failed: 0 });
    expect(mine(stopped.owner.email)).toHaveLength(0);
    expect(await ReportDelivery.count({ where: { scanId: stopped.scan.id } })).toBe(0);
    const pending = await pendingScanReportRecipients(MONTH, null, 500);
    expect(pending.filter((r) => r.scanId === stopped.scan.id)).toEqual([]);
    // Sent directly (a recipient paged before the rule changed): nothing of the month to show.
    expect(await sendScanReportMail({ scanId: stopped.scan.id, userId: stopped.owner.id }, MONTH)).toBe('gone');
    expect(mine(stopped.owner.email)).toHaveLength(0);
    // January's mail is still its own.
    expect(await pendingScanReportRecipients('2025-01', null, 500)).toContainEqual({ scanId: stopped.scan.id, userId: stopped.owner.id });

    expect(mine(running.owner.email)).toHaveLength(1);
    const [mail] = mine(running.owner.email);
    expect(mail.text).toContain('“dentist” in the snapshot of Feb 1, 2025');
    // Against the snapshot before, from the month before.
    expect(mail.text).toContain('- Average rank: 3.4 (January 20, 2025: 3)');
    expect(mail.text).toContain('- Pins lost: 5 (since January 20, 2025)');
  });

  it('skips agencies whose owner turned report mail off (their own account, GraphQL) and answers gone for a scan archived since', async () => {
    await settle(MONTH);
    const off = await agency('en');
    const toggled = await t.http().post('/graphql').set('Authorization', `Bearer ${await tokenFor(off.owner)}`).send({ query: 'mutation { setAccountReportEmails(enabled: false) { reportEmails } }' });
    expect(toggled.body.data.setAccountReportEmails.reportEmails).toBe(false);
    const later = await agency('en');
    await later.scan.update({ archivedAt: new Date() });

    expect(await run({ month: MONTH })).toMatchObject({ sent: 0, gone: 0 });
    expect(mine(off.owner.email)).toHaveLength(0);
    expect(await sendScanReportMail({ scanId: later.scan.id, userId: later.owner.id }, MONTH)).toBe('gone');
    expect(mine(later.owner.email)).toHaveLength(0);
  });

  it('mails once when attempts race, and takes over a stale claim (the organisation mail\'s rule)', async () => {
    const { owner, scan } = await agency('en');
    const who = { scanId: scan.id, userId: owner.id };
    const outcomes = await Promise.allSettled([sendScanReportMail(who, MONTH), sendScanReportMail(who, MONTH), sendScanReportMail(who, MONTH)]);
    expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value === 'sent')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(ReportMailInFlight);
    expect(mine(owner.email)).toHaveLength(1);

    const crashed = await agency('en');
    const left = { scanId: crashed.scan.id, userId: crashed.owner.id };
    const claim = await ReportDelivery.create({ tenantId: crashed.tenant.id, ...left, month: MONTH, messageId: 'x', status: 'sending' });
    await expect(sendScanReportMail(left, MONTH)).rejects.toBeInstanceOf(ReportMailInFlight);
    await ReportDelivery.sequelize!.query('UPDATE report_deliveries SET updated_at = ? WHERE id = ?', { replacements: [new Date(Date.now() - STALE_CLAIM_MS - 1_000), claim.id] });
    expect(await sendScanReportMail(left, MONTH)).toBe('sent');
    expect(mine(crashed.owner.email)).toHaveLength(1);
    expect((await ReportDelivery.findByPk(claim.id))!.status).toBe('sent');
  });

  it('is a Temporal Schedule on the 1st of each month whose run mails the month before', async () => {
    expect(await ensureMonthlyScanReportSchedule()).toBe('created');
    expect(await ensureMonthlyScanReportSchedule()).toBe('unchanged');
    const handle = temporal().client.schedule.getHandle(monthlyScanReportScheduleId());
    const described = await handle.describe();
    expect(described.spec.calendars![0].dayOfMonth).toEqual([{ start: 1, end: 1, step: 1 }]);
    expect(described.spec.calendars![0].hour).toEqual([{ start: 6, end: 6, step: 1 }]);
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'sendMonthlyScanReports', taskQueue: worker.settings().taskQueue });

    const last = previousMonthOf(new Date());
    await settle(last);
    const { owner } = await agency('en', [new Date(`${last}-10T09:00:00Z`)]);
    await handle.trigger();
    await waitUntil(async () => (await handle.describe()).info.recentActions.length > 0);
    const started = (await handle.describe()).info.recentActions[0].action.workflow.workflowId;
    const result = (await temporal().client.workflow.getHandle(started).result()) as MonthlyScanReportsResult;
    expect(result).toMatchObject({ month: last, sent: 1, failed: 0 });
    expect(mine(owner.email)).toHaveLength(1);
    // With a snapshot only: no previous one to compare with.
    expect(mine(owner.email)[0].text).toContain('- Pins gained: n/a (First snapshot)');

    configureMonthlyReports({ hourUtc: 7 });
    try {
      expect(await ensureMonthlyScanReportSchedule()).toBe('updated');
    } finally {
      configureMonthlyReports({ hourUtc: 6 });
    }
  });
});
