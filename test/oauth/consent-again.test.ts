import { JSDOM } from 'jsdom';
import { QueryTypes } from 'sequelize';
import { ApiToken } from '../../src/models';
import { useServedApp } from '../support/app';
import { makeOrganization } from '../support/factories';
import { connect, pkce, register } from './connect-support';
import { Browser, oauthWorld } from './mcp-support';

const db = () => ApiToken.sequelize!;
const doc = (html: string) => new JSDOM(html).window.document;

/**
 * The consent page over real HTTP when a client connects again from the same browser (the session lasts 14 days and
 * remembers the grant), and how the page names the client. A scope the user left unticked used to be recorded as
 * refused, and oidc-provider counts a refused scope as decided: connecting again to grant it got a code at once, no
 * page, and the token still lacked it.
 */
describe('MCP OAuth consent, asked again', () => {
  const app = useServedApp();

  async function tools(bearer: string): Promise<string[]> {
    const res = await fetch(`${app.origin}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name);
  }

  async function organizationNames(bearer: string): Promise<string[]> {
    const res = await fetch(`${app.origin}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_organizations', arguments: {} } }),
    });
    const body = (await res.json()) as { result: { structuredContent: { data: Array<{ name: string }> } } };
    return body.result.structuredContent.data.map((o) => o.name).sort();
  }

  const authorizations = (userId: number) =>
    db().query<{ grantId: string; scopes: string; organizationIds: string | null }>(
      'SELECT grant_id AS grantId, scopes, organization_ids AS organizationIds FROM mcp_authorizations WHERE user_id = ? AND revoked_at IS NULL',
      { replacements: [userId], type: QueryTypes.SELECT },
    );

  const ticked = (page: string, name: string) =>
    [...doc(page).querySelectorAll(`input[name=${name}]`)].filter((i) => i.hasAttribute('checked')).map((i) => i.getAttribute('value'));

  /** Connects `clientId` again in `browser` as the world's owner: the sign-in (when asked) and the consent as `opts` say. */
  const connectAs = (
    w: Awaited<ReturnType<typeof oauthWorld>>,
    browser: Browser,
    clientId: string,
    opts: Omit<Parameters<typeof connect>[2], 'clientId' | 'email' | 'password'> = {},
  ) =>
    connect(app.origin, browser, { clientId, email: w.owner.email, password: w.password, ...opts });

  it.each([
    ['mcp:writes', 'tag_reviews'],
    ['reviews:pii', null],
  ])('shows the consent page again when the client asks for %s the user left unticked, and the new token carries it', async (scope, writeTool) => {
    const w = await oauthWorld();
    const client = await register(app.origin);
    const browser = new Browser();
    const asked = `mcp:access ${scope}`;
    // First connection: the user leaves the scope unticked (as the page starts).
    const first = await connectAs(w, browser, client.client_id, { scope: asked });
    expect(first.pages).toEqual(['sign-in', 'consent']);
    expect(first.issued.json.scope.split(' ')).not.toContain(scope);
    if (writeTool) expect(await tools(first.issued.json.access_token)).not.toContain(writeTool);

    // Connecting again to grant it: the consent page, starting from what was granted so far.
    let shown = '';
    const second = await connectAs(w, browser, client.client_id, {
      scope: asked,
      consent: (page) => {
        shown = page;
        return { scope, organizations: 'all' };
      },
    });
    expect(second.pages).toEqual(['consent']);
    expect(ticked(shown, 'scope')).toEqual(['mcp:access']);
    expect(ticked(shown, 'organizations')).toEqual(['all']);
    expect(second.issued.status).toBe(200);
    expect(second.issued.json.scope.split(' ').sort()).toEqual(['mcp:access', scope].sort());
    if (writeTool) expect(await tools(second.issued.json.access_token)).toContain(writeTool);
    // The same grant and authorization, now with the scope.
    const rows = await authorizations(w.owner.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].scopes.split(' ').sort()).toEqual(['mcp:access', scope].sort());

    // Unticking it on a later consent takes it away again.
    const third = await connectAs(w, browser, client.client_id, {
      scope: `mcp:access ${scope === 'mcp:writes' ? 'reviews:pii' : 'mcp:writes'}`,
      consent: (page) => {
        expect(ticked(page, 'scope')).toEqual(['mcp:access', scope]);
        return { organizations: 'all' };
      },
    });
    expect(third.pages).toEqual(['consent']);
    expect(third.issued.json.scope).toBe('mcp:access');
    if (writeTool) expect(await tools(third.issued.json.access_token)).not.toContain(writeTool);
    expect((await authorizations(w.owner.id))[0].scopes).toBe('mcp:access');
  });

  it('lets the user change the organisations on the consent page asked again, which starts from their choice', async () => {
    const w = await oauthWorld();
    const other = await makeOrganization(w.owner, 'Florist');
    const client = await register(app.origin);
    const browser = new Browser();
    const asked = 'mcp:access mcp:writes';
    const first = await connectAs(w, browser, client.client_id, {
      scope: asked,
      consent: () => ({ organizations: 'some', organization: String(w.org.id) }),
    });
    expect(await organizationNames(first.issued.json.access_token)).toEqual(['Bakery']);

    let shown = '';
    const second = await connectAs(w, browser, client.client_id, {
      scope: asked,
      consent: (page) => {
        shown = page;
        return { organizations: 'some', organization: [String(w.org.id), String(other.id)] };
      },
    });
    expect(second.pages).toEqual(['consent']);
    expect(ticked(shown, 'organizations')).toEqual(['some']);
    expect(ticked(shown, 'organization')).toEqual([String(w.org.id)]);
    expect(await organizationNames(second.issued.json.access_token)).toEqual(['Bakery', 'Florist']);
  });

  it('asks again when the client asks for nothing it lacks: connecting again is where the user changes the choice', async () => {
    const w = await oauthWorld();
    const other = await makeOrganization(w.owner, 'Florist');
    const client = await register(app.origin);
    const browser = new Browser();
    const first = await connectAs(w, browser, client.client_id, {
      consent: () => ({ organizations: 'some', organization: String(w.org.id) }),
    });
    expect(first.issued.json.scope).toBe('mcp:access');
    const second = await connectAs(w, browser, client.client_id, {
      consent: (page) => {
        expect(ticked(page, 'organization')).toEqual([String(w.org.id)]);
        return { organizations: 'some', organization: String(other.id) };
      },
    });
    expect(second.pages).toEqual(['consent']);
    expect(await organizationNames(second.issued.json.access_token)).toEqual(['Florist']);
    expect(await authorizations(w.owner.id)).toHaveLength(1);
  });

  /** Signs in and opens the consent page of an authorization request of `clientId`; answers the page's HTML. */
  async function consentPageOf(clientId: string, redirectUri: string, w: Awaited<ReturnType<typeof oauthWorld>>): Promise<string> {
    const b = new Browser();
    const q = new URLSearchParams({ client_id: clientId, response_type: 'code', redirect_uri: redirectUri, scope: 'mcp:access', state: 's', code_challenge: pkce().challenge, code_challenge_method: 'S256' });
    let res = await b.fetch(`${app.origin}/oauth/auth?${q}`);
    for (let hops = 0; hops < 6; hops++) {
      expect(res.status).toBe(303);
      res = await b.fetch(new URL(res.headers.get('location')!, app.origin).toString());
      if (res.status !== 200) continue;
      const page = await res.text();
      const login = /\/oauth\/interaction\/([^/"]+)\/login/.exec(page);
      if (!login) return page;
      res = await b.fetch(`${app.origin}/oauth/interaction/${login[1]}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: w.owner.email, password: w.password }).toString(),
      });
    }
    throw new Error('no consent page');
  }

  it('names a client by the host it sends the user to, not by a client_uri on another host, and marks its name as its own', async () => {
    const w = await oauthWorld();
    const redirectUri = 'https://assistant.evil.example/callback';
    const client = await register(app.origin, { client_name: 'Claude', client_uri: 'https://claude.ai', redirect_uris: [redirectUri] });
    const page = await consentPageOf(client.client_id, redirectUri, w);
    const d = doc(page);
    expect(d.querySelector('h1')!.textContent).toBe('Allow the app at assistant.evil.example?');
    expect(d.querySelector('p.lead')!.textContent).toBe(
      'It calls itself Claude (a name it gave itself, not verified) and will act on your behalf through the MCP endpoint. You can revoke it any time.',
    );
    expect(d.querySelector('.destination')!.textContent).toBe('After you allow it, you go to assistant.evil.example');
    expect(page).not.toContain('claude.ai');
  });

  it('names a client by its client_uri host when that is where it sends the user', async () => {
    const w = await oauthWorld();
    const redirectUri = 'https://assistant.example.test/callback';
    const client = await register(app.origin, { client_name: 'Assistant', client_uri: 'https://assistant.example.test/about', redirect_uris: [redirectUri] });
    const d = doc(await consentPageOf(client.client_id, redirectUri, w));
    expect(d.querySelector('h1')!.textContent).toBe('Allow Assistant?');
    expect(d.querySelector('p.lead')!.textContent).toBe('Assistant (assistant.example.test) will act on your behalf through the MCP endpoint. You can revoke it any time.');
    expect(d.querySelector('p.lead a')!.getAttribute('href')).toBe('https://assistant.example.test/about');
  });
});
