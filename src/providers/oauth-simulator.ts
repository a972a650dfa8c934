import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { publicBaseUrl } from '../config';
import { mac } from '../crypto/secrets';
import type { SignInProvider } from './types';
import { simulatorClient } from '../services/provider-connections.service';
import { callbackRelayOrigin } from '../services/connect-links.service';
import { escapeHtml as esc } from '../domain/html';

/**
 * An OAuth 2 authorization server that stands in for Google's or Facebook's sign-in while the provider has no
 * client configured (the embedded default). It says so on every page. Authorization code flow with PKCE S256
 * only: the authorize page is a small sign-in form with a demo account; the token endpoint checks the code,
 * the PKCE verifier, the redirect URI and the client secret, and answers access and refresh tokens.
 *
 * Codes and tokens are self-contained and signed with the app key (no table), so any API process can check
 * them; codes are single-use within the process that redeems them (a simulator runs in one process).
 */

const PROVIDER_NAMES: Record<SignInProvider, string> = { google: 'Google', facebook: 'Facebook' };
export const SIMULATOR_DEMO_ACCOUNT = { email: 'owner@demo-business.test', name: 'Demo Business Owner' } as const;
const CODE_TTL_MS = 5 * 60 * 1000;
export const SIMULATED_ACCESS_TTL_S = 3600;

type TokenKind = 'code' | 'access' | 'refresh';

interface CodeClaims {
  sub: string;
  cid: string;
  ru: string;
  cc: string;
  sc: string;
  exp: number;
  n: string;
}
interface TokenClaims {
  sub: string;
  sc: string;
  exp: number | null;
  n: string;
}

function sign(provider: SignInProvider, kind: TokenKind, claims: object): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `sim_${provider}_${kind}.${body}.${mac(`oauth-simulator:${provider}:${kind}`, body)}`;
}

function verify<T>(provider: SignInProvider, kind: TokenKind, token: string): T | null {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== `sim_${provider}_${kind}`) return null;
  const expected = Buffer.from(mac(`oauth-simulator:${provider}:${kind}`, parts[1]));
  const given = Buffer.from(parts[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    return JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as T;
  } catch {
    return null;
  }
}

/** The account behind a simulator access token, or null (for the platform API simulators, should they care). */
export function verifySimulatedAccessToken(provider: SignInProvider, token: string, now = Date.now()): { email: string } | null {
  const claims = verify<TokenClaims>(provider, 'access', token);
  if (!claims || (claims.exp !== null && claims.exp <= now)) return null;
  return { email: claims.sub };
}

const sameSecret = (a: string, b: string): boolean => {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
};

function page(provider: SignInProvider, title: string, body: string): string {
  const name = PROVIDER_NAMES[provider];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} - ${esc(name)} sign-in simulator</title>
