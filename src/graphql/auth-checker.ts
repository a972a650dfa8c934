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
 * `@Authorized(LINK)`: an operation of a public page or the inbound webhook (facades/pages, facades/inbound). It has
 * no principal: a capability token among its arguments (an unsubscribe token, an invite UUID, a connect link, an
 * endpoint token) is the credential, and the service it calls checks it, exactly as the page did before. Only the
 * edge's own in-process context may run it (`Context.publicEdge`): on `/graphql` these operations are refused, so
 * a token guessed there would bypass the pages' and the webhook's per-address limits.
 */
export const LINK = 'link:capability';

/**
 * `@Authorized(CUSTOMER_TOKENS, 'organizations:update')`: the permissions listed with it are asked of customer tokens
 * only. For the agency's own tools (scans, connect links, the agency's brand) and account settings, which the REST
 * agency API runs with agency tokens (they carry no permissions; the services let only the right role in) and MCP with
 * AI tokens (gated by the MCP edge's abilities, `mcp:writes` for writes; /graphql refuses AI tokens). A customer token
 * without the permission, a read-only one say, is FORBIDDEN `missing_permission` as on the REST API.
 */
export const CUSTOMER_TOKENS = 'kind:customer';

/**
 * `@Authorized('reviews:read', ...)` lists token permissions that must all be present;
 * `@Authorized()` only needs a valid token. Scope (tenant, account, locations) is checked in services.
 */
export const authChecker: AuthChecker<Context, string> = async ({ context, info, args }, roles) => {
  if (roles.includes(LINK)) {
    if (context.publicEdge) return true;
    throw new Forbidden('This operation belongs to a public page or the inbound webhook; it is not offered on the GraphQL API.', 'edge_only');
  }
  if (!context.principal) throw new Unauthenticated();
  let required = roles;
  if (roles.includes(AGENCY)) {
    if (context.principal.tokenKind !== 'agency' || context.principal.role !== 'tenant_owner') {
      throw new Forbidden('This action needs an agency token of the tenant owner.', 'agency_token_required');
    }
    required = roles.filter((r) => r !== AGENCY);
  }
  if (roles.includes(CUSTOMER_TOKENS)) required = context.principal.tokenKind === 'customer' ? roles.filter((r) => r !== CUSTOMER_TOKENS) : [];
  if (!hasPermissions(context.principal, required)) {
    const missing = required.filter((p) => !context.principal!.permissions.has(p));
    throw new Forbidden(`This action is unauthorized: the token lacks ${missing.join(', ')}.`, 'missing_permission');
  }
  // Then the account's state: a paused subscription may read, not write (402 subscription_paused).
  await assertMutationAllowed(context.principal, info, args);
  return true;
};
