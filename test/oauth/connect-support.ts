import { createHash, randomBytes } from 'node:crypto';
import { Browser } from './mcp-support';

/**
 * An MCP client connecting over real HTTP, in a browser that keeps its cookies between connections (test/oauth/
 * reconnect-after-revoke.test.ts, consent-organizations.test.ts): registration, the authorization request, the pages
 * on the way (which ones were shown), the token exchange, and MCP calls.
 */
export const REDIRECT_URI = 'http://127.0.0.1:7777/callback';

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** Registers a client (RFC 7591); `metadata` adds to or replaces the test client's. */
export async function register(origin: string, metadata: Record<string, unknown> = {}): Promise<{ client_id: string }> {
  const res = await fetch(`${origin}/oauth/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test Assistant', redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', ...metadata }),
  });
  if (res.status !== 201) throw new Error(`registration: ${res.status}`);
  return (await res.json()) as { client_id: string };
}

export async function token(origin: string, body: Record<string, string>) {
  const res = await fetch(`${origin}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() });
  return { status: res.status, json: (await res.json()) as Record<string, string> };
}

export async function mcpStatus(origin: string, bearer: string): Promise<number> {
  const res = await fetch(`${origin}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await res.text();
  return res.status;
}

export async function mcpTool(origin: string, bearer: string, name: string, args: Record<string, unknown> = {}): Promise<unknown> {
  const res = await fetch(`${origin}/api/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${bearer}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return res.json();
}

export type ConsentAnswer = Record<string, string | string[]>;

const formOf = (fields: ConsentAnswer) => {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) form.append(k, x);
  return form.toString();
};

/**
 * One connection of the client in browser `b`: from the authorization request (for `scope`, `mcp:access` by default)
 * to the code on the redirect URI, then the tokens. `pages` says which of our pages the user saw on the way ('sign-in', 'consent'); none when the code came
 * straight back. `consent` answers the consent page (it gets the page's HTML and uid).
 */
export async function connect(
  origin: string,
  b: Browser,
  opts: { clientId: string; email: string; password: string; scope?: string; consent?: (page: string, uid: string) => Promise<ConsentAnswer> | ConsentAnswer },
) {
  const { verifier, challenge } = pkce();
  const q = new URLSearchParams({ client_id: opts.clientId, response_type: 'code', redirect_uri: REDIRECT_URI, scope: opts.scope ?? 'mcp:access', state: 's', code_challenge: challenge, code_challenge_method: 'S256' });
  const pages: string[] = [];
  let res = await b.fetch(`${origin}/oauth/auth?${q}`);
  for (let hops = 0; hops < 12; hops++) {
    if (res.status !== 303 && res.status !== 302) throw new Error(`connect stopped at ${res.status}: ${(await res.text()).slice(0, 300)}`);
    const location = new URL(res.headers.get('location')!, origin).toString();
    if (location.startsWith(REDIRECT_URI)) {
      const code = new URL(location).searchParams.get('code');
      if (!code) throw new Error(`no code: ${location}`);
      const issued = await token(origin, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: opts.clientId, code_verifier: verifier });
      return { pages, issued };
    }
    res = await b.fetch(location);
    if (res.status !== 200) continue;
    const page = await res.text();
    const login = /\/oauth\/interaction\/([^/"]+)\/login/.exec(page);
    if (login) {
      pages.push('sign-in');
      res = await b.fetch(`${origin}/oauth/interaction/${login[1]}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: opts.email, password: opts.password }).toString(),
      });
      continue;
    }
    const confirm = /\/oauth\/interaction\/([^/"]+)\/confirm/.exec(page);
    if (!confirm) throw new Error(`neither sign-in nor consent: ${page.slice(0, 300)}`);
    pages.push('consent');
    const answer = opts.consent ? await opts.consent(page, confirm[1]) : { organizations: 'all' };
    res = await postConsent(origin, b, confirm[1], answer);
  }
  throw new Error('too many redirects');
}

/** Posts the consent form of interaction `uid` in browser `b`. */
export function postConsent(origin: string, b: Browser, uid: string, answer: ConsentAnswer): Promise<Response> {
  return b.fetch(`${origin}/oauth/interaction/${uid}/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: formOf(answer) });
}
