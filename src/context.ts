import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from './domain/clock';
import { Forbidden } from './domain/errors';
import type { Principal, TokenKind } from './domain/principal';
import { authenticate } from './services/auth.service';
import { principalOfAccessToken } from './services/mcp-oauth.service';
import { resourceOf } from './oauth/provider';
import { RequestLoaders } from './graphql/loaders';
import type { ReviewPlatformClient, SignInProvider } from './providers/types';
import type { IntegrationLabel } from '../workflows/client';

/**
 * What an edge may put in place of a platform API or a workflow start for its operations (the connect page's test
 * seams); absent, the resolvers use the real ones.
 */
export interface Seams {
  /** The platform API client (default: `platformClient` of src/providers). */
  platformClient?: (provider: SignInProvider) => ReviewPlatformClient;
  /** Starts the periodic review sync of a new integration (default: `ensureReviewSync` of workflows/client). */
  ensureReviewSync?: (integrationId: number, label?: IntegrationLabel) => Promise<unknown>;
}

/** What every resolver gets: the caller, fresh per-request DataLoaders, the request id and the clock. */
export interface Context {
  principal: Principal | null;
  loaders: RequestLoaders;
  requestId: string;
  clock: Clock;
  /** Origin for absolute URLs in responses (the white-label domain the request came in on). */
  baseUrl: string;
  /**
   * Built by a public page or the inbound webhook (facades/pages, facades/inbound) for its own operations, which
   * `@Authorized(LINK)` admits only here; never true for `/graphql`, REST or MCP.
   */
  publicEdge: boolean;
  seams: Seams;
}

export function makeContext(input: {
  principal: Principal | null;
  baseUrl: string;
  requestId?: string;
  clock?: Clock;
  publicEdge?: boolean;
  seams?: Seams;
}): Context {
  return {
    principal: input.principal,
    loaders: new RequestLoaders(input.principal),
    requestId: input.requestId ?? randomUUID(),
    clock: input.clock ?? systemClock,
    baseUrl: input.baseUrl.replace(/\/+$/, ''),
    publicEdge: input.publicEdge ?? false,
    seams: input.seams ?? {},
  };
}

/**
 * Resolves a bearer secret to the caller and builds the context: Unauthenticated for a missing, unknown,
 * revoked or expired token; Forbidden when the endpoint does not take this kind of token (customer API:
 * customer tokens; agency API: agency tokens; MCP: AI tokens).
 */
export async function authenticatedContext(input: {
  bearer: string | null;
  /** The bearer's SHA-256 when the caller has it already (facades/shared/auth.ts: `bearerHashOf`). */
  bearerHash?: string;
  baseUrl: string;
  kinds?: readonly TokenKind[];
  requestId?: string;
  clock?: Clock;
}): Promise<Context> {
  // The MCP endpoint also takes OAuth access tokens (opaque, not `rg_` secrets) issued for it on this origin: the
  // audience is the resource the OAuth side named, from the same spelling of the origin (`baseUrlOf`).
  const oauth = input.kinds?.includes('ai') && input.bearer && !input.bearer.startsWith('rg_');
  const principal = oauth
    ? await principalOfAccessToken(input.bearer!, resourceOf(input.baseUrl.replace(/\/+$/, '')), { clock: input.clock })
    : await authenticate(input.bearer, { clock: input.clock, digest: input.bearerHash });
  if (input.kinds && !input.kinds.includes(principal.tokenKind)) {
    throw new Forbidden(`This API takes ${input.kinds.join(' or ')} tokens; this is a ${principal.tokenKind} token.`, 'wrong_token_kind');
  }
  const requestId = input.requestId ?? randomUUID();
  return makeContext({ principal: { ...principal, requestId }, baseUrl: input.baseUrl, requestId, clock: input.clock });
}
