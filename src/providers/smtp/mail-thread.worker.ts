import { parentPort } from 'node:worker_threads';
import type { SendMailOptions, Transporter } from 'nodemailer';
import { openTransport, sendWithin } from './nodemailer-send';

/*
 * The mail thread (src/providers/smtp/mail-thread.ts): nodemailer's pooled transports, opened at their first message,
 * each message sent under its deadline and answered by its sequence number. The main thread imports only its types.
 */

/** nodemailer transport options that can cross to the thread: plain data (host, port, auth, tls, url, pool, timeouts). */
export type TransportOptions = Record<string, unknown>;

/** What the main thread posts. `options` rides along with the first send of a transport the thread has not opened. */
export type ToThread =
  | { type: 'send'; seq: number; transport: number; options?: TransportOptions; mail: SendMailOptions; deadlineMs: number }
  | { type: 'close'; transport: number };

/** What the thread answers: that it loaded (`ready`, once), and each send's outcome. */
export type FromThread =
  | { type: 'ready' }
  | { type: 'sent'; seq: number; messageId: string | null }
  | { type: 'failed'; seq: number; error: ErrorFields };

export interface ErrorFields {
  message: string;
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
}

/** The fields of a nodemailer error that its callers read (`classifySmtpError`). */
function errorFields(err: unknown): ErrorFields {
  const e = (err ?? {}) as Partial<ErrorFields>;
  const fields: ErrorFields = { message: typeof e.message === 'string' ? e.message : String(err) };
  if (typeof e.code === 'string') fields.code = e.code;
  if (typeof e.responseCode === 'number') fields.responseCode = e.responseCode;
  if (typeof e.response === 'string') fields.response = e.response;
  if (typeof e.command === 'string') fields.command = e.command;
  return fields;
}

const port = parentPort;
if (!port) throw new Error('mail-thread.worker runs as a worker thread');

const transports = new Map<number, Transporter>();
const answer = (m: FromThread) => port.postMessage(m);

/** Binary attachment content crosses threads as a Uint8Array; nodemailer takes it as a Buffer. */
function withBuffers(mail: SendMailOptions): SendMailOptions {
  if (!mail.attachments?.length) return mail;
  return {
    ...mail,
    attachments: mail.attachments.map((a) => {
      const content: unknown = a.content;
      return content instanceof Uint8Array && !Buffer.isBuffer(content) ? { ...a, content: Buffer.from(content.buffer, content.byteOffset, content.byteLength) } : a;
    }),
  };
}

port.on('message', (m: ToThread) => {
  if (m.type === 'close') {
    transports.get(m.transport)?.close();
    transports.delete(m.transport);
    return;
  }
  let transport = transports.get(m.transport);
  if (!transport) {
    if (!m.options) {
      answer({ type: 'failed', seq: m.seq, error: { message: 'The mail thread has no such transport.', code: 'ECONNECTION' } });
      return;
    }
    try {
      transport = openTransport(m.options);
    } catch (err) {
      // Settings nodemailer refuses: this send fails as theirs (the thread goes on for every other transport).
      answer({ type: 'failed', seq: m.seq, error: errorFields(err) });
      return;
    }
    transports.set(m.transport, transport);
  }
  sendWithin(transport, withBuffers(m.mail), m.deadlineMs).then(
    (info) => answer({ type: 'sent', seq: m.seq, messageId: info.messageId }),
    (err: unknown) => answer({ type: 'failed', seq: m.seq, error: errorFields(err) }),
  );
});

answer({ type: 'ready' });
