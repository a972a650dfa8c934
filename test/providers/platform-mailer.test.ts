import * as nodemailer from 'nodemailer';
import {
  closePlatformMailers,
  platformMailer,
  SMTP_LIMITS,
  SMTP_SEND_DEADLINE_MS,
  SMTP_TIMEOUTS,
  smtpMailer,
  smtpTransportOptions,
  type SmtpLimits,
} from '../../src/providers/smtp/platform-mailer';
import { startSilentSmtpServer } from '../support/providers/smtp';

/**
 * The platform mailer's bounds on a slow or silent SMTP server (src/providers/smtp/platform-mailer.ts): the transport's
 * timeouts and the deadline of each send, against real sockets on loopback that accept a connection and then say
 * nothing (or only the greeting). The bounds are made small through `smtpMailer`'s `limits`; the tests wait for the
 * send to fail, they do not time it.
 */

const message = { to: 'owner@example.test', subject: 'Report', text: 'Figures' };
const POOL = { pool: true as const, maxConnections: 1, maxMessages: 1 };
const LONG = 60_000;

describe('platform mailer bounds', () => {
  afterEach(() => closePlatformMailers());

  it("gives the transport its timeouts, well under nodemailer's defaults, and the pool", () => {
    expect(SMTP_TIMEOUTS).toEqual({ connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
    expect(smtpTransportOptions('smtp://mail.example.test:587', POOL)).toEqual({ url: 'smtp://mail.example.test:587', ...SMTP_TIMEOUTS, ...POOL });

    // The transport the platform mailer makes from SMTP_URL carries them (nodemailer itself, watched, not replaced): on
    // this thread with SMTP_SEND_THREAD=false, read from the environment the mailer is given like its other settings;
    // the mail thread gets the same options as data (test/providers/mail-thread.test.ts).
    const made = jest.spyOn(nodemailer, 'createTransport');
    try {
      platformMailer({ ...process.env, SMTP_URL: 'smtp://mail.example.test:587', SMTP_POOL_SIZE: '3', SMTP_SEND_THREAD: 'false' });
      expect(made).toHaveBeenCalledWith({ url: 'smtp://mail.example.test:587', ...SMTP_TIMEOUTS, pool: true, maxConnections: 3, maxMessages: 100 });
    } finally {
      made.mockRestore();
    }
    expect(SMTP_LIMITS.sendDeadlineMs).toBe(SMTP_SEND_DEADLINE_MS);
  });

  const fails = async (greeting: string | undefined, limits: SmtpLimits) => {
    const server = await startSilentSmtpServer(greeting);
    const mailer = smtpMailer(server.url, 'no-reply@example.test', POOL, limits);
    try {
      return await mailer.send(message).then(
        () => null,
        (e: Error & { code?: string }) => e,
      );
    } finally {
      mailer.close?.();
      await server.close();
    }
  };

  it('fails a send to a server that accepts the connection but never greets, on the greeting timeout', async () => {
    const e = await fails(undefined, { connectionTimeout: LONG, greetingTimeout: 200, socketTimeout: LONG, sendDeadlineMs: LONG });
    expect(e).toBeInstanceOf(Error);
    expect(e!.code).not.toBe('EABORT');
  });

  it('fails a send to a server that greets and then never answers, on the socket timeout', async () => {
    const e = await fails('220 silent.test ESMTP\r\n', { connectionTimeout: LONG, greetingTimeout: LONG, socketTimeout: 200, sendDeadlineMs: LONG });
    expect(e).toBeInstanceOf(Error);
    expect(e!.code).not.toBe('EABORT');
  });

  it('fails a send on its deadline whatever the timeouts allow (a pool queue, requeues, a server that trickles)', async () => {
    const e = await fails(undefined, { connectionTimeout: LONG, greetingTimeout: LONG, socketTimeout: LONG, sendDeadlineMs: 200 });
    expect(e).toBeInstanceOf(Error);
    expect(e!.code).toBe('EABORT');
  });
});
