import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { parseFormBody } from '../../services/inbound-mapping';
import * as inbound from '../../services/inbound.service';
import { LINK } from '../auth-checker';
import { InboundBodyKind, InboundEndpointType, InboundReceiptStatus, InboundReceiptType } from './inbound-webhook.type';

const refused = (connection: string, status: InboundReceiptStatus, reason: string | null = null): InboundReceiptType => ({
  status,
  connection,
  submissionId: null,
  contactId: null,
  sendAt: null,
  rescheduled: null,
  reason,
  duplicateOf: null,
});

/**
 * The inbound contact webhook (facades/inbound): the endpoint token of the URL is the credential. The raw body
 * travels as base64, so the signature is checked on the bytes the sender signed; then it is parsed and stored.
 */
@Authorized(LINK)
@Resolver()
export class InboundWebhookResolver {
  @Query(() => InboundEndpointType, { nullable: true, description: 'The connection of an endpoint token; null for an unknown, malformed or regenerated token.' })
  async inboundEndpoint(@Arg('token') token: string): Promise<InboundEndpointType | null> {
    const connection = await inbound.connectionByToken(token);
    return connection && { connection: connection.uuid, signed: connection.signingSecretEncrypted !== null };
  }

  @Mutation(() => InboundReceiptType, {
    nullable: true,
    description:
      'One submission to an endpoint: checks the signature (when the connection has a secret), parses the body and stores it. Null for an unknown token.',
  })
  async receiveInboundSubmission(
    @Arg('token') token: string,
    @Arg('kind', () => InboundBodyKind) kind: InboundBodyKind,
    @Arg('body', { description: 'The raw body, base64-encoded.' }) body: string,
    @Arg('signature', () => String, { nullable: true, description: 'X-Webhook-Signature.' }) signature: string | null,
    @Arg('timestamp', () => String, { nullable: true, description: 'X-Webhook-Timestamp.' }) timestamp: string | null,
    @Ctx() ctx: Context,
  ): Promise<InboundReceiptType | null> {
    const connection = await inbound.connectionByToken(token);
    if (!connection) return null;
    const raw = Buffer.from(body, 'base64');
    const problem = inbound.checkSignature(connection, raw, { signature, timestamp }, ctx.clock.now());
    if (problem) return refused(connection.uuid, InboundReceiptStatus.SIGNATURE_REFUSED, problem);

    let payload: unknown;
    const text = raw.toString('utf8');
    if (kind === InboundBodyKind.JSON) {
      try {
        payload = JSON.parse(text);
      } catch {
        return refused(connection.uuid, InboundReceiptStatus.MALFORMED_JSON);
      }
      if (payload === null || typeof payload !== 'object') return refused(connection.uuid, InboundReceiptStatus.NOT_AN_OBJECT);
    } else {
      payload = parseFormBody(text);
    }

    // The timestamp the signature covered (digits only, checked above): a replay of it is a duplicate.
    const stamp = timestamp?.trim();
    const signedTimestamp = connection.signingSecretEncrypted !== null && stamp ? Number(stamp) : null;
    const result = await inbound.receiveSubmission(connection, raw, payload, { clock: ctx.clock, signedTimestamp });
    const receipt = { ...refused(connection.uuid, result.status as InboundReceiptStatus), submissionId: result.submissionId };
    switch (result.status) {
      case 'accepted':
        return { ...receipt, contactId: result.contactId, sendAt: result.sendAt, rescheduled: result.rescheduled };
      case 'ignored':
        return { ...receipt, contactId: result.contactId, reason: result.reason };
      case 'skipped':
        return { ...receipt, reason: result.reason };
      case 'duplicate':
        return { ...receipt, duplicateOf: result.duplicateOf, reason: result.replay ? 'replay' : null };
    }
  }
}
