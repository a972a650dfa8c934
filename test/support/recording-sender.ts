import type { ChannelSender, OutgoingMessage } from '../../src/messaging/types';

export interface RecordingSenderOptions {
  /** What the delivery log calls it (`recorder` unless told). */
  label?: string;
  /**
   * Called with each message and the call's number (1, 2, ...) before it is recorded; awaited. It may wait (a slow or
   * stalled provider) or throw MessagingRejected / MessagingUnavailable (the provider's answer): a message it throws
   * for is not recorded.
   */
  answer?: (message: OutgoingMessage, call: number) => unknown;
}

/**
 * A ChannelSender that sends nothing and records what it accepts, in order, in `sent`; the n-th call's receipt is
 * `id-n`. `senderFor` is the delivery's option of that name (sendInviteStep, sendDueSteps): this sender for every
 * channel.
 */
export function recordingSender(options: RecordingSenderOptions = {}): { sent: OutgoingMessage[]; senderFor: () => Promise<ChannelSender> } {
  const sent: OutgoingMessage[] = [];
  let calls = 0;
  const sender: ChannelSender = {
    label: options.label ?? 'recorder',
    async send(message) {
      const call = ++calls;
      await options.answer?.(message, call);
      sent.push(message);
      return { providerMessageId: `id-${call}` };
    },
  };
  return { sent, senderFor: async () => sender };
}
