import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { ReportDelivery } from '../../src/models';
import { mailOnce, ReportMailInFlight, STALE_CLAIM_MS, type DeliveryKey, type ReportMail } from '../../src/jobs/report-deliveries';
import { closePlatformMailers, SMTP_LIMITS, SMTP_SEND_DEADLINE_MS, SMTP_TIMEOUTS } from '../../src/providers/smtp/platform-mailer';
import { useDatabase } from '../support/db';
import { useEnv } from '../support/env';
import { makeWorld } from '../support/factories';
import { waitUntil } from '../support/wait';

/**
 * The claim of a monthly report mail (`mailOnce`, src/jobs/report-deliveries.ts) when an attempt's claim is taken over
 * while its send is still at the SMTP server: real MariaDB, and a real SMTP server on loopback that holds each message
 * until the test accepts or refuses it, so the test decides the order in which two attempts' sends end.
 */

/** A message the server holds before answering the end of its DATA. */
interface Held {
  messageId: string;
  accept(): void;
  refuse(): void;
}

async function startHoldingSmtpServer() {
  const held: Held[] = [];
  const taken = new Set<Held>();
  const accepted: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const messageId = /^Message-ID:\s*(\S+)/im.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '';
        held.push({
          messageId,
          accept: () => {
            accepted.push(messageId);
            callback();
          },
          refuse: () => callback(Object.assign(new Error('Try again later'), { responseCode: 451 })),
        });
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    /** The next message held under the Message-ID `<local@...>` that no caller took yet, once it has arrived. */
    async next(local: string): Promise<Held> {
      const mine = () => held.find((h) => !taken.has(h) && h.messageId.startsWith(`<${local}@`));
      await waitUntil(async () => mine() !== undefined, 20_000, 20);
      const h = mine()!;
      taken.add(h);
      return h;
    },
    close: () => {
      closePlatformMailers();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const MONTH = '2025-02';

describe('report mail claim (mailOnce): a take-over while the attempt it was taken from still sends', () => {
  useDatabase();
  let smtp: Awaited<ReturnType<typeof startHoldingSmtpServer>>;
  useEnv({}, ['SMTP_URL']);
  beforeAll(async () => {
    smtp = await startHoldingSmtpServer();
    process.env.SMTP_URL = smtp.url;
  });
  afterAll(() => smtp.close());

  async function subject() {
    const w = await makeWorld();
    const key: DeliveryKey = { subject: { organizationId: w.org.id }, userId: w.orgOwner.id, month: MONTH };
    const mail: ReportMail = {
      tenantId: w.org.tenantId,
      to: w.orgOwner.email,
      body: { subject: 'Your report', text: 'Figures', html: '<p>Figures</p>' },
      fromName: 'Harbour',
      kind: 'monthly-report',
      messageKey: `report.${w.org.id}.${MONTH}.${w.orgOwner.id}`,
      pdf: { filename: 'report.pdf', content: Buffer.from('%PDF-1.4\n%%EOF\n') },
    };
    const attempt = () => mailOnce(key, async () => mail);
    const row = async () => ReportDelivery.findOne({ where: { organizationId: w.org.id, userId: w.orgOwner.id, month: MONTH } });
    return { key, attempt, row, messageKey: mail.messageKey };
  }

  /** Starts an attempt whose send the server holds; answers it with its claim as it stands then. */
  async function sendingAttempt(s: Awaited<ReturnType<typeof subject>>) {
    const done = s.attempt();
    done.catch(() => undefined); // awaited by the test; a rejection before then is not unhandled
    const held = await smtp.next(s.messageKey);
    const claim = (await s.row())!;
    expect(claim.status).toBe('sending');
    expect(claim.claimToken).toMatch(/^[0-9a-f-]{36}$/);
    return { done, held, claim };
  }

  /** The claim as it would stand after STALE_CLAIM_MS without a word from its attempt. */
  const age = (id: number) =>
    ReportDelivery.sequelize!.query('UPDATE report_deliveries SET updated_at = ? WHERE id = ?', { replacements: [new Date(Date.now() - STALE_CLAIM_MS - 1_000), id] });

  /** Two attempts of one mail, both holding their message in the SMTP server: the first's claim taken over by the second. */
  async function takenOver() {
    const s = await subject();
    const first = await sendingAttempt(s);
    await age(first.claim.id);
    const second = await sendingAttempt(s);
    return { s, first, second };
  }

  it("keeps the take-over's claim when the send of the attempt it was taken from fails", async () => {
    const { s, first, second } = await takenOver();
    expect(second.claim.id).toBe(first.claim.id);
    expect(second.claim.claimToken).not.toBe(first.claim.claimToken);

    first.held.refuse();
    await expect(first.done).rejects.toThrow(/Try again later/);
    // The row is still there, still the take-over's: a third attempt finds it held and stays out.
    const kept = (await s.row())!;
    expect({ id: kept.id, status: kept.status, claimToken: kept.claimToken }).toEqual({ id: first.claim.id, status: 'sending', claimToken: second.claim.claimToken });
    await expect(s.attempt()).rejects.toBeInstanceOf(ReportMailInFlight);

    second.held.accept();
    expect(await second.done).toBe('sent');
    expect((await s.row())!.status).toBe('sent');
    expect(await s.attempt()).toBe('already_sent');
  });

  it('marks the mail sent when the attempt it was taken from succeeds, and a failing take-over leaves it so', async () => {
    const { s, first, second } = await takenOver();

    first.held.accept();
    expect(await first.done).toBe('sent');
    // The mail went: the row says so, and stays the take-over's claim (its token), not rewritten as the first's.
    const marked = (await s.row())!;
    expect({ id: marked.id, status: marked.status, claimToken: marked.claimToken }).toEqual({ id: first.claim.id, status: 'sent', claimToken: second.claim.claimToken });

    // The take-over's send fails: its release is of its `sending` claim only, so the `sent` row stays.
    second.held.refuse();
    await expect(second.done).rejects.toThrow(/Try again later/);
    expect((await s.row())!.status).toBe('sent');
    expect(await s.attempt()).toBe('already_sent');
    expect(smtp.accepted.filter((id) => id === first.held.messageId)).toHaveLength(1);
  });

  it('records the mail sent when the take-over failed and released the claim before the attempt it was taken from succeeded', async () => {
    const { s, first, second } = await takenOver();

    second.held.refuse();
    await expect(second.done).rejects.toThrow(/Try again later/);
    expect(await s.row()).toBeNull();

    first.held.accept();
    expect(await first.done).toBe('sent');
    const row = (await s.row())!;
    expect(row.status).toBe('sent');
    expect(row.claimToken).toBeNull();
    expect(await s.attempt()).toBe('already_sent');
  });

  it('sends a second copy under the same Message-ID when both succeed (what the claim cannot exclude), and ends sent', async () => {
    const { s, first, second } = await takenOver();
    expect(second.held.messageId).toBe(first.held.messageId);

    first.held.accept();
    second.held.accept();
    expect(await first.done).toBe('sent');
    expect(await second.done).toBe('sent');
    expect((await s.row())!.status).toBe('sent');
    expect(smtp.accepted.filter((id) => id === first.held.messageId)).toHaveLength(2);
  });
});

describe('report mail claim: the stale window against the longest send', () => {
  it('takes over a claim only well after the longest an SMTP send may take, each of whose phases is bounded shorter still', () => {
    expect(SMTP_LIMITS).toEqual({ ...SMTP_TIMEOUTS, sendDeadlineMs: SMTP_SEND_DEADLINE_MS });
    expect(STALE_CLAIM_MS).toBeGreaterThanOrEqual(4 * SMTP_SEND_DEADLINE_MS);
    for (const timeout of Object.values(SMTP_TIMEOUTS)) expect(timeout).toBeLessThan(SMTP_SEND_DEADLINE_MS);
  });
});
