import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { createTransport, type SendMailOptions, type Transporter } from 'nodemailer';
import { loadConfig } from '../../config';
import type { ErrorFields, FromThread, ToThread, TransportOptions } from './mail-thread.worker';

export type { TransportOptions };

/**
 * SMTP sending off the main thread (SMTP_SEND_THREAD, on by default). Composing a message and streaming it through
 * nodemailer costs about 1.5 ms of CPU; a worker sending a campaign spent most of its main thread on it, next to the
 * Temporal worker's own polling and the claims' database work (bench:invites: 90-97 % busy). One thread per process
 * owns every pooled transport (the platform's and the accounts'); the main thread hands it each message and waits for
 * the server's answer, so sending runs on a second core.
 *
 * The thread sees only transport options and messages (plain data); the deadline of each send (`deadlineMs`, as
 * SMTP_SEND_DEADLINE_MS) is an AbortSignal made in the thread. A failure comes back with nodemailer's fields (`code`,
 * `responseCode`, `response`, `command`), so it is sorted as before (`classifySmtpError`). A thread that stops with
 * sends in flight fails them as a deadline does (`EABORT`: the server may have taken the message), and the next
 * send starts a new thread.
 */
export interface MailTransport {
  /** Sends one message; `deadlineMs` bounds the whole send. Answers nodemailer's message id. */
  sendMail(mail: SendMailOptions, deadlineMs: number): Promise<{ messageId: string | null }>;
  /** Closes the transport's pooled connections. */
  close(): void;
}

/** An error with the fields the thread sent back, as nodemailer would have thrown it. */
function errorOf(fields: ErrorFields): Error {
  const { message, ...rest } = fields;
  return Object.assign(new Error(message), rest);
}

interface Pending {
  resolve(value: { messageId: string | null }): void;
  reject(err: Error): void;
}

/** The process's mail thread: started at the first send, again after it stopped. */
class MailThread {
  private worker: Worker | null = null;
  /** Transports the current thread has opened (a new thread opens them again at their next send). */
  private opened = new Set<number>();
  private pending = new Map<number, Pending>();
  private seq = 0;

  send(transport: number, options: TransportOptions, mail: SendMailOptions, deadlineMs: number): Promise<{ messageId: string | null }> {
    const worker = this.started();
    const seq = ++this.seq;
    const message: ToThread = { type: 'send', seq, transport, mail, deadlineMs };
    if (!this.opened.has(transport)) {
      message.options = options;
      this.opened.add(transport);
    }
    return new Promise((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      // Kept alive while a send is on its way (a CLI command that sends and ends waits for the answer).
      if (this.pending.size === 1) worker.ref();
      try {
        worker.postMessage(message);
      } catch (err) {
        this.settle(seq, (p) => p.reject(err instanceof Error ? err : new Error(String(err))));
      }
    });
  }

  close(transport: number): void {
    if (this.opened.delete(transport)) this.worker?.postMessage({ type: 'close', transport } satisfies ToThread);
  }

  /** Ends the thread (shutdown, tests); sends still in flight fail as stopped. */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    // dist: the compiled .js beside this file; under Jest (TypeScript sources) the .ts through swc.
    const ts = path.extname(__filename) === '.ts';
    const worker = new Worker(path.join(__dirname, `mail-thread.worker${ts ? '.ts' : '.js'}`), {
      execArgv: ts ? ['-r', '@swc-node/register'] : [],
      // Its own heap bounds (the process's flags do not apply to it): it keeps transports and the messages in flight, and
      // a small young generation holds its garbage to a few MB of RSS (Node's default let it add about 25 MB).
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
      name: 'mail',
    });
    worker.unref();
    worker.on('message', (m: FromThread) =>
      this.settle(m.seq, (p) => (m.type === 'sent' ? p.resolve({ messageId: m.messageId }) : p.reject(errorOf(m.error)))),
    );
    const stopped = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.opened.clear();
      const waiting = [...this.pending.values()];
      this.pending.clear();
      for (const p of waiting) p.reject(errorOf({ message: `The mail thread stopped before the server answered (${why}).`, code: 'EABORT' }));
    };
    worker.on('error', (err) => stopped(err.message));
    worker.on('exit', (code) => stopped(`exit ${code}`));
    this.worker = worker;
    this.opened.clear();
    return worker;
  }

  private settle(seq: number, how: (p: Pending) => void): void {
    const p = this.pending.get(seq);
    if (!p) return;
    this.pending.delete(seq);
    if (this.pending.size === 0) this.worker?.unref();
    how(p);
  }
}

const thread = new MailThread();
let transports = 0;

/**
 * A pooled SMTP transport: in the mail thread (SMTP_SEND_THREAD, default) or on this thread. `options` are
 * nodemailer's SMTP transport options as plain data.
 */
export function mailTransport(options: TransportOptions, env: NodeJS.ProcessEnv = process.env): MailTransport {
  if (loadConfig(env).SMTP_SEND_THREAD === 'false') return localTransport(options);
  const id = ++transports;
  return {
    sendMail: (mail, deadlineMs) => thread.send(id, options, mail, deadlineMs),
    close: () => thread.close(id),
  };
}

/** The same transport on the calling thread. */
function localTransport(options: TransportOptions): MailTransport {
  const transport: Transporter = createTransport(options);
  // A pooled connection that breaks while idle (the server closed it, a reset) is reported here, not to a send: the
  // pool opens a new one for the next message. Without a listener the event would end the process.
  transport.on('error', () => undefined);
  return {
    async sendMail(mail, deadlineMs) {
      const info = await transport.sendMail({ ...mail, signal: AbortSignal.timeout(deadlineMs) } as SendMailOptions);
      return { messageId: info.messageId ? String(info.messageId) : null };
    },
    close: () => transport.close(),
  };
}

/** Ends the mail thread (the process's shutdown, after its transports were closed). */
export function stopMailThread(): Promise<void> {
  return thread.stop();
}
