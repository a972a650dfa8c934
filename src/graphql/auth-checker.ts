import type { AuthChecker } from 'type-graphql';
import type { Context } from '../context';
import { Forbidden, Unauthenticated } from '../domain/errors';
import { hasPermissions } from '../domain/permissions';
import { assertMutationAllowed } from './agency/paused.middleware';

/**
 * `@Authorized(AGENCY)`: the agency area. Only an agency token held by a tenant owner passes (any other kind of
 * token, or an agency token whose user is not a tenant owner, is FORBIDDEN `agency_token_required`).
 */
export const AGENCY = 'role:agency';

/**
 * `@Authorized('reviews:read', ...)` lists token permissions that must all be present;
 * `@Authorized()` only needs a valid token. Scope (tenant, account, locations) is checked in services.
 */
export const authChecker: AuthChecker<Context, string> = async ({ context, info }, roles) => {
  if (!context.principal) throw new Unauthenticated();
  let required = roles;
  if (roles.includes(AGENCY)) {
    if (context.principal.tokenKind !== 'agency' || context.principal.role !== 'tenant_owner') {
      throw new Forbidden('This action needs an agency token of the tenant owner.', 'agency_token_required');
    }
    required = roles.filter((r) => r !== AGENCY);
  }
  if (!hasPermissions(context.principal, required)) {
    const missing = required.filter((p) => !context.principal!.permissions.has(p));
    throw new Forbidden(`This action is unauthorized: the token lacks ${missing.join(', ')}.`, 'missing_permission');
  }
  // Then the account's state: a paused subscription may read, not write (402 subscription_paused).
  await assertMutationAllowed(context.principal, info);
  return true;
};
