import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import type { Configuration, interactionPolicy, KoaContextWithOIDC, Provider } from 'oidc-provider';
import { decryptSecret, encryptSecret, macsOf } from '../crypto/secrets';
import { AI_ABILITIES } from '../domain/permissions';
import { User } from '../models';
import { guardedFetch } from '../net/guarded-fetch';
import { OAuthAdapter } from './adapter';

/**
 * The OAuth 2.1 authorization server for MCP clients (issue 16; docs/decisions/mcp.md "MCP sign-in with OAuth 2.1"), built on
 * oidc-provider (OpenID-certified) rather than by hand. One issuer per public origin, `{origin}/oauth`, so a tenant's
 * white-label domain is its own issuer with its own branded sign-in (a client that found the server at
 * `https://reviews.agency.example/api/mcp` signs in there), and the one protected resource of that origin is
 * `{origin}/api/mcp`. What it enforces: authorization code with PKCE S256 only (public clients, no implicit, no
 * password grant), resource indicators (RFC 8707) with the MCP endpoint as the only audience, dynamic client
 * registration (RFC 7591) and Client ID Metadata Documents, refresh-token rotation, revocation. Access tokens are
 * opaque, stored in `oauth_models`; the MCP endpoint reads them (src/services/mcp-oauth.service.ts).
 */

/** The scopes a user can grant an MCP client: the AI token abilities. */
export const MCP_SCOPES = [...AI_ABILITIES];

export const resourceOf = (origin: string): string => `${origin}/api/mcp`;
export const issuerOf = (origin: string): string => `${origin}/oauth`;

const SIGNING_KEY_ID = 'signing-key';

/** The ES256 key that signs ID tokens and JWT responses: made once, kept encrypted in `oauth_models`, shared by every process. */
async function signingKey(): Promise<JsonWebKey> {
  const store = new OAuthAdapter('SigningKey');
  const found = await store.find(SIGNING_KEY_ID);
  if (found && typeof found.sealed === 'string') return JSON.parse(decryptSecret(found.sealed)) as JsonWebKey;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: `es256-${Date.now().toString(36)}`, alg: 'ES256', use: 'sig' };
  // Two processes starting together: the first write wins, both then read it.
  await store.upsertIfAbsent(SIGNING_KEY_ID, { sealed: encryptSecret(JSON.stringify(jwk)) });
  const stored = await store.find(SIGNING_KEY_ID);
  return JSON.parse(decryptSecret(stored!.sealed as string)) as JsonWebKey;
}

/** The most a registered client's metadata may hold, as JSON (oidc-provider alone accepts 56 KB request bodies). */
export const MAX_CLIENT_METADATA = 8 * 1024;

/**
 * Cookie keys derived from every key of the APP_KEYS ring, newest first: Keygrip signs with the first and verifies
 * with any, so sessions and sign-ins in progress outlive a rotation (until the old key leaves the ring).
 */
const cookieKeys = (): string[] => macsOf('oauth-cookies', 'reviewgrid');

/** The most the server reads of a document a client points it at (oidc-provider's own limit for client metadata documents). */
export const MAX_FETCHED_DOCUMENT = 5 * 1024;

export interface ProviderOptions {
  /**
   * Behind a proxy: the provider's client address (`ctx.ip`, which no enabled feature reads) comes from
   * X-Forwarded-For. Its scheme and host are never the headers' but the origin's it is built for (`providerFor`).
   */
  trustProxy: boolean;
  /** Whether the account may sign in on this origin (its tenant's domain, or the platform's own). */
  accountAllowed(userId: number): Promise<boolean>;
  /** The access token lifetime in seconds (default one hour). */
  accessTokenTtl?: number;
  /**
   * How the server fetches what clients point it at (Client ID Metadata Documents): by default the guarded client with
   * the public-only address policy (src/net/guarded-fetch.ts), the one webhook deliveries use.
   */
  fetch?: (url: string, init: { method?: string; headers?: Headers; body?: unknown; signal?: AbortSignal }) => Promise<Response>;
  /**
   * The page a person's browser gets for an authorization-endpoint error that does not go back to the client (an unknown
   * client, a redirect URI it did not register, a finished sign-in resumed again, and every refusal that is not the
   * user's own denial: `keepRefusalsHere`): HTML in the host's brand, with its Content-Security-Policy. Without it, or
   * for a caller that does not ask for HTML, the error is JSON.
   */
  errorPage?: (error: { error: string; description: string | null }) => Promise<{ html: string; csp: string }>;
}

/** The provider's endpoints a person's browser opens (the others answer clients, in JSON whatever they accept). */
const BROWSER_ROUTES = new Set(['authorization', 'resume', 'end_session', 'end_session_confirm', 'code_verification']);

