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
 * Revoking a token stays possible: shutting a door is never held back.
 */
const ALWAYS_ALLOWED = new Set(['revokeApiToken']);

export async function assertMutationAllowed(principal: Principal, info: GraphQLResolveInfo): Promise<void> {
  if (info.parentType.name === 'Mutation' && !ALWAYS_ALLOWED.has(info.fieldName)) await assertWritable(principal);
}