<style>
body{font-family:system-ui,sans-serif;background:#f4f4f6;margin:0;color:#222}
main{max-width:26rem;margin:3rem auto;background:#fff;border-radius:8px;padding:2rem;box-shadow:0 1px 4px #0002}
.banner{background:#fff4cc;border:1px solid #e6c84c;border-radius:6px;padding:.6rem .8rem;font-size:.9rem;margin-bottom:1.2rem}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1.2rem;padding:.6rem 1.2rem;border:0;border-radius:4px;background:#1a73e8;color:#fff;font-size:1rem;cursor:pointer}
button.secondary{background:#ddd;color:#222;margin-left:.5rem}
</style></head><body><main>
<p class="banner" role="note"><strong>Simulator.</strong> This is not ${esc(name)}: it is the sign-in simulator of this
installation, used because no ${esc(name)} OAuth client is configured. No real account is involved.</p>
${body}
</main></body></html>`;
}

interface AuthorizeParams {
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  scope: string;
}

/** Checks an authorization request as a real server would; an error message, or the parameters. */
function checkAuthorizeRequest(provider: SignInProvider, q: Record<string, unknown>): AuthorizeParams | { error: string; redirectable: boolean } {
  const str = (k: string) => (typeof q[k] === 'string' ? (q[k] as string) : '');
  const clientId = str('client_id');
  const redirectUri = str('redirect_uri');
  if (clientId !== simulatorClient(provider).clientId) return { error: 'Unknown client_id.', redirectable: false };
  // The "registered" redirect URIs of the simulated client: this installation's connect callbacks.
  if (redirectUri !== `${publicBaseUrl()}/connect/callback`) {
    return { error: 'redirect_uri is not registered for this client.', redirectable: false };
  }
  if (str('response_type') !== 'code') return { error: 'unsupported_response_type', redirectable: true };
  if (!str('code_challenge') || str('code_challenge_method') !== 'S256') {
    return { error: 'invalid_request', redirectable: true };
  }
  return { clientId, redirectUri, state: str('state'), codeChallenge: str('code_challenge'), scope: str('scope') };
}

function redirectBack(res: Response, redirectUri: string, params: Record<string, string>): void {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v) url.searchParams.set(k, v);
  res.redirect(303, url.toString());
}

/** The router of one provider's simulator, mounted at `/simulators/{provider}/oauth`. */
export function oauthSimulatorRouter(provider: SignInProvider): Router {
  const router = express.Router();
  const redeemed = new Map<string, number>();
  const name = PROVIDER_NAMES[provider];
  router.use(express.urlencoded({ extended: false, limit: '16kb' }));

  router.get('/authorize', (req: Request, res: Response) => {
    const params = checkAuthorizeRequest(provider, req.query as Record<string, unknown>);
    if ('error' in params) {
      const q = req.query as Record<string, string | undefined>;
      if (params.redirectable && typeof q.redirect_uri === 'string') {
        return redirectBack(res, q.redirect_uri, { error: params.error, state: q.state ?? '' });
      }
      res.status(400).type('html').send(page(provider, 'Invalid request', `<h1>Invalid sign-in request</h1><p>${esc(params.error)}</p>`));
      return;
    }
    // "Sign in and allow" and "Cancel" answer 303 to the callback on PUBLIC_URL, which relays a sign-in started on an
    // agency's link domain to that host, and Chrome checks every hop of a form's redirects against form-action: the
    // page admits that one origin besides 'self', and only when the platform signed it into the state.
    const relay = callbackRelayOrigin(params.state);
    const csp = res.getHeader('Content-Security-Policy');
    if (relay && typeof csp === 'string' && !csp.split(/[ ;]/).includes(relay)) {
      res.setHeader('Content-Security-Policy', csp.replace(/form-action ([^;]*)/, `form-action $1 ${relay}`));
    }
    const hidden = (['client_id', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method', 'scope', 'response_type'] as const)
      .map((k) => `<input type="hidden" name="${k}" value="${esc(String((req.query as Record<string, unknown>)[k] ?? ''))}">`)
      .join('\n');
    res.type('html').send(
      page(
        provider,
        'Sign in',
        `<h1>Sign in with ${esc(name)}</h1>
<p>An app asks for access to manage your business reviews (${esc(params.scope || 'no scope')}).</p>
<form method="post" action="authorize">
${hidden}
<label for="email">Email</label><input id="email" name="email" type="email" value="${esc(SIMULATOR_DEMO_ACCOUNT.email)}" required>
<label for="password">Password</label><input id="password" name="password" type="password" value="demo" required>
<button type="submit" name="decision" value="allow">Sign in and allow</button><button class="secondary" type="submit" name="decision" value="deny" formnovalidate>Cancel</button>
</form>`,
      ),
    );
  });

  router.post('/authorize', (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const params = checkAuthorizeRequest(provider, body);
    if ('error' in params) {
      res.status(400).type('html').send(page(provider, 'Invalid request', `<h1>Invalid sign-in request</h1><p>${esc(params.error)}</p>`));
      return;
    }
    if (body.decision !== 'allow') return redirectBack(res, params.redirectUri, { error: 'access_denied', state: params.state });
    const email = typeof body.email === 'string' && body.email.trim() ? body.email.trim() : SIMULATOR_DEMO_ACCOUNT.email;
    const code = sign(provider, 'code', {
      sub: email,
      cid: params.clientId,
      ru: params.redirectUri,
      cc: params.codeChallenge,
      sc: params.scope,
      exp: Date.now() + CODE_TTL_MS,
      n: randomBytes(8).toString('hex'),
    } satisfies CodeClaims);
    redirectBack(res, params.redirectUri, { code, state: params.state });
  });

  router.post('/token', (req: Request, res: Response) => {
    res.set('Cache-Control', 'no-store');
    const body = (req.body ?? {}) as Record<string, string | undefined>;
    const fail = (status: number, error: string, description: string) => res.status(status).json({ error, error_description: description });
    // Client authentication: client_secret_post or client_secret_basic.
    let clientId = body.client_id ?? '';
    let clientSecret = body.client_secret ?? '';
    const basic = /^Basic\s+(.+)$/i.exec(req.get('authorization') ?? '');
    if (basic) {
      const [id, secret] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
      clientId = decodeURIComponent(id ?? '');
      clientSecret = decodeURIComponent(secret ?? '');
    }
    const client = simulatorClient(provider);
    if (clientId !== client.clientId || !sameSecret(clientSecret, client.clientSecret)) {
      return void fail(401, 'invalid_client', 'Client authentication failed.');
    }
    const now = Date.now();
    const issue = (sub: string, scope: string) =>
      res.json({
        access_token: sign(provider, 'access', { sub, sc: scope, exp: now + SIMULATED_ACCESS_TTL_S * 1000, n: randomBytes(8).toString('hex') } satisfies TokenClaims),
        token_type: 'Bearer',
        expires_in: SIMULATED_ACCESS_TTL_S,
        refresh_token: sign(provider, 'refresh', { sub, sc: scope, exp: null, n: randomBytes(8).toString('hex') } satisfies TokenClaims),
        scope,
      });

    if (body.grant_type === 'authorization_code') {
      const claims = body.code ? verify<CodeClaims>(provider, 'code', body.code) : null;
      if (!claims || claims.exp <= now) return void fail(400, 'invalid_grant', 'The authorization code is invalid or expired.');
      for (const [c, exp] of redeemed) if (exp <= now) redeemed.delete(c);
      if (redeemed.has(body.code!)) return void fail(400, 'invalid_grant', 'The authorization code was already used.');
      if (claims.cid !== clientId) return void fail(400, 'invalid_grant', 'The code was issued to another client.');
      if (body.redirect_uri !== claims.ru) return void fail(400, 'invalid_grant', 'redirect_uri does not match the authorization request.');
      const verifier = body.code_verifier ?? '';
      if (!/^[A-Za-z0-9\-._~]{43,128}$/.test(verifier) || createHash('sha256').update(verifier).digest('base64url') !== claims.cc) {
        return void fail(400, 'invalid_grant', 'PKCE verification failed.');
      }
      redeemed.set(body.code!, claims.exp);
      return void issue(claims.sub, claims.sc);
    }
    if (body.grant_type === 'refresh_token') {
      const claims = body.refresh_token ? verify<TokenClaims>(provider, 'refresh', body.refresh_token) : null;
      if (!claims) return void fail(400, 'invalid_grant', 'The refresh token is invalid.');
      return void issue(claims.sub, claims.sc);
    }
    fail(400, 'unsupported_grant_type', 'Only authorization_code and refresh_token are supported.');
  });

  return router;
}
