import { formTargetsOf } from '../../src/http/oauth';

/** The `form-action` sources the sign-in and consent pages add for the client's redirect URI (src/http/oauth.ts). */
describe('form-action sources of the OAuth pages (formTargetsOf)', () => {
  it("is the redirect URI's origin for http(s), the scheme for a native app's own scheme", () => {
    expect(formTargetsOf('https://claude.ai/api/mcp/auth_callback')).toEqual(['https://claude.ai']);
    expect(formTargetsOf('http://127.0.0.1:7777/callback?x=1')).toEqual(['http://127.0.0.1:7777']);
    expect(formTargetsOf('cursor://anysphere.cursor-mcp/oauth/callback')).toEqual(['cursor:']);
    expect(formTargetsOf('com.example.App:/oauth2redirect')).toEqual(['com.example.app:']);
  });

  it('adds nothing that is not plainly an origin or an app scheme, so no header text comes from client metadata', () => {
    for (const uri of ['http://a;script-src/cb', "http://a'b/", 'http://a,b/', 'http://[::1]:3000/cb', 'javascript:alert(1)', 'data:text/html,x', 'blob:https://x.test/1', 'file:///etc/passwd', 'about:blank', 'not a uri', '', undefined, 7]) {
      expect([uri, formTargetsOf(uri)]).toEqual([uri, []]);
    }
  });
});
