import { createTransport, type SendMailOptions, type Transporter } from 'nodemailer';

/**
 * A nodemailer transport as every SMTP sender of the platform opens it, on the main thread or in the mail thread
 * (src/providers/smtp/mail-thread.ts): a pooled connection that breaks while idle (the server closed it, a reset) is
 * reported as an event, not to a send, and the pool opens a new one for the next message; without a listener the
 * event would end the process (or the thread).
 */
export function openTransport(options: Record<string, unknown>): Transporter {
  const transport = createTransport(options);
  transport.on('error', () => undefined);
  return transport;
}

/** One send under its deadline: an AbortSignal on which nodemailer drops the message or closes its connection (`EABORT`). */
export async function sendWithin(transport: Transporter, mail: SendMailOptions, deadlineMs: number): Promise<{ messageId: string | null }> {
  const info = await transport.sendMail({ ...mail, signal: AbortSignal.timeout(deadlineMs) } as SendMailOptions);
  return { messageId: info.messageId ? String(info.messageId) : null };
}