/** The default fetch of the provider: our SSRF-guarded client (oidc-provider's own dispatcher is not used). */
const guarded: NonNullable<ProviderOptions['fetch']> = async (url, init) =>
  (await guardedFetch(url, { method: init.method, headers: init.headers ? Object.fromEntries(init.headers) : undefined, body: init.body as string | undefined, signal: init.signal })) as unknown as Response;

/** oidc-provider, loaded when the first OAuth request comes (it is an ES module, and most processes never need it). */
const oidc = () => import('oidc-provider');

async function configuration(origin: string, opts: ProviderOptions): Promise<Configuration> {
  const resource = resourceOf(origin);
  const { errors, interactionPolicy } = await oidc();
  return {
    adapter: OAuthAdapter,
    clients: [],
    jwks: { keys: [(await signingKey()) as never] },
    cookies: { keys: cookieKeys(), long: { signed: true, httpOnly: true, sameSite: 'lax' }, short: { signed: true, httpOnly: true, sameSite: 'lax' } },
    // Public clients only: no client secret, no client keys (a `jwks_uri` would be fetched, and kept, for every client
    // that names one), and no `sector_identifier_uri` (pairwise subjects only; ours are public, and the library fetches
    // it at registration and again whenever it loads the client). Registration is open, so what a client may store is
    // bounded too (MAX_CLIENT_METADATA). The validator runs on registered clients and metadata documents alike.
    clientAuthMethods: ['none'],
    extraClientMetadata: {
      properties: ['jwks', 'jwks_uri', 'sector_identifier_uri'],
      validator: (_ctx, key, value, metadata) => {
        if (value !== undefined) {
          const why = key === 'sector_identifier_uri' ? 'subjects here are public (subject_type public)' : 'clients here are public (token_endpoint_auth_method none)';
          throw new errors.InvalidClientMetadata(`${key} is not accepted: ${why}`);
        }
        if (key === 'jwks' && JSON.stringify(metadata).length > MAX_CLIENT_METADATA) {
          throw new errors.InvalidClientMetadata(`client metadata must not exceed ${MAX_CLIENT_METADATA} characters`);
        }
      },
    },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    scopes: ['openid', 'offline_access', ...MCP_SCOPES],
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    // PKCE for every client, S256 only (oidc-provider accepts no other method).
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: false },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        // The MCP endpoint of this origin is the one resource; a client that names none gets it, any other is refused.
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: KoaContextWithOIDC, indicator: string) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource here is ${resource}`);
          return { scope: MCP_SCOPES.join(' '), audience: resource, accessTokenTTL: opts.accessTokenTtl ?? 3600, accessTokenFormat: 'opaque' };
        },
      },
    },
    // Refresh tokens for every client that registered the grant (MCP clients rarely ask for offline_access), rotated on use.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: opts.accessTokenTtl ?? 3600,
      AuthorizationCode: 60,
      Grant: 365 * 24 * 3600,
      IdToken: 3600,
      Interaction: 3600,
      RefreshToken: 30 * 24 * 3600,
      Session: 14 * 24 * 3600,
    },
    interactions: { policy: consentEveryTime(interactionPolicy), url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}` },
    // No sector identifier is ever fetched (refused above, a client stored before naming one too: it no longer loads),
    // and every fetch the library makes reads at most MAX_FETCHED_DOCUMENT (its defaults read jwks_uri and
    // sector_identifier_uri answers whole, however large).
    sectorIdentifierUriValidate: () => false,
    fetchResponseBodyLimits: {
      'client_id metadata document': MAX_FETCHED_DOCUMENT,
      jwks_uri: MAX_FETCHED_DOCUMENT,
      sector_identifier_uri: MAX_FETCHED_DOCUMENT,
    },
    fetch: ((url: string | URL, init: { method?: string; headers?: Headers; body?: unknown; signal?: AbortSignal }) => (opts.fetch ?? guarded)(String(url), init)) as never,
    findAccount: async (_ctx, id) => {
      const user = /^\d+$/.test(id) ? await User.findByPk(Number(id)) : null;
      if (!user || !(await opts.accountAllowed(user.id))) return undefined;
      return { accountId: id, claims: async () => ({ sub: id }) };
    },
    // Errors of the authorization endpoint that do not go back to the client: our branded page for a browser, else a
    // JSON body (never the library's own HTML page).
    renderError: async (ctx, out) => {
      // A prompt=none refusal carries 303, meant for the redirect it no longer gets (keepRefusalsHere).
      if (ctx.status < 400) ctx.status = 400;
      const route = (ctx as { oidc?: { route?: string } }).oidc?.route;
      const forPerson = route !== undefined && BROWSER_ROUTES.has(route) && ctx.accepts('json', 'html') === 'html';
      const page = opts.errorPage && forPerson ? await opts.errorPage({ error: out.error, description: out.error_description ?? null }).catch(() => null) : null;
      if (page) {
        ctx.set('Content-Security-Policy', page.csp);
        ctx.set('Cache-Control', 'no-store');
        ctx.type = 'html';
        ctx.body = page.html;
        return;
      }
      ctx.type = 'application/json';
      ctx.body = { message: out.error_description ?? out.error, error: out.error };
    },
  };
}

