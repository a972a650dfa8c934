import { randomBytes } from 'node:crypto';
import express, { type ErrorRequestHandler, type NextFunction, type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import type { Grant } from 'oidc-provider';
import type { VNode } from 'preact';
import { signInEmail } from '../domain/email';
import { issuerOf, MCP_SCOPES, providerFor, resourceOf, type ProviderOptions } from '../oauth/provider';
import { brandOfHost, shownBrandOfHost } from '../services/host-brand.service';
import {
  accountAllowedOnHost,
  grantableOrganizationIds,
  grantableOrganizations,
  MAX_TICKED_ORGANIZATIONS,
  principalOfUser,
  recordAuthorization,
  signedInAccount,
  signIn,
  standingAuthorization,
  tenantOfHost,
} from '../services/mcp-oauth.service';
import { Validation } from '../domain/errors';
import { pageCsp } from './security-headers';
import { renderPage } from '../../facades/pages/layout';
import { consentPage, loginPage, messagePage, type ClientIdentity, type OAuthBrand } from './oauth.views';
import type Redis from 'ioredis';
import { signInFailures } from '../../facades/shared/rate-limit';
import { baseUrlOf } from '../../facades/shared/pagination';

/**
 * OAuth 2.1 for MCP clients over HTTP (issue 16): the metadata documents (RFC 9728 protected resource, RFC 8414
 * authorization server), the authorization server itself (oidc-provider at `/oauth`: authorize, token, registration,
 * revocation, jwks), and its two pages, sign-in and consent, branded as the tenant of the host they are opened on.
 * A host that is neither the platform's (PUBLIC_URL's, loopback) nor a tenant's domain gets 404: no issuer is made
 * up for an arbitrary Host header.
 */
export interface OAuthDeps {
  logger: Logger;
  publicUrl: string;
  trustProxy: boolean;
  /** Access token lifetime in seconds (tests shorten it). */
  accessTokenTtl?: number;
  /** How client metadata documents are fetched (default: the guarded, public-only client; tests trust a local CA). */
  fetch?: ProviderOptions['fetch'];
  /** Shares the failed sign-ins per email between API processes (REDIS_URL); in memory otherwise. */
  redis?: Redis | null;
}

/** Failed sign-ins per email (on every host it signs in at) within SIGN_IN_WINDOW_MS before that email is refused (the rest of the window). */
const SIGN_IN_FAILURES = 10;
const SIGN_IN_WINDOW_MS = 15 * 60_000;

/** The origin the client used, lower case (host names are case-insensitive; one issuer per origin). */
const originOf = (req: Request): string => baseUrlOf(req);

/**
 * The host name of that origin: the one the request's issuer, tenant, brand and sign-in are decided by (not
 * `req.hostname`, which behind a trusted proxy reads X-Forwarded-Host: a provider built for one host must never
 * admit another's users). Empty (no tenant, 404) when the Host header is not a host.
 */
const hostnameOf = (req: Request): string => {
  try {
    return new URL(originOf(req)).hostname;
  } catch {
    return '';
  }
};

const PLATFORM: OAuthBrand = { name: 'Reviewgrid', logoUrl: null };

async function brandOf(req: Request): Promise<OAuthBrand> {
  return (await brandOfHost(hostnameOf(req)).catch(() => null)) ?? PLATFORM;
}

/** The brand a page of the host wears: its logo only when the platform can serve it (`shownBrandOfHost`). */
async function pageBrandOfHost(hostname: string): Promise<OAuthBrand> {
  return (await shownBrandOfHost(hostname).catch(() => null)) ?? PLATFORM;
}

const pageBrandOf = (req: Request): Promise<OAuthBrand> => pageBrandOfHost(hostnameOf(req));

const SCOPE_TEXT: Record<string, string> = {
  'mcp:access': 'Read your reviews, locations, campaigns and Local Search Grid results',
  'mcp:writes': 'Make changes: reply drafts, tags, invites, scans',
  'reviews:pii': 'See reviewers\u2019 and contacts\u2019 personal data (emails, phone numbers)',
};

/** The `WWW-Authenticate` challenge of the MCP endpoint (RFC 9728 section 5.1). */
export function mcpChallenge(origin: string): string {
  return `Bearer realm="mcp", resource_metadata="${origin}/.well-known/oauth-protected-resource/api/mcp", scope="${MCP_SCOPES.join(' ')}"`;
}

/** Who asks, as the sign-in and consent pages name it (oauth.views.tsx `ClientIdentity`). */
function identityOf(client: { clientName?: string; clientUri?: string } | undefined, params: Record<string, unknown>): ClientIdentity {
  const clientId = String(params.client_id);
  return { clientName: client?.clientName ?? clientId, clientId, clientUri: client?.clientUri ?? null, redirectUri: String(params.redirect_uri ?? '') };
}

/** Adds the challenge to every 401 of the MCP endpoint, whoever writes it. */
export function mcpAuthChallenge() {
  return (req: Request, res: Response, next: NextFunction) => {
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
    res.writeHead = ((...args: unknown[]) => {
      if (res.statusCode === 401 || args[0] === 401) res.setHeader('WWW-Authenticate', mcpChallenge(originOf(req)));
      return writeHead(...args);
    }) as Response['writeHead'];
    next();
  };
}

function sendPage(res: Response, page: VNode, formTargets: string[] = [], status = 200): void {
  const nonce = randomBytes(16).toString('base64');
  res.status(status);
  res.setHeader('Content-Security-Policy', pageCsp(nonce, formTargets));
  res.setHeader('Cache-Control', 'no-store');
  res.type('html').send(renderPage(page, nonce));
}

export function oauthRoutes(deps: OAuthDeps): Router {
  const router = express.Router();
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 });
  // The consent form: up to MAX_TICKED_ORGANIZATIONS ticked organisations (`organization=<id>&`, 24 bytes at most each),
  // the scopes and the choice of all or some.
  const consentForm = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: MAX_TICKED_ORGANIZATIONS + 10 });
  const signInLimit = signInFailures({ limit: SIGN_IN_FAILURES, windowMs: SIGN_IN_WINDOW_MS, redis: deps.redis, prefix: 'rl:sign-in-failures' });

  const provider = async (req: Request) => {
    const hostname = hostnameOf(req);
    const tenant = await tenantOfHost(hostname, deps.publicUrl);
    if (tenant === 'unknown') return null;
    const origin = originOf(req);
    return providerFor(origin, {
      trustProxy: deps.trustProxy,
      accessTokenTtl: deps.accessTokenTtl,
      fetch: deps.fetch,
      accountAllowed: (userId) => accountAllowedOnHost(userId, hostname, deps.publicUrl),
      errorPage: async ({ description }) => {
        const nonce = randomBytes(16).toString('base64');
        const brand = await pageBrandOfHost(hostname);
        const message = `${description ? `${description.replace(/\.?$/, '.')} ` : ''}Start again from your AI app.`;
        return { html: renderPage(messagePage({ brand, title: 'Sign-in could not continue', heading: 'This sign-in could not continue', message }), nonce), csp: pageCsp(nonce, []) };
      },
    });
  };
  const notFound = (res: Response) => res.status(404).json({ message: 'Not found.' });

  // RFC 9728: where the MCP endpoint's tokens come from.
  router.get(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/api/mcp'], async (req, res, next) => {
    try {
      if ((await tenantOfHost(hostnameOf(req), deps.publicUrl)) === 'unknown') return notFound(res);
      const origin = originOf(req);
      const brand = await brandOf(req);
      res.set('Cache-Control', 'public, max-age=300').json({
        resource: resourceOf(origin),
        authorization_servers: [issuerOf(origin)],
        scopes_supported: MCP_SCOPES,
        bearer_methods_supported: ['header'],
        resource_name: `${brand.name} MCP`,
        resource_documentation: `${origin}/docs`,
      });
    } catch (err) {
      next(err);
    }
  });

  // RFC 8414 and OIDC discovery at the paths derived from the issuer `{origin}/oauth` (the provider also serves
  // `/oauth/.well-known/openid-configuration` itself).
  router.get(['/.well-known/oauth-authorization-server/oauth', '/.well-known/openid-configuration/oauth'], async (req, res, next) => {
    try {
      const p = await provider(req);
      if (!p) return notFound(res);
      // The provider reads its mount path from the part of originalUrl before url.
      req.originalUrl = '/oauth/.well-known/openid-configuration';
      req.url = '/.well-known/openid-configuration';
      p.callback()(req, res);
    } catch (err) {
      next(err);
    }
  });

  // The sign-in and consent pages of an interaction (`/oauth/interaction/{uid}`).
  router.get('/oauth/interaction/:uid', async (req, res, next) => {
    try {
      const p = await provider(req);
      if (!p) return notFound(res);
      const details = await p.interactionDetails(req, res);
      const brand = await pageBrandOf(req);
      const client = await p.Client.find(String(details.params.client_id));
      const targets = formTargetsOf(details.params.redirect_uri);
      if (details.prompt.name === 'login') {
        return sendPage(res, loginPage({ brand, uid: details.uid, error: null, ...identityOf(client, details.params) }), targets);
      }
      const userId = Number(details.session?.accountId);
      const principal = await principalOfUser(userId);
      const organizations = await grantableOrganizations(principal);
      // Asked again, the page starts from what the user granted the client so far, so Allow keeps it; a first consent
      // starts from what every grant has. Never from what the client asked for.
      const standing = details.grantId ? await standingAuthorization(userId, details.grantId) : null;
      const granted = new Set(['mcp:access', ...(standing?.scopes ?? [])]);
      const ticked = new Set(standing?.organizationIds ?? []);
      return sendPage(
        res,
        consentPage({
          brand,
          uid: details.uid,
          ...identityOf(client, details.params),
          account: await signedInAccount(userId),
          scopes: MCP_SCOPES.map((s) => ({ name: s, text: SCOPE_TEXT[s] ?? s, checked: granted.has(s), required: s === 'mcp:access' })),
          organizations: organizations.map((o) => ({ ...o, checked: ticked.has(o.id) })),
          organizationsChoice: standing ? (standing.organizationIds === null ? 'all' : 'some') : null,
          maxTicked: MAX_TICKED_ORGANIZATIONS,
        }),
        targets,
      );
    } catch (err) {
      next(err);
    }
  });

  router.post('/oauth/interaction/:uid/login', form, async (req, res, next) => {
    try {
      const p = await provider(req);
      if (!p) return notFound(res);
      const details = await p.interactionDetails(req, res);
      const body = (req.body ?? {}) as Record<string, unknown>;
      // One spelling of the email for the lock and the look-up: the lock counts exactly what can sign in.
      const email = signInEmail(String(body.email ?? ''));
      const again = async (error: string, status: number, retryAfter: number | null) => {
        const brand = await pageBrandOf(req);
        const client = await p.Client.find(String(details.params.client_id));
        if (retryAfter !== null) res.setHeader('Retry-After', String(retryAfter));
        const page = loginPage({ brand, uid: details.uid, error, ...identityOf(client, details.params) });
        return sendPage(res, page, formTargetsOf(details.params.redirect_uri), status);
      };
      const tooMany = (seconds: number) =>
        again(`Too many failed sign-ins for this email. Try again in ${Math.ceil(seconds / 60)} minute${seconds > 60 ? 's' : ''}.`, 429, seconds);
      // Counted before the password is checked, one budget per email on every host (facades/shared/rate-limit.ts).
      const attempt = await signInLimit.attempt(email);
      if (attempt.refusedFor !== null) return tooMany(attempt.refusedFor);
      const user = await signIn(hostnameOf(req), deps.publicUrl, email, String(body.password ?? ''));
      if (!user) {
        const wait = attempt.failed();
        return wait !== null ? tooMany(wait) : again('The email or password is not right.', 401, null);
      }
      await attempt.succeeded();
      await p.interactionFinished(req, res, { login: { accountId: String(user.id) } }, { mergeWithLastSubmission: false });
    } catch (err) {
      next(err);
    }
  });

  router.post('/oauth/interaction/:uid/confirm', consentForm, async (req, res, next) => {
    try {
      const p = await provider(req);
      if (!p) return notFound(res);
      const details = await p.interactionDetails(req, res);
      const accountId = details.session?.accountId;
      if (!accountId || details.prompt.name !== 'consent') throw new InteractionGone();
      const body = (req.body ?? {}) as Record<string, unknown>;
      const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)]);
      const scopes = ['mcp:access', ...list(body.scope).filter((s) => (MCP_SCOPES as readonly string[]).includes(s))];
      const principal = await principalOfUser(Number(accountId));
      // The ticked ones the user sees, however many the agency has (ids of others are left out).
      const organizationIds = body.organizations === 'all' ? null : await grantableOrganizationIds(principal, list(body.organization).map(Number));
      const resource = resourceOf(originOf(req));
      const grant = details.grantId
        ? ((await p.Grant.find(details.grantId)) ?? new p.Grant({ accountId, clientId: String(details.params.client_id) }))
        : new p.Grant({ accountId, clientId: String(details.params.client_id) });
      const granted = [...new Set(scopes)];
      grantExactly(grant, resource, granted);
      // The other scopes the request asked for (openid, offline_access) are granted as oidc-provider asks for them.
      const missing = details.prompt.details.missingOIDCScope;
      const others = Array.isArray(missing) ? missing.map(String).filter((s) => !isMcpScope(s)) : [];
      if (others.length) grant.addOIDCScope(others.join(' '));
      // The request goes on with the MCP scopes the user unticked taken out: the code then carries what was granted, and
      // nothing is recorded as refused. A refusal counts as decided for good (oidc-provider's consent check asks only
      // about scopes neither granted nor refused), so a later request for the scope would get a code at once, without it.
      const requested = String(details.params.scope ?? '').split(' ').filter(Boolean);
      const asked = requested.filter((s) => !isMcpScope(s) || granted.includes(s));
      if (asked.length !== requested.length) {
        details.params.scope = asked.join(' ');
        await details.persist();
      }
      const grantId = await grant.save();
      const client = await p.Client.find(String(details.params.client_id));
      await recordAuthorization({
        userId: Number(accountId),
        grantId,
        clientId: String(details.params.client_id),
        clientName: client?.clientName ?? String(details.params.client_id),
        scopes,
        organizationIds,
      });
      await p.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } catch (err) {
      next(err);
    }
  });

  // "Not you? Use another account": signs the browser out (the session lasts 14 days) and starts the same authorization
  // request again, which now asks who signs in. The form posts with the interaction's cookie (SameSite=Lax), so another
  // site cannot sign a user out.
  router.post('/oauth/interaction/:uid/switch', form, async (req, res, next) => {
    try {
      const p = await provider(req);
      if (!p) return notFound(res);
      const details = await p.interactionDetails(req, res);
      const session = details.session ? await p.Session.findByUid(details.session.uid) : undefined;
      await session?.destroy();
      await details.destroy();
      const again = new URLSearchParams();
      for (const [name, value] of Object.entries(details.params)) {
        for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') again.append(name, v);
      }
      res.redirect(303, `/oauth/auth?${again}`);
    } catch (err) {
      next(err);
    }
  });

  router.post('/oauth/interaction/:uid/abort', form, async (req, res, next) => {
    try {
      const p = await provider(req);
      if (!p) return notFound(res);
      await p.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user did not allow access.' }, { mergeWithLastSubmission: false });
    } catch (err) {
      next(err);
    }
  });

  // The interaction's pages are read by a person: an interaction that is gone (expired, finished, no cookie: Back after
  // signing in) or a request that cannot be read answers a page in the host's brand, not the JSON of the APIs.
  router.use('/oauth/interaction', (async (err: unknown, req, res, next) => {
    try {
      if (res.headersSent) return next(err);
      const brand = await pageBrandOf(req);
      if (err instanceof InteractionGone || (err instanceof Error && err.name === 'SessionNotFound')) {
        return sendPage(res, messagePage({ brand, title: 'Sign-in expired', heading: 'This sign-in has expired or is no longer valid', message: 'Start again from your AI app.' }), [], 400);
      }
      // More organisations ticked than a consent grants one by one (or than the form's parser reads): the interaction
      // is still open, Back shows the consent page again.
      const tooMany = err instanceof Validation && err.reason === 'too_many_organizations';
      if (tooMany || (/\/confirm$/.test(req.path) && (err as { type?: unknown }).type === 'parameters.too.many')) {
        const message = `At most ${MAX_TICKED_ORGANIZATIONS.toLocaleString('en')} organisations can be ticked. Go back and tick fewer, or choose \u201cAll of them\u201d.`;
        return sendPage(res, messagePage({ brand, title: 'Too many organisations', heading: 'Too many organisations ticked', message }), [], tooMany ? 400 : 413);
      }
      const status = (err as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        return sendPage(res, messagePage({ brand, title: 'Request not readable', heading: 'The request could not be read', message: 'Please go back and try again.' }), [], status);
      }
      next(err);
    } catch (failure) {
      next(failure);
    }
  }) as ErrorRequestHandler);

  // Everything else under /oauth is the authorization server (its own body parsing, JSON errors).
  router.use('/oauth', async (req, res, next) => {
    try {
      const p = await provider(req);
      if (!p) return notFound(res);
      p.callback()(req, res);
    } catch (err) {
      next(err);
    }
  });

  return router;
}

