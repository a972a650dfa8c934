import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SendMailOptions } from 'nodemailer';
import { loadConfig } from '../../config';
import type { ErrorFields, FromThread, ToThread, TransportOptions } from './mail-thread.worker';
import { openTransport, sendWithin } from './nodemailer-send';

export type { TransportOptions };

/**
 * SMTP sending off the main thread (SMTP_SEND_THREAD, on by default). Composing a message and streaming it through
 * nodemailer costs about 1.5 ms of CPU; a worker sending a campaign spent most of its main thread on it, next to the
 * Temporal worker's own polling and the claims' database work (bench:invites: 90-97 % busy). One thread per process
 * owns every pooled transport (the platform's and the accounts'); the main thread hands it each message and waits for
 * the server's answer, so sending runs on a second core.
 *
 * The thread sees only transport options and messages (plain data); the deadline of each send (`deadlineMs`, as
 * SMTP_SEND_DEADLINE_MS) is an AbortSignal made in the thread, and a timer here a few seconds later answers for a
 * thread that does not (`EABORT`). A failure comes back with nodemailer's fields (`code`, `responseCode`,
 * `response`, `command`), so it is sorted as before (`classifySmtpError`). A thread that ends with sends in flight
 * fails them once it has exited (its last answers arrive first): as a deadline does (`EABORT`: the server may have
 * taken the message), or, if it never started, as a connection failure (`ECONNECTION`: nothing was sent). The next
 * send starts a new thread.
 */
export interface MailTransport {
  /** Sends one message; `deadlineMs` bounds the whole send. Answers nodemailer's message id. */
  sendMail(mail: SendMailOptions, deadlineMs: number): Promise<{ messageId: string | null }>;
  /**
   * Closes the transport's pooled connections once the sends already made on it are answered; a send made after it
   * fails as not sent (`ECONNECTION`).
   */
  close(): void;
}

/** An error with the fields the thread sent back, as nodemailer would have thrown it. */
function errorOf(fields: ErrorFields): Error {
  const { message, ...rest } = fields;
  return Object.assign(new Error(message), rest);
}

const closedError = () => errorOf({ message: 'The SMTP transport was closed (its settings changed or it was evicted); nothing was sent.', code: 'ECONNECTION' });

interface Pending {
  transport: number;
  timer: NodeJS.Timeout;
  resolve(value: { messageId: string | null }): void;
  reject(err: Error): void;
}

/** One thread and what it holds: the sends waiting for its answer and the transports it has opened. */
interface Thread {
  worker: Worker;
  pending: Map<number, Pending>;
  opened: Set<number>;
  /** The thread has loaded its code and takes messages (its `ready`). */
  online: boolean;
  why: string | null;
}

/**
 * How long after a send's deadline this side stops waiting for the thread's answer: the thread's own AbortSignal ends
 * the send at the deadline; this only answers for a thread that hangs. Deadline and grace stay under the invite
 * dispatcher's in-flight grace (test/invites/senders.test.ts).
 */
export const MAIL_THREAD_GRACE_MS = 5_000;

/** Where the thread's code is: the compiled .js beside this file; under Jest (TypeScript sources) the .ts through swc. */
function defaultEntry(): { file: string; execArgv: string[] } {
  const ts = path.extname(__filename) === '.ts';
  return { file: path.join(__dirname, `mail-thread.worker${ts ? '.ts' : '.js'}`), execArgv: ts ? ['-r', '@swc-node/register'] : [] };
}

/**
 * The mail thread of a process: started at the first send, again after it ended. `entry` and `graceMs` (how long
 * after a send's deadline this side gives up on the thread's answer) are for tests.
 */
export class MailThread {
  private current: Thread | null = null;
  private seq = 0;
  private transports = 0;
  /** Sends in flight per transport, and the transports closed while some were. */
  private inFlight = new Map<number, number>();
  private closing = new Set<number>();

  constructor(
    private readonly entry: () => { file: string; execArgv: string[] } = defaultEntry,
    private readonly graceMs = MAIL_THREAD_GRACE_MS,
  ) {}

  /** A pooled transport in this thread. */
  transport(options: TransportOptions): MailTransport {
    const id = ++this.transports;
    let closed = false;
    return {
      sendMail: (mail, deadlineMs) => (closed ? Promise.reject(closedError()) : this.send(id, options, mail, deadlineMs)),
      close: () => {
        if (closed) return;
        closed = true;
        if (this.inFlight.has(id)) this.closing.add(id);
        else this.closeNow(id);
      },
    };
  }

  /** Ends the thread (tests, shutdown); its sends in flight fail as stopped. */
  async stop(): Promise<void> {
    const thread = this.current;
    if (thread) await thread.worker.terminate();
  }

