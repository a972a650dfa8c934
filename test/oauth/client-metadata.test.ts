import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { OAuthAdapter } from '../../src/oauth/adapter';
import { serveApp, type ServedApp } from '../support/app';
import { useDatabase } from '../support/db';
import { oauthWorld, walkConsent } from './mcp-support';

/**
 * Client ID Metadata Documents (issue 16 item 3): a client whose `client_id` is the https URL of its metadata, with no
 * registration. The server fetches the document through its guarded client; the test's server is on loopback with
 * its own certificate, so the test app trusts that CA and that address, and a second app with the default
 * (public-only) client shows the same client refused: the server does not fetch from private addresses.
 */
describe('MCP OAuth with a client ID metadata document', () => {
  useDatabase();
  let dir: string;
  let metadata: https.Server;
  let clientId = '';
  let base = '';
  /** Requests the metadata server answered, by path. */
  const served = new Map<string, number>();
  let trusting: ServedApp;
  let strict: ServedApp;
  const redirectUri = 'http://127.0.0.1:7799/callback';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cimd-'));
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
    const cert = fs.readFileSync(path.join(dir, 'cert.pem'));
    const document = (id: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ client_id: id, client_name: 'Metadata Client', client_uri: 'https://127.0.0.1/', redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none', ...extra });
    metadata = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert }, (req, res) => {
      served.set(req.url ?? '', (served.get(req.url ?? '') ?? 0) + 1);
      const json = (body: string) => void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      if (req.url === '/mcp-client.json') return json(document(clientId));
      // A client naming a sector identifier, and that identifier's answer (valid: all the client's redirect URIs).
      if (req.url === '/sector-client.json') return json(document(`${base}/sector-client.json`, { sector_identifier_uri: `${base}/sector.json` }));
      if (req.url === '/sector.json') return json(JSON.stringify([redirectUri]));
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => metadata.listen(0, '127.0.0.1', r));
    base = `https://127.0.0.1:${(metadata.address() as AddressInfo).port}`;
    clientId = `${base}/mcp-client.json`;
    const agent = new Agent({ connect: { ca: cert } });
    trusting = await serveApp({
      oauth: { fetch: async (url, init) => (await undiciFetch(url, { method: init.method, headers: init.headers ? Object.fromEntries(init.headers) : undefined, signal: init.signal, dispatcher: agent })) as unknown as Response },
    });
    strict = await serveApp();
  });
  afterAll(async () => {
    await trusting?.close();
    await strict?.close();
    await new Promise<void>((r) => metadata.close(() => r()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const authorizeUrl = (origin: string, challenge: string, client = clientId) =>
    `${origin}/oauth/auth?${new URLSearchParams({ client_id: client, response_type: 'code', redirect_uri: redirectUri, scope: 'mcp:access', code_challenge: challenge, code_challenge_method: 'S256', state: 'm' })}`;

  it('signs in a client known only by its metadata URL, and the token works', async () => {
    const w = await oauthWorld();
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const { redirect } = await walkConsent(trusting.origin, authorizeUrl(trusting.origin, challenge), { email: w.owner.email, password: w.password, redirectUri, consent: { organizations: 'all' } });
    const code = redirect!.searchParams.get('code')!;
    const res = await fetch(`${trusting.origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, code_verifier: verifier }).toString(),
    });
    expect(res.status).toBe(200);
    const { access_token } = (await res.json()) as { access_token: string };
    const mcp = await fetch(`${trusting.origin}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${access_token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_organizations', arguments: {} } }),
    });
    expect(mcp.status).toBe(200);
    expect(await mcp.text()).toContain('Bakery');
  });

  it('does not fetch a metadata document from a private address with the default client', async () => {
    // Refused by the address policy before any connection (an untrusted certificate would still have connected).
    let connections = 0;
    const count = () => void connections++;
    metadata.on('connection', count);
    const res = await fetch(authorizeUrl(strict.origin, 'a'.repeat(43)), { redirect: 'manual' });
    metadata.off('connection', count);
    expect(connections).toBe(0);
    // No redirect to the client (its document could not be read, so its redirect URI is unknown): an error answer.
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await res.json()).toMatchObject({ error: 'invalid_client' });
  });

  // A sector identifier (pairwise subjects, which this server does not use) would be fetched at registration and
  // again whenever the client is loaded, its answer read whole however large: never fetched, the client refused.
  describe('a sector_identifier_uri', () => {
    it('is refused at registration (400 invalid_client_metadata) and never fetched', async () => {
      served.clear();
      const res = await fetch(`${trusting.origin}/oauth/reg`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: 'Sector Client', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', sector_identifier_uri: `${base}/sector.json` }),
      });
      expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([400, 'invalid_client_metadata']);
      expect(served.get('/sector.json')).toBeUndefined();
    });

    it('in a client ID metadata document refuses that client, without fetching the identifier', async () => {
      served.clear();
      const res = await fetch(authorizeUrl(trusting.origin, 'a'.repeat(43), `${base}/sector-client.json`), { redirect: 'manual' });
      expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([400, 'invalid_client_metadata']);
      expect(served.get('/sector-client.json')).toBeGreaterThan(0);
      expect(served.get('/sector.json')).toBeUndefined();
    });

    it('of a client stored before it was refused is not fetched when the client is loaded: the client no longer signs in', async () => {
      const id = `sector-${randomBytes(6).toString('hex')}`;
      await new OAuthAdapter('Client').upsert(id, { client_id: id, client_name: 'Old Sector Client', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', sector_identifier_uri: `${base}/sector.json` });
      served.clear();
      const res = await fetch(authorizeUrl(trusting.origin, 'a'.repeat(43), id), { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(served.get('/sector.json')).toBeUndefined();
    });
  });
});
