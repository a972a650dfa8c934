import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import * as nodemailer from 'nodemailer';
import { classifySmtpError, smtpSender } from '../../src/providers/smtp/account-sender';
import { MailThread, mailTransport, stopMailThread } from '../../src/providers/smtp/mail-thread';
import { smtpMailer, SMTP_LIMITS } from '../../src/providers/smtp/platform-mailer';
import { MessagingRejected, MessagingUnavailable } from '../../src/messaging/types';
import { startSilentSmtpServer, startSmtpServer, type SmtpSink } from '../support/providers/smtp';

/**
 * SMTP through the mail thread (src/providers/smtp/mail-thread.ts, SMTP_SEND_THREAD on by default): the messages reach
 * a real SMTP server on loopback, composed in the thread; the server's refusal, a send's deadline and a thread that
 * stops come back to the caller as nodemailer's own errors would; `SMTP_SEND_THREAD=false` sends on this thread.
 */

const POOL = { pool: true as const, maxConnections: 2, maxMessages: 100 };

const account = (port: number) => ({ host: '127.0.0.1', port, secure: false, username: null, password: null, fromEmail: 'shop@example.test', fromName: 'Corner Shop' });

describe('mail thread', () => {
  let sink: SmtpSink;
  let refusing: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpServer();
    refusing = await startSmtpServer({ reject: true });
  });
  afterAll(async () => {
    await sink.close();
    await refusing.close();
    await stopMailThread();
  });
  beforeEach(() => sink.reset());

  it('sends from the thread: no transport on this thread, the message arrives whole with its Message-ID', async () => {
    const made = jest.spyOn(nodemailer, 'createTransport');
    try {
      const sender = smtpSender(account(sink.port));
      const receipts = await Promise.all(
        ['ada', 'bob', 'cy'].map((name) =>
          sender.send({ to: `${name}@example.test`, subject: `Hello ${name}`, body: `Text for ${name}`, html: `<p>Html for ${name}</p>`, headers: { 'X-Invite': name }, messageId: `<${name}@invites.example.test>` }),
        ),
      );
      expect(made).not.toHaveBeenCalled();
      expect(receipts.map((r) => r.providerMessageId)).toEqual(['<ada@invites.example.test>', '<bob@invites.example.test>', '<cy@invites.example.test>']);
      const mails = await sink.waitFor(3);
      const ada = mails.find((m) => m.subject === 'Hello ada')!;
      expect(ada.from?.text).toBe('"Corner Shop" <shop@example.test>');
      expect(ada.text?.trim()).toBe('Text for ada');
      expect(ada.html).toContain('<p>Html for ada</p>');
      expect(ada.headers.get('x-invite')).toBe('ada');
      expect(ada.messageId).toBe('<ada@invites.example.test>');
    } finally {
      made.mockRestore();
    }
  });

  it('carries binary attachments across as their bytes', async () => {
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10, 0x80]);
    const mailer = smtpMailer(sink.url, 'no-reply@example.test', POOL);
    try {
      await mailer.send({ to: 'owner@example.test', subject: 'Report', text: 'Attached', attachments: [{ filename: 'report.pdf', content: bytes, contentType: 'application/pdf' }] });
      const [mail] = await sink.waitFor(1);
      expect(mail.attachments).toHaveLength(1);
      expect(mail.attachments[0].filename).toBe('report.pdf');
      expect(Buffer.compare(mail.attachments[0].content, bytes)).toBe(0);
    } finally {
      mailer.close?.();
    }
  });

  it("answers the server's refusal with its reply code (a refusal, not a retry)", async () => {
    const sender = smtpSender(account(refusing.port));
    const err = await sender.send({ to: 'nobody@example.test', subject: 'Hi', body: 'Text' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MessagingRejected);
    expect((err as MessagingRejected).message).toMatch(/\(550\)/);
  });

  it('fails a send in flight when the thread stops (as a deadline: the server may have it), then sends on a new thread', async () => {
    const silent = await startSilentSmtpServer();
    try {
      const stuck = mailTransport({ url: silent.url, ...POOL });
      const inFlight = stuck.sendMail({ from: 'a@example.test', to: 'b@example.test', subject: 'Stuck', text: 'x' }, 60_000).then(
        () => null,
        (e: unknown) => e,
      );
      await new Promise((r) => setTimeout(r, 100));
      await stopMailThread();
      const err = await inFlight;
      expect((err as { code?: string }).code).toBe('EABORT');
      expect(classifySmtpError(err)).toBeInstanceOf(MessagingUnavailable);
      stuck.close();

      const sender = smtpSender(account(sink.port));
      await expect(sender.send({ to: 'after@example.test', subject: 'After', body: 'Sent on a new thread' })).resolves.toMatchObject({ status: 'accepted' });
      expect((await sink.waitFor(1)).map((m) => m.subject)).toEqual(['After']);
    } finally {
      await silent.close();
    }
  });

  it('ends a send at its deadline inside the thread (EABORT)', async () => {
    const silent = await startSilentSmtpServer('220 silent.test ESMTP\r\n');
    const transport = mailTransport({ url: silent.url, ...POOL, ...{ connectionTimeout: 60_000, greetingTimeout: 60_000, socketTimeout: 60_000 } });
    try {
      const err = await transport.sendMail({ from: 'a@example.test', to: 'b@example.test', subject: 'Late', text: 'x' }, 200).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(Error);
      expect((err as { code?: string }).code).toBe('EABORT');
    } finally {
      transport.close();
      await silent.close();
    }
  });

  it('keeps a process that has nothing else to do alive until its send is answered (a CLI command that mails and ends)', async () => {
    // A fresh process whose only work is sending through the thread: a first message, a pause with the thread idle
    // (not holding the process), and a second; the process must not exit before the second's answer.
    const script = `const t = require('./src/providers/smtp/mail-thread').mailTransport({ url: '${sink.url}', pool: true, maxConnections: 1 });
      const mail = (subject) => ({ from: 'cli@example.test', to: 'owner@example.test', subject, text: 'x' });
      t.sendMail(mail('First'), 60000)
        .then(() => new Promise((resolve) => setTimeout(resolve, 300)))
        .then(() => t.sendMail(mail('Second'), 60000))
        .then((info) => console.log('answered ' + info.messageId));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', '-e', script], {
      cwd: path.resolve(__dirname, '../..'),
      env: { ...process.env, SMTP_SEND_THREAD: 'true' },
    });
    expect(stdout).toMatch(/^answered <.+@.+>$/m);
    expect((await sink.waitFor(2)).map((m) => m.subject)).toEqual(['First', 'Second']);
  });

  it('closes a transport after the sends already made on it, and refuses later ones as not sent', async () => {
    const transport = mailTransport({ url: sink.url, ...POOL });
    const sends = ['one', 'two', 'three'].map((subject) => transport.sendMail({ from: 'a@example.test', to: `${subject}@example.test`, subject, text: 'x' }, 60_000));
    transport.close();
    await expect(Promise.all(sends)).resolves.toHaveLength(3);
    expect((await sink.waitFor(3)).map((m) => m.subject).sort()).toEqual(['one', 'three', 'two']);
    const late = await transport.sendMail({ from: 'a@example.test', to: 'late@example.test', subject: 'late', text: 'x' }, 60_000).then(
      () => null,
      (e: unknown) => e,
    );
    expect((late as { code?: string }).code).toBe('ECONNECTION');
    expect(classifySmtpError(late)).toBeInstanceOf(MessagingUnavailable);
  });

  it('fails a message that cannot cross to the thread, and the transport goes on sending', async () => {
    const transport = mailTransport({ url: sink.url, ...POOL });
    try {
      const bad = await transport.sendMail({ from: 'a@example.test', to: 'b@example.test', subject: 'bad', text: 'x', headers: { 'X-Fn': (() => 'no') as unknown as string } }, 60_000).then(
        () => null,
        (e: unknown) => e,
      );
      expect(bad).toBeInstanceOf(Error);
      await transport.sendMail({ from: 'a@example.test', to: 'good@example.test', subject: 'good', text: 'x' }, 60_000);
      expect((await sink.waitFor(1)).map((m) => m.subject)).toEqual(['good']);
    } finally {
      transport.close();
    }
  });

  describe('a thread that misbehaves (test/fixtures/mail-thread-faults.ts)', () => {
    const faulty = (graceMs = 5_000) => new MailThread(() => ({ file: path.resolve(__dirname, '../fixtures/mail-thread-faults.ts'), execArgv: ['-r', '@swc-node/register'] }), graceMs);
    const mail = (subject: string) => ({ from: 'a@example.test', to: 'b@example.test', subject, text: 'x' });

    it('keeps the answers it gave before it failed (sent, not retried); fails only the rest, then starts anew', async () => {
      const thread = faulty();
      const transport = thread.transport({});
      const hanging = transport.sendMail(mail('hang'), 60_000).then(
        () => null,
        (e: unknown) => e,
      );
      const answered = await transport.sendMail(mail('answer then crash'), 60_000);
      expect(answered.messageId).toMatch(/answer-then-crash@fixture\.test>$/);
      const err = await hanging;
      expect((err as { code?: string }).code).toBe('EABORT');
      expect((err as Error).message).toContain('the thread failed after answering');
      await expect(transport.sendMail(mail('after'), 60_000)).resolves.toMatchObject({ messageId: expect.stringMatching(/after@fixture/) });
      await thread.stop();
    });

    it('gives up on a thread that does not answer, the grace after the deadline (EABORT)', async () => {
      const thread = faulty(50);
      const err = await thread.transport({}).sendMail(mail('hang'), 100).then(
        () => null,
        (e: unknown) => e,
      );
      expect((err as { code?: string }).code).toBe('EABORT');
      expect((err as Error).message).toContain('did not answer within');
      await thread.stop();
    });

    it('fails sends to a thread that cannot start as not sent (ECONNECTION), not as maybe sent', async () => {
      const thread = new MailThread(() => ({ file: path.resolve(__dirname, '../fixtures/no-such-thread.js'), execArgv: [] }));
      const err = await thread.transport({}).sendMail(mail('nowhere'), 60_000).then(
        () => null,
        (e: unknown) => e,
      );
      expect((err as { code?: string }).code).toBe('ECONNECTION');
      expect(classifySmtpError(err)).toBeInstanceOf(MessagingUnavailable);
    });
  });

  it('sends on this thread with SMTP_SEND_THREAD=false', async () => {
    const made = jest.spyOn(nodemailer, 'createTransport');
    try {
      const transport = mailTransport({ url: sink.url, ...POOL }, { ...process.env, SMTP_SEND_THREAD: 'false' });
      expect(made).toHaveBeenCalledWith({ url: sink.url, ...POOL });
      const info = await transport.sendMail({ from: 'a@example.test', to: 'local@example.test', subject: 'Local', text: 'x' }, SMTP_LIMITS.sendDeadlineMs);
      expect(info.messageId).toMatch(/^<.+@.+>$/);
      expect((await sink.waitFor(1)).map((m) => m.subject)).toEqual(['Local']);
      transport.close();
    } finally {
      made.mockRestore();
    }
  });
});
