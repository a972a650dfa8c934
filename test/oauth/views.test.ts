import { JSDOM } from 'jsdom';
import { renderPage } from '../../facades/pages/layout';
import { consentPage, loginPage, messagePage } from '../../src/http/oauth.views';

const doc = (html: string) => new JSDOM(html).window.document;
const HOSTILE_BRAND = 'Harbour <script>alert(1)</script> & "Co"';
const HOSTILE_CLIENT = '<img src=x onerror=alert(2)> Assistant';
const READ = { name: 'mcp:access', text: 'Read', checked: true, required: true };

/** The consent page of a plain client (Claude, redirecting to claude.ai, for ann@example.test), with `over` in place. */
const consentOf = (over: Partial<Parameters<typeof consentPage>[0]> = {}) =>
  consentPage({
    brand: { name: 'Harbour', logoUrl: null },
    uid: 'u1',
    clientName: 'Claude',
    clientId: 'c1',
    clientUri: null,
    redirectUri: 'https://claude.ai/api/mcp/auth_callback',
    account: { email: 'ann@example.test' },
    scopes: [READ],
    organizations: [],
    ...over,
  });

describe('the MCP OAuth pages', () => {
  it('show a hostile brand, client and organisation name as text: the renderer escapes them', () => {
    const html = renderPage(
      consentPage({
        brand: { name: HOSTILE_BRAND, logoUrl: 'javascript:alert(3)' },
        uid: 'u"1',
        clientName: HOSTILE_CLIENT,
        clientId: 'https://assistant.example.test/mcp-client.json',
        clientUri: 'https://assistant.example.test/about',
        redirectUri: 'http://127.0.0.1:7777/callback',
        account: { email: '<b>who</b>@example.test' },
        scopes: [{ name: 'mcp:access', text: 'Read <b>things</b>', checked: true, required: true }],
        organizations: [{ id: 7, name: '</label><script>alert(4)</script>' }],
      }),
      'n0nce',
    );
    expect(html).not.toMatch(/<script|<img|<b>/);
    const d = doc(html);
    expect(d.querySelectorAll('script, img, b')).toHaveLength(0);
    expect(d.title).toBe(`Allow access · ${HOSTILE_BRAND}`);
    expect(d.querySelector('.brand')!.textContent).toBe(HOSTILE_BRAND);
    expect(d.querySelector('h1')!.textContent).toBe(`Allow ${HOSTILE_CLIENT}?`);
    expect(d.querySelector('p.lead')!.textContent).toBe(`${HOSTILE_CLIENT} (assistant.example.test) will act on your behalf through the MCP endpoint. You can revoke it any time.`);
    expect([...d.querySelectorAll('form')].map((f) => f.getAttribute('action'))).toEqual(['/oauth/interaction/u"1/switch', '/oauth/interaction/u"1/confirm', '/oauth/interaction/u"1/abort']);
    expect(d.querySelector('.account')!.textContent).toBe('Signed in as <b>who</b>@example.test' + 'Not you? Use another account');
    expect([...d.querySelectorAll('input[name=organization]')].map((i) => [i.getAttribute('value'), i.parentElement!.textContent])).toEqual([['7', '</label><script>alert(4)</script>']]);
    expect(d.querySelector('style')!.getAttribute('nonce')).toBe('n0nce');
  });

  it('asks for consent starting from the least: only the ticked scopes, no organisations choice made, and says where Allow goes', () => {
    const page = (redirectUri: string) =>
      doc(renderPage(consentOf({ redirectUri, scopes: [READ, { name: 'mcp:writes', text: 'Write', checked: false, required: false }], organizations: [{ id: 7, name: 'Bakery' }] })));
    const d = page('https://claude.ai/api/mcp/auth_callback');
    expect([...d.querySelectorAll('input[name=scope]')].map((i) => [i.getAttribute('value'), i.hasAttribute('checked')])).toEqual([
      ['mcp:access', true],
      ['mcp:writes', false],
    ]);
    expect([...d.querySelectorAll('input[name=organizations], input[name=organization]')].filter((i) => i.hasAttribute('checked'))).toEqual([]);
    expect(d.querySelector('input[name=organizations]')!.hasAttribute('required')).toBe(true);
    expect(d.querySelector('.destination')!.textContent).toBe('After you allow it, you go to claude.ai');
    expect(page('cursor://anysphere.cursor-mcp/oauth/callback').querySelector('.destination strong')!.textContent).toBe('cursor://anysphere.cursor-mcp');
  });

  it('names the client by its client_uri host only when the client is at that host (redirect URI or metadata document); else by where Allow goes', () => {
    const page = (clientUri: string | null, redirectUri: string, clientId = 'c1') => {
      const html = renderPage(consentOf({ clientId, clientUri, redirectUri }));
      const d = doc(html);
      return { html, h1: d.querySelector('h1')!.textContent, lead: d.querySelector('p.lead')!.textContent, link: d.querySelector('p.lead a')?.getAttribute('href') ?? null };
    };
    const vouched = (host: string) => ({ h1: 'Allow Claude?', lead: `Claude (${host}) will act on your behalf through the MCP endpoint. You can revoke it any time.` });
    const stated = (destination: string) => ({
      h1: `Allow the app at ${destination}?`,
      lead: 'It calls itself Claude (a name it gave itself, not verified) and will act on your behalf through the MCP endpoint. You can revoke it any time.',
      link: null,
    });
    // The redirect URI's host, or the metadata document's (any port), vouch for client_uri.
    expect(page('https://claude.ai', 'https://claude.ai/api/mcp/auth_callback')).toMatchObject({ ...vouched('claude.ai'), link: 'https://claude.ai/' });
    expect(page('https://app.example.test/about', 'http://127.0.0.1:7777/callback', 'https://app.example.test/mcp-client.json')).toMatchObject(vouched('app.example.test'));
    expect(page('http://127.0.0.1/', 'http://127.0.0.1:7777/callback')).toMatchObject(vouched('127.0.0.1'));
    // Another host (a parent domain too), a client_uri that is not a web URL, or none: the host Allow sends the user to.
    const claimed = page('https://claude.ai', 'https://evil.example/callback');
    expect(claimed).toMatchObject(stated('evil.example'));
    expect(claimed.html).not.toContain('claude.ai');
    expect(page('https://example.test', 'https://evil.example.test/callback')).toMatchObject(stated('evil.example.test'));
    expect(page('https://claude.ai', 'https://evil.example/callback', 'https://evil.example/claude.ai')).toMatchObject(stated('evil.example'));
    expect(page('javascript:alert(1)//claude.ai', 'https://claude.ai/callback')).toMatchObject(stated('claude.ai'));
    expect(page(null, 'https://claude.ai/api/mcp/auth_callback')).toMatchObject(stated('claude.ai'));
    expect(page('https://cursor.com', 'cursor://anysphere.cursor-mcp/oauth/callback')).toMatchObject(stated('cursor://anysphere.cursor-mcp'));
  });

  it('asked again, starts from what the user granted the client so far: its scopes and organisations', () => {
    const d = doc(
      renderPage(
        consentOf({
          scopes: [READ, { name: 'mcp:writes', text: 'Write', checked: true, required: false }, { name: 'reviews:pii', text: 'PII', checked: false, required: false }],
          organizations: [
            { id: 7, name: 'Bakery', checked: true },
            { id: 8, name: 'Florist', checked: false },
          ],
          organizationsChoice: 'some',
        }),
      ),
    );
    expect([...d.querySelectorAll('input')].filter((i) => i.hasAttribute('checked')).map((i) => [i.getAttribute('name'), i.getAttribute('value')])).toEqual([
      ['scope', 'mcp:access'],
      ['scope', 'mcp:writes'],
      ['organizations', 'some'],
      ['organization', '7'],
    ]);
  });

  it('signs in on a page with the brand, the client and the error as text', () => {
    const client = { clientName: HOSTILE_CLIENT, clientId: 'c1', clientUri: 'https://app.example/about', redirectUri: 'https://app.example/cb' };
    const d = doc(renderPage(loginPage({ brand: { name: HOSTILE_BRAND, logoUrl: '/logo.png' }, uid: 'u1', error: '<i>no</i>', ...client })));
    expect(d.documentElement.getAttribute('lang')).toBe('en');
    expect(d.querySelector('.brand img')!.getAttribute('alt')).toBe(`${HOSTILE_BRAND} logo`);
    expect(d.querySelector('p.lead')!.textContent).toBe(`${HOSTILE_CLIENT} (app.example) wants to connect to your ${HOSTILE_BRAND} account.`);
    expect(d.querySelector('[role=alert]')!.textContent).toBe('<i>no</i>');
    expect([...d.querySelectorAll('form')].map((f) => f.getAttribute('action'))).toEqual(['/oauth/interaction/u1/login', '/oauth/interaction/u1/abort']);
    expect([...d.querySelectorAll('input')].map((i) => i.getAttribute('name'))).toEqual(['email', 'password']);
  });

  it('names a client on the sign-in page by where it sends the user when its client_uri host is not vouched for', () => {
    const client = { clientName: 'Claude', clientId: 'c1', clientUri: 'https://claude.ai', redirectUri: 'https://assistant.evil.example/cb' };
    const d = doc(renderPage(loginPage({ brand: { name: 'Acme', logoUrl: null }, uid: 'u1', error: null, ...client })));
    expect(d.querySelector('p.lead')!.textContent).toBe('The app at assistant.evil.example, which calls itself Claude (not verified), wants to connect to your Acme account.');
    expect(d.body.textContent).not.toContain('claude.ai');
  });

  it('ends an expired sign-in on a page with the brand and the message as text, and no form', () => {
    const d = doc(renderPage(messagePage({ brand: { name: HOSTILE_BRAND, logoUrl: null }, title: 'Sign-in expired', heading: 'This sign-in has expired or is no longer valid', message: 'Start again from your AI app.' })));
    expect(d.title).toBe(`Sign-in expired · ${HOSTILE_BRAND}`);
    expect(d.querySelector('.brand')!.textContent).toBe(HOSTILE_BRAND);
    expect(d.querySelector('h1')!.textContent).toBe('This sign-in has expired or is no longer valid');
    expect(d.querySelector('p.lead')!.textContent).toBe('Start again from your AI app.');
    expect(d.querySelectorAll('form, script')).toHaveLength(0);
  });
});
