import type { MiddlewareFn } from 'type-graphql';
import type { Context } from '../../context';
import { assertWritable } from '../../services/agency.service';

/**
 * A paused subscription (agency `pause`) freezes the account: every mutation by a user of that account answers
 * 402 `subscription_paused` (REST writes run as mutations, so they do too), while queries keep working.
 * Runs after the auth checker (type-graphql puts authorisation first), so 401/403 still come first.
 * Revoking a token stays possible: shutting a door is never held back.
 */
const ALWAYS_ALLOWED = new Set(['revokeApiToken']);

export const pausedAccountGuard: MiddlewareFn<Context> = async ({ context, info }, next) => {
  if (info.parentType.name === 'Mutation' && context.principal && !ALWAYS_ALLOWED.has(info.fieldName)) {
    await assertWritable(context.principal);
  }
  return next();
};