/**
 * The library's prompts (sign-in, then consent), with consent asked on every authorization request, not only when the
 * request asks for a scope the grant lacks. Every client here is public (no client authentication), and OAuth says not
 * to answer a public client's repeated authorization requests without the user (RFC 6749 10.2; oidc-provider does so
 * for native clients only); an MCP client comes to the authorization endpoint only when the user connects it (tokens
 * are renewed with refresh tokens), and connecting again is how the user changes what it may do and which
 * organisations it sees. Within the browser session that holds the grant the page starts from what the user granted it
 * so far and Allow changes that grant (src/http/oauth.ts); elsewhere Allow makes a new grant, the earlier one standing
 * until revoked.
 */
function consentEveryTime({ base, Check }: typeof interactionPolicy) {
  const policy = base();
  const every = new Check('consent_every_time', 'every authorization request is confirmed by the user', 'consent_required', (ctx) =>
    ctx.oidc.result?.consent ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
  );
  policy.get('consent')!.checks.add(every, 0);
  return policy;
}

/**
 * The authorization endpoint sends the client only the user's own denial (Deny or Cancel: the interaction ends with
 * `access_denied` and resumes at `/oauth/auth/{uid}`), as OAuth requires; every other refusal (no or plain PKCE, a
 * scope, resource or response mode it refuses, a server error) is the branded error page (`errorPage`), not a redirect.
 * Registration is open, so a registered redirect URI proves nothing about who registered it: redirected errors made
 * every host of the installation, white-label domains included, an open redirector for anyone's client
 * (`/oauth/auth?client_id=<theirs>&redirect_uri=https://evil.example/` without PKCE answered 303 there; RFC 9700
 * 4.11.2). oidc-provider emits these events while handling the error, before it decides between redirecting and
 * `renderError`, and redirects only an error whose `allow_redirect` is still true.
 */
function keepRefusalsHere(provider: Provider): void {
  const decide = (ctx: KoaContextWithOIDC, err: unknown) => {
    const route = ctx.oidc?.route;
    if ((route !== 'authorization' && route !== 'resume') || !err || typeof err !== 'object') return;
    const refusal = err as { error?: unknown; allow_redirect?: boolean };
    if (route === 'resume' && refusal.error === 'access_denied') return;
    refusal.allow_redirect = false;
  };
  provider.on('authorization.error', decide);
  provider.on('server_error', decide);
}

/**
 * The provider answers as the origin it is built for, whatever the request's headers say. Koa (which oidc-provider
 * is) takes the host from X-Forwarded-Host when it trusts a proxy, and builds every absolute URL it answers with from
 * it (discovery, the resume and registration_client_uri URLs), while our routes decide the issuer, tenant and brand by
 * the Host header (src/http/oauth.ts): `X-Forwarded-Host: evil.example` made a platform issuer advertise endpoints on
 * another host. The scheme is the origin's too: our Express app read it, from X-Forwarded-Proto only when TRUST_PROXY
 * trusts the hop it came from (Koa would trust any). A provider is only ever called for its own origin.
 */
function seesOnly(provider: Provider, origin: string): void {
  const { host, protocol } = new URL(origin);
  Object.defineProperties(provider.request, {
    host: { get: () => host },
    protocol: { get: () => protocol.slice(0, -1) },
  });
}

/**
 * Providers by origin, the most recently used last. Every name of the platform's host (any loopback address, any port)
 * and every tenant domain has its own issuer, and the Host header is the client's to choose: past MAX_PROVIDERS the
 * least recently used one is dropped. Dropping loses nothing: its keys, clients, grants and interactions are stored
 * (OAuthAdapter), and the next request to that origin builds it again.
 */
const MAX_PROVIDERS = 50;
const providers = new Map<string, Promise<Provider>>();

/** The provider of one public origin (`https://reviews.agency.example`, lower case), built once per process. */
export function providerFor(origin: string, opts: ProviderOptions): Promise<Provider> {
  let p = providers.get(origin);
  if (p) {
    providers.delete(origin);
    providers.set(origin, p);
    return p;
  }
  p = Promise.all([configuration(origin, opts), oidc()]).then(([config, { Provider }]) => {
    const provider = new Provider(issuerOf(origin), config);
    provider.proxy = opts.trustProxy;
    seesOnly(provider, origin);
    keepRefusalsHere(provider);
    return provider;
  });
  p.catch(() => providers.get(origin) === p && providers.delete(origin));
  providers.set(origin, p);
  if (providers.size > MAX_PROVIDERS) providers.delete(providers.keys().next().value!);
  return p;
}

/** How many providers this process holds (tests). */
export const providerCount = (): number => providers.size;
