import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { useServedApp } from '../support/app';
import { oauthWorld, walkConsent } from './mcp-support';

/**
 * A hosted AI client adding the server by URL only (issue 16 item 3), with the official SDK's OAuth support: it meets
 * the 401, discovers the protected resource and the authorization server, registers itself (RFC 7591), sends the user
 * to sign in with PKCE and the resource indicator, redeems the code, calls tools, and refreshes on its own.
 */
describe('MCP OAuth with the SDK client', () => {
  const app = useServedApp();

  class MemoryProvider implements OAuthClientProvider {
    info?: OAuthClientInformationMixed;
    saved?: OAuthTokens;
    verifier = '';
    authorizationUrl?: URL;
    get redirectUrl() {
      return 'http://127.0.0.1:7788/callback';
    }
    get clientMetadata(): OAuthClientMetadata {
      return { client_name: 'SDK Assistant', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
    }
    clientInformation() {
      return this.info;
    }
    saveClientInformation(info: OAuthClientInformationMixed) {
      this.info = info;
    }
    tokens() {
      return this.saved;
    }
    saveTokens(tokens: OAuthTokens) {
      this.saved = tokens;
    }
    redirectToAuthorization(url: URL) {
      this.authorizationUrl = url;
    }
    saveCodeVerifier(v: string) {
      this.verifier = v;
    }
    codeVerifier() {
      return this.verifier;
    }
  }

  it('connects by URL only: discovery, registration, PKCE, consent, token, tools, refresh', async () => {
    const w = await oauthWorld();
    const provider = new MemoryProvider();
    const url = new URL(`${app.origin}/api/mcp`);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(new Client({ name: 'sdk-oauth', version: '1' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);

    // The SDK registered itself and built the authorization URL: PKCE S256 and this server's MCP endpoint as resource.
    expect(provider.info?.client_id).toEqual(expect.any(String));
    const auth = provider.authorizationUrl!;
    expect(auth.origin + auth.pathname).toBe(`${app.origin}/oauth/auth`);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('resource')).toBe(`${app.origin}/api/mcp`);

    const { redirect } = await walkConsent(app.origin, auth.toString(), { email: w.owner.email, password: w.password, redirectUri: provider.redirectUrl });
    const code = redirect!.searchParams.get('code')!;
    await first.finishAuth(code);
    expect(provider.saved?.access_token).toEqual(expect.any(String));
    expect(provider.saved?.refresh_token).toEqual(expect.any(String));

    const client = new Client({ name: 'sdk-oauth', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('list_organizations');
    const orgs = await client.callTool({ name: 'list_organizations', arguments: {} });
    expect(JSON.stringify(orgs.structuredContent)).toContain('Bakery');
    await client.close();

    // An access token that stopped working: the SDK refreshes with its refresh token and goes on.
    const stale = { ...provider.saved!, access_token: 'expired-or-unknown' };
    provider.saved = stale;
    const again = new Client({ name: 'sdk-oauth', version: '1' });
    await again.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    expect((await again.listTools()).tools.length).toBeGreaterThan(0);
    expect(provider.saved!.access_token).not.toBe('expired-or-unknown');
    expect(provider.saved!.refresh_token).not.toBe(stale.refresh_token);
    await again.close();
  });
});
