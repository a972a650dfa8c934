import { createHash, randomBytes } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import { oauthSimulatorRouter, verifySimulatedAccessToken } from '../../src/providers/oauth-simulator';
import { simulatorClient } from '../../src/services/provider-connections.service';

/** The OAuth 2 simulator of the embedded default: what its token endpoint checks. */
describe('OAuth simulator (/simulators/{provider}/oauth)', () => {
  const saved = { PUBLIC_URL: process.env.PUBLIC_URL, APP_KEY: process.env.APP_KEY };
  process.env.PUBLIC_URL = 'http://sim.example.test';
  process.env.APP_KEY = randomBytes(32).toString('base64');
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  const app = express().use('/simulators/facebook/oauth', oauthSimulatorRouter('facebook'));
  const client = simulatorClient('facebook');
  const redirectUri = 'http://sim.example.test/connect/callback';
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorize = { client_id: client.clientId, redirect_uri: redirectUri, response_type: 'code', state: 's1', code_challenge: challenge, code_challenge_method: 'S256', scope: 'pages_show_list' };

  async function code(): Promise<string> {
    const res = await request(app).post('/simulators/facebook/oauth/authorize').type('form').send({ ...authorize, decision: 'allow', email: 'me@example.test' });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.location);
    expect(back.searchParams.get('state')).toBe('s1');
    return back.searchParams.get('code')!;
  }
  const token = (body: Record<string, string>) =>
    request(app).post('/simulators/facebook/oauth/token').type('form').send({ client_id: client.clientId, client_secret: client.clientSecret, ...body });

  it('shows a sign-in form that says it is a simulator; refuses unregistered redirect URIs and non-S256 requests', async () => {
    const page = await request(app).get('/simulators/facebook/oauth/authorize').query(authorize);
    expect(page.status).toBe(200);
    expect(page.text).toContain('This is not Facebook');
    expect((await request(app).get('/simulators/facebook/oauth/authorize').query({ ...authorize, redirect_uri: 'https://evil.test/cb' })).status).toBe(400);
    const plain = await request(app).get('/simulators/facebook/oauth/authorize').query({ ...authorize, code_challenge_method: 'plain' });
    expect(plain.status).toBe(303);
    expect(new URL(plain.headers.location).searchParams.get('error')).toBe('invalid_request');
  });

  it('exchanges a code once, with the right verifier, redirect URI and client secret, and refreshes', async () => {
    const c = await code();
    expect((await token({ grant_type: 'authorization_code', code: c, redirect_uri: redirectUri, code_verifier: randomBytes(32).toString('base64url') })).body.error).toBe('invalid_grant');
    expect((await token({ grant_type: 'authorization_code', code: c, redirect_uri: `${redirectUri}x`, code_verifier: verifier })).body.error).toBe('invalid_grant');
    expect((await token({ grant_type: 'authorization_code', code: c, redirect_uri: redirectUri, code_verifier: verifier, client_secret: 'wrong' })).status).toBe(401);
    const ok = await token({ grant_type: 'authorization_code', code: c, redirect_uri: redirectUri, code_verifier: verifier });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600, refresh_token: expect.any(String), scope: 'pages_show_list' });
    expect(verifySimulatedAccessToken('facebook', ok.body.access_token)).toEqual({ email: 'me@example.test' });
    expect(verifySimulatedAccessToken('google', ok.body.access_token)).toBeNull();
    const replay = await token({ grant_type: 'authorization_code', code: c, redirect_uri: redirectUri, code_verifier: verifier });
    expect(replay.body).toMatchObject({ error: 'invalid_grant' });
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: ok.body.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).not.toBe(ok.body.access_token);
  });

  it('sends a cancelled sign-in back with error=access_denied and the state', async () => {
    const res = await request(app).post('/simulators/facebook/oauth/authorize').type('form').send({ ...authorize, decision: 'deny' });
    const back = new URL(res.headers.location);
    expect(Object.fromEntries(back.searchParams)).toEqual({ error: 'access_denied', state: 's1' });
  });
});