const isMcpScope = (scope: string): boolean => (MCP_SCOPES as readonly string[]).includes(scope);

/**
 * Makes the grant hold exactly the MCP scopes of this consent, for the MCP endpoint and as the OpenID scopes
 * oidc-provider also counts them as (they are in its `scopes`): a scope unticked now is taken away, one ticked now is
 * granted even if an earlier consent refused it (grants made before consent was asked again hold such refusals, which
 * would otherwise hide it). Other OpenID scopes (openid, offline_access) stay as they are.
 */
function grantExactly(grant: Grant, resource: string, scopes: string[]): void {
  const keep = (scope: string | undefined) => (scope ?? '').split(' ').filter((s) => s && !isMcpScope(s));
  if (grant.resources) delete grant.resources[resource];
  if (grant.rejected?.resources) delete grant.rejected.resources[resource];
  if (grant.openid) grant.openid.scope = keep(grant.openid.scope).join(' ');
  if (grant.rejected?.openid) grant.rejected.openid.scope = keep(grant.rejected.openid.scope).join(' ');
  grant.addResourceScope(resource, scopes.join(' '));
  grant.addOIDCScope(scopes.join(' '));
}

/** The interaction is not at the step its form is for (a consent form posted to a sign-in interaction). */
class InteractionGone extends Error {
  constructor() {
    super('The interaction is not at this step.');
    this.name = 'InteractionGone';
  }
}

