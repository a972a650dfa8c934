import { AnswerTooLarge, describeBytes, readBoundedText } from '../../net/bounded-read';
import { guardedFetch } from '../../net/guarded-fetch';
import { MessagingRejected, MessagingUnavailable, type ChannelSender, type SendReceipt } from '../../messaging/types';
import { MAX_PROVIDER_RETRY_AFTER_MS, retryAfterMs } from '../http';

/**
 * SMS and messaging-app messages through a Twilio-style HTTP API (Twilio itself, or any provider speaking its
 * wire format):
 *
 *   POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json
 *   Authorization: Basic base64(AccountSid:AuthToken)
 *   Content-Type: application/x-www-form-urlencoded      To=+14155550100&From=+14155550199&Body=...
 *   -> 201 {"sid": "SM...", "status": "queued", ...}
 *   -> 4xx/5xx {"code": 21211, "message": "The 'To' number ... is not a valid phone number.", "status": 400}
 *
 * The messaging-app channel is the same API with `whatsapp:`-prefixed addresses (Twilio's WhatsApp senders).
 */
export const TWILIO_API_BASE = 'https://api.twilio.com';

export interface TwilioAccount {
  accountSid: string;
  authToken: string;
  /** E.164 sender number (for the messaging channel: the WhatsApp-enabled sender, without the prefix). */
  fromNumber: string;
  /** API origin; default https://api.twilio.com. */
  baseUrl?: string | null;
}

export type TwilioChannel = 'sms' | 'messaging';

export const TWILIO_TIMEOUT_MS = 30_000;

/**
 * The most of an answer that is read: a message resource or an error (`{"code", "message", ...}`) is about 1 KB, so
 * 64 KB is plenty for any Twilio-compatible provider, and bounds what an account's own server can make the API or a
 * worker hold (docs/security.md, "Outbound requests").
 */
export const SMS_ANSWER_MAX_BYTES = 64 * 1024;

/** `whatsapp:+1...` for the messaging channel, the bare number for SMS. */
export const twilioAddress = (channel: TwilioChannel, number: string): string =>
  channel === 'messaging' && !number.startsWith('whatsapp:') ? `whatsapp:${number}` : number;

export const messagesUrl = (base: string, accountSid: string): string =>
  `${base.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;

/** Retry-After (seconds or an HTTP date), at most MAX_PROVIDER_RETRY_AFTER_MS (a day asked for would put the request off by a day). */
function retryAfter(header: string | null): number | null {
  const ms = retryAfterMs(header);
  return ms === null ? null : Math.min(ms, MAX_PROVIDER_RETRY_AFTER_MS);
}

export function twilioSender(
  account: TwilioAccount,
  channel: TwilioChannel,
  /** `guarded`: an account's own base URL, fetched through the guarded client (the simulator and platform are trusted). */
  opts: { label?: string; timeoutMs?: number; guarded?: boolean } = {},
): ChannelSender {
  const url = messagesUrl(account.baseUrl || TWILIO_API_BASE, account.accountSid);
  const auth = `Basic ${Buffer.from(`${account.accountSid}:${account.authToken}`).toString('base64')}`;
  return {
    label: opts.label ?? (channel === 'sms' ? 'SMS provider' : 'messaging-app provider'),
    async send(message): Promise<SendReceipt> {
      const form = new URLSearchParams({
        To: twilioAddress(channel, message.to),
        From: twilioAddress(channel, account.fromNumber),
        Body: message.body,
      });
      let response: Response;
      try {
        response = await (opts.guarded ? guardedFetch : fetch)(url, {
          method: 'POST',
          headers: { Authorization: auth, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
          body: form.toString(),
          redirect: 'error',
          signal: AbortSignal.timeout(opts.timeoutMs ?? TWILIO_TIMEOUT_MS),
        });
      } catch (e) {
        const why = e instanceof Error && e.name === 'TimeoutError' ? 'no answer in time' : e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
        throw new MessagingUnavailable(`The SMS provider could not be reached: ${why}`);
      }
      // At most SMS_ANSWER_MAX_BYTES of the answer is read (the base URL may be an account's own server, which could
      // stream forever): a larger one, or one that breaks off, counts as an answer without a readable body, and its
      // status still decides between refused and unavailable.
      let text = '';
      let unread: string | null = null;
      try {
        text = await readBoundedText(response, SMS_ANSWER_MAX_BYTES);
      } catch (e) {
        unread = e instanceof AnswerTooLarge ? `an answer over ${describeBytes(SMS_ANSWER_MAX_BYTES)}, not read` : null;
      }
      let body: Record<string, unknown> | null = null;
      try {
        const parsed: unknown = text ? JSON.parse(text) : null;
        body = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
      } catch {
        body = null;
      }
      if (response.ok) {
        const sid = typeof body?.sid === 'string' ? body.sid : null;
        if (!sid) throw new MessagingRejected(`The SMS provider answered ${response.status} without a message sid${unread ? ` (${unread})` : ''}.`);
        return { providerMessageId: sid, status: typeof body?.status === 'string' ? body.status : null };
      }
      const code = typeof body?.code === 'number' || typeof body?.code === 'string' ? body.code : null;
      const said = typeof body?.message === 'string' ? body.message.slice(0, 300) : `HTTP ${response.status}${unread ? ` (${unread})` : ''}`;
      if (response.status === 429 || response.status >= 500) {
        throw new MessagingUnavailable(`The SMS provider is unavailable (${response.status}): ${said}`, retryAfter(response.headers.get('retry-after')));
      }
      throw new MessagingRejected(`The SMS provider refused the message (${response.status}${code !== null ? `, code ${code}` : ''}): ${said}`, code);
    },
  };
}
