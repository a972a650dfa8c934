/**
 * One interface for every channel a review request goes out on (email, SMS, messaging app). A sender takes a
 * rendered message and answers the provider's message id, or throws one of the two errors below so the
 * delivery can tell "the provider said no" (the step fails, its credit is given back) from "the provider could
 * not take it now" (nothing was accepted: the attempt is retried later).
 */
export interface OutgoingMessage {
  /** An email address, or an E.164 number (the messaging channel adds its own address prefix). */
  to: string;
  /** Email only. */
  subject?: string;
  /** Plain text (the whole SMS, or the text part of an email). */
  body: string;
  /** Email only: the HTML part. */
  html?: string;
  /** Email only: extra headers (`List-Unsubscribe`, `List-Unsubscribe-Post`). */
  headers?: Record<string, string>;
  /** Email only: the Message-ID (`<...@...>`), the same on every attempt of one step. */
  messageId?: string;
}

export interface SendReceipt {
  /** The provider's id of the message (SMTP Message-ID, Twilio `sid`); null when it gave none. */
  providerMessageId: string | null;
  /** The provider's status word when it gave one (`queued`, `accepted`, ...). */
  status?: string | null;
}

export interface ChannelSender {
  /** What the delivery log and the settings page call it (`account SMTP`, `platform mail`, `Twilio`, ...). */
  readonly label: string;
  send(message: OutgoingMessage): Promise<SendReceipt>;
}

/** The provider refused the message for good (bad recipient, bad credentials, blocked sender): do not retry. */
export class MessagingRejected extends Error {
  constructor(
    message: string,
    /** The provider's code (SMTP reply code, Twilio error code), when it gave one. */
    readonly providerCode: string | number | null = null,
  ) {
    super(message);
    this.name = 'MessagingRejected';
  }
}

/**
 * The provider did not take the message (unreachable, timed out before accepting, 4xx SMTP reply, HTTP 429/5xx):
 * nothing was sent, so the attempt may be made again.
 */
export class MessagingUnavailable extends Error {
  constructor(message: string, readonly retryAfterMs: number | null = null) {
    super(message);
    this.name = 'MessagingUnavailable';
  }
}

/** The account has no provider for the channel and no embedded default applies (`sms_not_configured`). */
export class ChannelNotConfigured extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
    this.name = 'ChannelNotConfigured';
  }
}
