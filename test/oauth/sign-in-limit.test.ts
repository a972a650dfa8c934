import { createHash, randomBytes } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { User } from '../../src/models';
import { hashPassword } from '../../src/services/admin.service';
import { useServedApp } from '../support/app';
import { brandedTenant } from '../http/page-watch';
import { Browser, oauthWorld } from './mcp-support';

/**
 * The failed sign-in limit of MCP's OAuth sign-in page (docs/security.md "MCP sign-in"): 10 failures per email in 15
 * minutes, counted before the password is checked, one budget for the email on every host it signs in at.
 */
describe('POST /oauth/interaction/{uid}/login: failed sign-ins', () => {
  const app = useServedApp();
  const port = () => new URL(app.origin).port;

  /** A new interaction's sign-in page on `host` (the platform's by default), in a new browser, and its login POST. */
  async function signInPage(host?: string) {
    const b = new Browser(host);
    const reg = await b.fetch(`${app.origin}/oauth/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Test Assistant', redirect_uris: ['http://127.0.0.1:7777/callback'], token_endpoint_auth_method: 'none' }),
    });
    expect(reg.status).toBe(201);
    const { client_id } = (await reg.json()) as { client_id: string };
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const q = new URLSearchParams({ client_id, response_type: 'code', redirect_uri: 'http://127.0.0.1:7777/callback', scope: 'mcp:access', code_challenge: challenge, code_challenge_method: 'S256' });
    const start = await b.fetch(`${app.origin}/oauth/auth?${q}`);
    const html = await (await b.fetch(new URL(start.headers.get('location')!, app.origin).toString())).text();
    const uid = /\/oauth\/interaction\/([^/"]+)\/login/.exec(html)![1];
    return (email: string, password: string) =>
      b.fetch(`${app.origin}/oauth/interaction/${uid}/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email, password }).toString() });
  }

  const expectRefused = async (res: Response) => {
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(await res.text()).toContain('Too many failed sign-ins for this email.');
  };

  it('checks at most 10 of 12 wrong passwords sent together, and refuses the others with 429 without checking them', async () => {
    const w = await oauthWorld();
    const login = await signInPage();
    const compare = jest.spyOn(bcrypt, 'compare');
    try {
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => login(w.owner.email, `guess-${i}`)));
      expect(compare).toHaveBeenCalledTimes(10);
      // The tenth failure answers 429 as well: the next attempt would be refused.
      expect(answers.map((a) => a.status).sort()).toEqual([...Array(9).fill(401), 429, 429, 429]);
      for (const refused of answers.filter((a) => a.status === 429)) await expectRefused(refused);
      compare.mockClear();
      await expectRefused(await login(w.owner.email, w.password));
      expect(compare).not.toHaveBeenCalled();
    } finally {
      compare.mockRestore();
    }
  });

  it("counts one budget for the email at the platform's host and at the tenant's domain", async () => {
    const t = await brandedTenant(Number(port()));
    const password = `pw-${randomBytes(6).toString('hex')}`;
    await User.update({ passwordHash: await hashPassword(password) }, { where: { id: t.owner.id } });
    const domain = `${t.host}:${port()}`;
    const atDomain = await signInPage(domain);
    const atPlatform = await signInPage();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await atDomain(t.owner.email, `guess-${i}`)).status);
    for (let i = 5; i < 10; i++) statuses.push((await atPlatform(t.owner.email, `guess-${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 429]);
    await expectRefused(await atDomain(t.owner.email, password));
    await expectRefused(await (await signInPage(domain))(t.owner.email, password));
    await expectRefused(await atPlatform(t.owner.email, password));
  });

  it('neither resets nor spends the count on a right password', async () => {
    const w = await oauthWorld();
    const login = await signInPage();
    for (let i = 0; i < 8; i++) expect((await login(w.owner.email, `guess-${i}`)).status).toBe(401);
    expect((await (await signInPage())(w.owner.email, w.password)).status).toBe(303);
    const again = await signInPage();
    expect((await again(w.owner.email, 'guess-8')).status).toBe(401);
    await expectRefused(await again(w.owner.email, 'guess-9'));
  });
});
