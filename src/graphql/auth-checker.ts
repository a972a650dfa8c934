import type { AuthChecker } from 'type-graphql';
import type { Context } from '../context';
import { Forbidden, Unauthenticated } from '../domain/errors';
import { hasPermissions } from '../domain/permissions';

/**
 * `@Authorized('reviews:read', ...)` lists token permissions that must all be present;
 * `@Authorized()` only needs a valid token. Scope (tenant, account, locations) is checked in services.
 */
export const authChecker: AuthChecker<Context, string> = ({ context }, required) => {
  if (!context.principal) throw new Unauthenticated();
  if (!hasPermissions(context.principal, required)) {
    const missing = required.filter((p) => !context.principal!.permissions.has(p));
    throw new Forbidden(`This action is unauthorized: the token lacks ${missing.join(', ')}.`, 'missing_permission');
  }
  return true;
};