  private send(transport: number, options: TransportOptions, mail: SendMailOptions, deadlineMs: number): Promise<{ messageId: string | null }> {
    const thread = this.started();
    const seq = ++this.seq;
    const opening = !thread.opened.has(transport);
    const message: ToThread = { type: 'send', seq, transport, mail, deadlineMs, ...(opening ? { options } : {}) };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.settle(thread, seq, (p) => p.reject(errorOf({ message: `The mail thread did not answer within the send's deadline (${deadlineMs} ms).`, code: 'EABORT' }))),
        deadlineMs + this.graceMs,
      );
      timer.unref();
      thread.pending.set(seq, { transport, timer, resolve, reject });
      this.inFlight.set(transport, (this.inFlight.get(transport) ?? 0) + 1);
      // Kept alive while a send is on its way (a CLI command that sends and ends waits for the answer).
      if (thread.pending.size === 1) thread.worker.ref();
      try {
        thread.worker.postMessage(message);
        // Opened only once the thread has the options (a message that cannot be copied never reached it).
        if (opening) thread.opened.add(transport);
      } catch (err) {
        this.settle(thread, seq, (p) => p.reject(err instanceof Error ? err : new Error(String(err))));
      }
    });
  }

  private started(): Thread {
    if (this.current) return this.current;
    const { file, execArgv } = this.entry();
    const thread: Thread = {
      worker: new Worker(file, {
        execArgv,
        // Its own heap bounds (the process's flags do not apply to it): it keeps transports and the messages in
        // flight, and a small young generation holds its garbage to a few MB of RSS (Node's default let it add about
        // 25 MB).
        resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 },
        name: 'mail',
      }),
      pending: new Map(),
      opened: new Set(),
      online: false,
      why: null,
    };
    const { worker } = thread;
    worker.unref();
    worker.on('message', (m: FromThread) => {
      if (m.type === 'ready') thread.online = true;
      else this.settle(thread, m.seq, (p) => (m.type === 'sent' ? p.resolve({ messageId: m.messageId }) : p.reject(errorOf(m.error))));
    });
    // An error ends the thread: new sends go to a new one at once, but the sends in flight are failed only at the exit,
    // after the answers the thread posted before it failed (a message the server took must not be retried).
    worker.on('error', (err) => {
      thread.why = err.message;
      if (this.current === thread) this.current = null;
    });
    worker.on('exit', (code) => {
      if (this.current === thread) this.current = null;
      const why = thread.why ?? `exit ${code}`;
      const fields: ErrorFields = thread.online
        ? { message: `The mail thread stopped before the server answered (${why}).`, code: 'EABORT' }
        : { message: `The mail thread could not start (${why}); nothing was sent.`, code: 'ECONNECTION' };
      for (const seq of [...thread.pending.keys()]) this.settle(thread, seq, (p) => p.reject(errorOf(fields)));
    });
    this.current = thread;
    return thread;
  }

  private settle(thread: Thread, seq: number, how: (p: Pending) => void): void {
    const p = thread.pending.get(seq);
    if (!p) return;
    thread.pending.delete(seq);
    clearTimeout(p.timer);
    if (thread.pending.size === 0) thread.worker.unref();
    const left = (this.inFlight.get(p.transport) ?? 1) - 1;
    if (left > 0) this.inFlight.set(p.transport, left);
    else {
      this.inFlight.delete(p.transport);
      if (this.closing.delete(p.transport)) this.closeNow(p.transport);
    }
    how(p);
  }

  private closeNow(transport: number): void {
    const thread = this.current;
    if (thread?.opened.delete(transport)) thread.worker.postMessage({ type: 'close', transport } satisfies ToThread);
  }
}

const thread = new MailThread();

/**
 * A pooled SMTP transport: in the mail thread (SMTP_SEND_THREAD, default) or on this thread. `options` are
 * nodemailer's SMTP transport options as plain data.
 */
export function mailTransport(options: TransportOptions, env: NodeJS.ProcessEnv = process.env): MailTransport {
  return loadConfig(env).SMTP_SEND_THREAD === 'false' ? localTransport(options) : thread.transport(options);
}

/** The same transport on the calling thread. */
function localTransport(options: TransportOptions): MailTransport {
  const transport = openTransport(options);
  return { sendMail: (mail, deadlineMs) => sendWithin(transport, mail, deadlineMs), close: () => transport.close() };
}

/** Ends the process's mail thread (tests after their last send; the next send starts a new one). */
export function stopMailThread(): Promise<void> {
  return thread.stop();
}
