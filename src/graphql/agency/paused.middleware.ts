import type { GraphQLResolveInfo } from 'graphql';
import type { Principal } from '../../domain/principal';
import { assertWritable } from '../../services/agency.service';

/**
 * A paused subscription (agency `pause`) freezes the account: every mutation by a user of that account answers
 * 402 `subscription_paused` (REST writes run as mutations, so they do too), while queries keep working.
 * Called by the auth checker once the token's permissions passed, so 401/403 still come first. It is not a
 * type-graphql global middleware: those wrap every field of every result (a 1,125-pin scan detail went from 66
 * to 190 ms), while only the root mutation fields need the check, and each of them is `@Authorized`
 * (test/graphql/schema.test.ts checks that no mutation escapes it).
 * Shutting a door is never held back: revoking a token or an AI client's authorization, deleting a webhook endpoint,
 * rotating its signing secret (a leaked one stops working) and turning an endpoint off (`enabled: false` and nothing
 * else) stay possible while the account is paused.
 */
const ALWAYS_ALLOWED = new Set(['revokeApiToken', 'revokeAiAuthorization', 'deleteWebhookEndpoint', 'rotateWebhookSecret']);

/** `updateWebhookEndpoint` that only turns the endpoint off. */
function onlyDisables(fieldName: string, args: Record<string, unknown>): boolean {
  if (fieldName !== 'updateWebhookEndpoint') return false;
  const input = (args.input ?? {}) as Record<string, unknown>;
  const set = Object.entries(input).filter(([, v]) => v !== undefined);
  return set.length === 1 && set[0][0] === 'enabled' && set[0][1] === false;
}

export async function assertMutationAllowed(principal: Principal, info: GraphQLResolveInfo, args: Record<string, unknown> = {}): Promise<void> {
  if (info.parentType.name !== 'Mutation' || ALWAYS_ALLOWED.has(info.fieldName) || onlyDisables(info.fieldName, args)) return;
  await assertWritable(principal);
}
