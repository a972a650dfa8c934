import { createServer, type AddressInfo, type Socket } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { closeSmtpPools } from '../../../src/providers/smtp/account-sender';

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps every message it accepts, parsed
 * with `mailparser`. `reject: true` makes it refuse every recipient with a 550, for the "mail server says
 * no" paths.
 */
export interface SmtpSink {
  /** nodemailer connection URL of this server (`smtp://127.0.0.1:<port>`). */
  url: string;
  port: number;
  messages: ParsedMail[];
  /** Resolves once `n` messages have arrived (rejects after `timeoutMs` so a missing mail fails the test). */
  waitFor(n: number, timeoutMs?: number): Promise<ParsedMail[]>;
  /** Messages addressed to `email`. */
  to(email: string): ParsedMail[];
  reset(): void;
  close(): Promise<void>;
}

export async function startSmtpServer(opts: { reject?: boolean } = {}): Promise<SmtpSink> {
  const messages: ParsedMail[] = [];
  let waiters: Array<{ n: number; resolve: (m: ParsedMail[]) => void }> = [];
  const settle = () => {
    waiters = waiters.filter((w) => {
      if (messages.length < w.n) return true;
      w.resolve([...messages]);
      return false;
    });
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (opts.reject) {
        const err = Object.assign(new Error(`Mailbox unavailable: ${address.address}`), { responseCode: 550 });
        return callback(err);
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          settle();
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // smtp-server re-emits each connection's socket error on the server: a sender killed mid-message (the SIGKILL tests
  // kill a worker whose pooled connections are open) resets its sockets, and an 'error' with no listener would end the
  // test process ("read ECONNRESET"). The sink is a receiver: a client that went away is not its failure.
  server.on('error', () => undefined);
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitFor(n, timeoutMs = 10_000) {
      if (messages.length >= n) return Promise.resolve([...messages]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${n} mail(s), got ${messages.length} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          n,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
    },
    to: (email) => messages.filter((m) => addressesOf(m).includes(email.toLowerCase())),
    reset() {
      messages.length = 0;
    },
    // The platform's SMTP connections are pooled (open between messages): closed first, or the server would wait for them.
    close: () => {
      closeSmtpPools();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A TCP server on loopback that accepts every connection, writes `greeting` if given (an SMTP `220` line), and then
 * never answers: the slow or silent server the SMTP bounds are for (src/providers/smtp/platform-mailer.ts).
 */
export async function startSilentSmtpServer(greeting?: string): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (greeting) socket.write(greeting);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Runs `fn` with the platform's `SMTP_URL` pointing at a port where no SMTP server listens any more (one that was
 * started and closed), then puts `SMTP_URL` back as it was (unset stays unset). Returns that port with `fn`'s result.
 */
export async function withSmtpGone<T>(fn: () => Promise<T>): Promise<{ port: number; result: T }> {
  const gone = await startSmtpServer();
  await gone.close();
  const previous = process.env.SMTP_URL;
  process.env.SMTP_URL = gone.url;
  try {
    return { port: gone.port, result: await fn() };
  } finally {
    if (previous === undefined) delete process.env.SMTP_URL;
    else process.env.SMTP_URL = previous;
  }
}

export function addressesOf(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
}

/**
 * Starts a loopback SMTP server for the test file and points the platform mailer at it (`SMTP_URL`), restoring
 * the previous setting afterwards.
 */
export function useSmtpServer(opts: { reject?: boolean } = {}): () => SmtpSink {
  let sink: SmtpSink | null = null;
  const previous = process.env.SMTP_URL;
  beforeAll(async () => {
    sink = await startSmtpServer(opts);
    process.env.SMTP_URL = sink.url;
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.SMTP_URL;
    else process.env.SMTP_URL = previous;
    await sink?.close();
  });
  return () => {
    if (!sink) throw new Error('SMTP server not started');
    return sink;
  };
}