/** A host name or IPv4 address as CSP's host-source writes it (no IPv6 literal, no empty label, nothing that would end a source). */
const CSP_HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)*$/;
/** An RFC 3986 scheme; one with a meaning of its own in a browser is never a native app's. */
const URI_SCHEME = /^[a-z][a-z0-9+.-]*:$/;
const NOT_APP_SCHEMES = new Set(['http:', 'https:', 'javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'filesystem:', 'about:', 'ws:', 'wss:']);

/**
 * The `form-action` sources of the interaction's pages besides 'self'. Their forms post here, but the answer redirects
 * (303 to /oauth/auth/{uid}, then 303) to the client's redirect URI, and Chrome checks every hop of a form's redirects
 * against form-action: an http(s) redirect URI adds its origin, a native client's private-use scheme
 * (`cursor://anysphere.cursor-mcp/oauth/callback`) the scheme source `cursor:`. Anything else adds nothing, so client
 * metadata can put no other text into the header.
 */
export function formTargetsOf(redirectUri: unknown): string[] {
  if (typeof redirectUri !== 'string') return [];
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return [];
  }
  if (url.protocol === 'https:' || url.protocol === 'http:') {
    return CSP_HOST.test(url.hostname) ? [url.origin] : [];
  }
  return URI_SCHEME.test(url.protocol) && !NOT_APP_SCHEMES.has(url.protocol) ? [url.protocol] : [];
}
