import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { decryptSecret } from '../../src/crypto/secrets';
import { MessagingSetting } from '../../src/models';
import { closeSmtpPools } from '../../src/providers/smtp/account-sender';
import { useApp } from '../support/app';
import { startBigAnswerServer } from '../support/big-answer';
import { useEnv } from '../support/env';
import { makeWorld } from '../support/factories';
import { useSmtpServer } from '../support/providers/smtp';
import { startTwilioServer, type TwilioSink } from '../support/providers/twilio';

/**
 * The messaging settings' secrets and test message as an attacker with `organizations:update` would use them:
 * stored secrets are never sent to a new destination without being sent again, the platform's mail server is no
 * relay for test mail to strangers, and an oversized address is refused before the address pattern reads it.
 */

/** A loopback SMTP server that takes any sign-in (recording it) and every message; `connections` counts every connect. */
async function startAuthSmtpServer() {
  const logins: Array<{ username: string; password: string }> = [];
  let connections = 0;
  let messages = 0;
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => {
        messages++;
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    logins,
    get connections() {
      return connections;
    },
    get messages() {
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('messaging settings: secrets, test-message recipients, address length', () => {
  const t = useApp();
  const sink = useSmtpServer(); // the platform's mail server (SMTP_URL)
  useEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', SMS_SIMULATOR: 'false' });

  const gql = async (token: string, query: string, variables: Record<string, unknown> = {}) =>
    (await t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query, variables })).body as {
      data?: Record<string, unknown> | null;
      errors?: Array<{ message: string; extensions: { code: string; reason: string | null; fields: Record<string, string[]> | null } }>;
    };

  const SET_EMAIL = 'mutation($input: EmailSettingsInput!) { setEmailSettings(input: $input) { channel configured hasPassword email { host port secure username fromEmail fromName } } }';
  const SET_SMS = 'mutation($input: SmsSettingsInput!) { setSmsSettings(input: $input) { channel configured hasPassword sms { accountSid fromNumber baseUrl } } }';
  const TEST = 'mutation($input: TestMessageInput!) { sendTestMessage(input: $input) { channel to sender providerMessageId } }';

  const rowOf = async (customerId: number, channel: string) => {
    const row = (await MessagingSetting.findOne({ where: { customerId, channel } }))!;
    return { config: row.config, secretEncrypted: row.secretEncrypted, updatedAt: row.updatedAt.getTime() };
  };

  describe('a stored secret goes nowhere new unless it is sent again', () => {
    let legit: TwilioSink;
    let attacker: TwilioSink;
    beforeAll(async () => {
      legit = await startTwilioServer();
      attacker = await startTwilioServer();
    });
    afterAll(async () => {
      await legit.close();
      await attacker.close();
    });

    const SID = 'AC0123456789abcdef0123456789abcdef';
    const basic = (sid: string, token: string) => `Basic ${Buffer.from(`${sid}:${token}`).toString('base64')}`;

    it('refuses a new SMS base URL or account sid without the auth token (422 auth_token), changes nothing, sends nothing there', async () => {
      const w = await makeWorld();
      await gql(w.tokens.orgOwner, SET_SMS, { input: { accountSid: SID, authToken: 'REAL-AUTH-TOKEN', fromNumber: '+15005550006', baseUrl: legit.url } });
      const before = await rowOf(w.org.customerId, 'sms');

      const moved = await gql(w.tokens.orgOwner, SET_SMS, { input: { accountSid: SID, fromNumber: '+15005550006', baseUrl: attacker.url } });
      expect(moved.data ?? null).toBeNull();
      expect(moved.errors![0].extensions.code).toBe('VALIDATION');
      expect(moved.errors![0].extensions.fields).toEqual({ auth_token: ['The auth token must be sent again when the account sid or the base URL changes.'] });
      expect(moved.errors![0].message).toBe('The auth token must be sent again when the account sid or the base URL changes.');
      const otherSid = await gql(w.tokens.orgOwner, SET_SMS, { input: { accountSid: 'ACattacker', fromNumber: '+15005550006', baseUrl: legit.url } });
      expect(otherSid.errors![0].extensions.fields).toEqual({ auth_token: ['The auth token must be sent again when the account sid or the base URL changes.'] });
      const toDefault = await gql(w.tokens.orgOwner, SET_SMS, { input: { accountSid: SID, fromNumber: '+15005550006' } });
      expect(Object.keys(toDefault.errors![0].extensions.fields!)).toEqual(['auth_token']);
      expect(await rowOf(w.org.customerId, 'sms')).toEqual(before);

      const sent = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'sms', to: '+14155550190' } });
      expect(sent.data!.sendTestMessage).toMatchObject({ sender: 'SMS provider' });
      expect(legit.requests.at(-1)!.authorization).toBe(basic(SID, 'REAL-AUTH-TOKEN'));
      expect(attacker.requests).toHaveLength(0);
    });

    it('keeps the SMS auth token when the destination stays (a new sender number), and takes a new destination with a new token', async () => {
      const w = await makeWorld();
      await gql(w.tokens.orgOwner, SET_SMS, { input: { accountSid: SID, authToken: 'REAL-AUTH-TOKEN', fromNumber: '+15005550006', baseUrl: legit.url } });
      const kept = await gql(w.tokens.orgOwner, SET_SMS, { input: { accountSid: SID, fromNumber: '+15005550007', baseUrl: `${legit.url}/` } });
      expect(kept.data!.setSmsSettings).toEqual({ channel: 'sms', configured: true, hasPassword: true, sms: { accountSid: SID, fromNumber: '+15005550007', baseUrl: legit.url } });
      await gql(w.tokens.orgOwner, TEST, { input: { channel: 'sms', to: '+14155550191' } });
      expect(legit.to('+14155550191')[0]).toMatchObject({ from: '+15005550007' });
      expect(legit.requests.at(-1)!.authorization).toBe(basic(SID, 'REAL-AUTH-TOKEN'));

      const moved = await gql(w.tokens.orgOwner, SET_SMS, { input: { accountSid: 'ACother', authToken: 'OTHER-TOKEN', fromNumber: '+15005550007', baseUrl: attacker.url } });
      expect(moved.data!.setSmsSettings).toMatchObject({ hasPassword: true, sms: { accountSid: 'ACother', baseUrl: attacker.url } });
      const row = (await MessagingSetting.findOne({ where: { customerId: w.org.customerId, channel: 'sms' } }))!;
      expect(decryptSecret(row.secretEncrypted!)).toBe('OTHER-TOKEN');
    });

    it('refuses a new SMTP host, port, TLS mode or username without the password (422 password), changes nothing, connects nowhere new', async () => {
      const w = await makeWorld();
      const real = await startAuthSmtpServer();
      const evil = await startAuthSmtpServer();
      try {
        const base = { host: '127.0.0.1', port: real.port, secure: false, username: 'mailer', fromEmail: 'reviews@smiles.test', fromName: 'Bright Smiles' };
        const set = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { ...base, password: 'REAL-SMTP-PASS' } });
        expect(set.data!.setEmailSettings).toMatchObject({ hasPassword: true });
        const before = await rowOf(w.org.customerId, 'email');

        const message = 'The password must be sent again when the host, port, TLS mode or username changes.';
        for (const change of [{ port: evil.port }, { host: 'localhost', port: evil.port }, { host: '127.0.0.2' }, { username: 'attacker' }, { username: null }, { secure: true }]) {
          const res = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { ...base, ...change } });
          expect([change, res.errors?.[0]?.extensions.code]).toEqual([change, 'VALIDATION']);
          expect(res.errors![0].extensions.fields).toEqual({ password: [message] });
          expect(res.errors![0].message).toBe(message);
        }
        expect(await rowOf(w.org.customerId, 'email')).toEqual(before);

        const to = `someone-${randomUUID().slice(0, 6)}@example.test`;
        const sent = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'email', to } });
        expect(sent.data!.sendTestMessage).toMatchObject({ sender: 'account SMTP' });
        expect(real.logins).toContainEqual({ username: 'mailer', password: 'REAL-SMTP-PASS' });
        expect(evil.connections).toBe(0);
        expect(evil.logins).toHaveLength(0);
      } finally {
        closeSmtpPools();
        await real.close();
        await evil.close();
      }
    });

    it('keeps the SMTP password when the destination stays (a new sender address and name)', async () => {
      const w = await makeWorld();
      const base = { host: '127.0.0.1', port: 2525, secure: false, username: 'mailer', fromEmail: 'reviews@smiles.test' };
      await gql(w.tokens.orgOwner, SET_EMAIL, { input: { ...base, password: 'REAL-SMTP-PASS' } });
      const kept = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { ...base, fromEmail: 'hello@smiles.test', fromName: 'New Name' } });
      expect(kept.data!.setEmailSettings).toMatchObject({ hasPassword: true, email: { host: '127.0.0.1', port: 2525, username: 'mailer', fromEmail: 'hello@smiles.test', fromName: 'New Name' } });
      const row = (await MessagingSetting.findOne({ where: { customerId: w.org.customerId, channel: 'email' } }))!;
      expect(decryptSecret(row.secretEncrypted!)).toBe('REAL-SMTP-PASS');
      // A new destination with its password, or with the password removed, is taken.
      const moved = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { ...base, port: 2526, password: 'NEW-PASS' } });
      expect(moved.data!.setEmailSettings).toMatchObject({ hasPassword: true, email: { port: 2526 } });
      const removed = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { ...base, port: 2527, password: '' } });
      expect(removed.data!.setEmailSettings).toMatchObject({ hasPassword: false, email: { port: 2527 } });
      // Nothing stored to keep: any destination.
      const open = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { ...base, port: 2528 } });
      expect(open.data!.setEmailSettings).toMatchObject({ hasPassword: false, email: { port: 2528 } });
    });
  });

  describe("the platform's mail server sends test mail only to the account's own users", () => {
    const REFUSAL =
      "Without the account's own SMTP server, a test email can only go to a user of this account (for example your own email address). Set up the account's SMTP server to send it to other addresses.";

    it('refuses any other address with 422 on to, and sends nothing', async () => {
      const w = await makeWorld();
      const stranger = `victim-${randomUUID().slice(0, 6)}@example.test`;
      const res = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'email', to: stranger } });
      expect(res.data ?? null).toBeNull();
      expect(res.errors![0].extensions).toMatchObject({ code: 'VALIDATION', fields: { to: [REFUSAL] } });
      expect(res.errors![0].message).toBe(REFUSAL);
      // A user of another account of the same tenant (the tenant owner's own workspace) is not one of this account's.
      const otherAccount = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'email', to: w.owner.email } });
      expect(otherAccount.errors![0].extensions.fields).toEqual({ to: [REFUSAL] });
      await new Promise((r) => setTimeout(r, 200));
      expect(sink().to(stranger)).toHaveLength(0);
      expect(sink().to(w.owner.email)).toHaveLength(0);
    });

    it("sends to the caller's own address (any case) and to another user of the account", async () => {
      const w = await makeWorld();
      const own = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'email', to: w.orgOwner.email.toUpperCase() } });
      expect(own.data!.sendTestMessage).toMatchObject({ channel: 'email', to: w.orgOwner.email.toLowerCase(), sender: 'platform mail' });
      const teammate = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'email', to: w.member.email } });
      expect(teammate.data!.sendTestMessage).toMatchObject({ to: w.member.email, sender: 'platform mail' });
      await sink().waitFor(2);
      expect(sink().to(w.orgOwner.email)).toHaveLength(1);
      expect(sink().to(w.member.email)).toHaveLength(1);
    });

    it("sends to any address through the account's own SMTP server", async () => {
      const w = await makeWorld();
      const own = await startAuthSmtpServer();
      try {
        await gql(w.tokens.orgOwner, SET_EMAIL, { input: { host: '127.0.0.1', port: own.port, secure: false, fromEmail: 'reviews@smiles.test' } });
        const res = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'email', to: `anyone-${randomUUID().slice(0, 6)}@example.test` } });
        expect(res.data!.sendTestMessage).toMatchObject({ sender: 'account SMTP' });
        expect(own.messages).toBe(1);
      } finally {
        closeSmtpPools();
        await own.close();
      }
    });
  });

  it("reads at most 64 KB of the account's own SMS API's answer: an endless body is cut off, the test message 502 provider_rejected", async () => {
    const endless = await startBigAnswerServer({ status: 400 });
    try {
      const w = await makeWorld();
      await gql(w.tokens.orgOwner, SET_SMS, { input: { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'x', fromNumber: '+15005550006', baseUrl: endless.url } });
      const res = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'sms', to: '+14155550190' } });
      expect(res.data ?? null).toBeNull();
      expect(res.errors![0].extensions).toMatchObject({ code: 'UPSTREAM', reason: 'provider_rejected' });
      expect(res.errors![0].message).toMatch(/refused the message \(400\): HTTP 400 \(an answer over 64 KB, not read\)/);
      // The connection was closed long before the server had sent its 64 MB.
      const end = await endless.lastEnd();
      expect(end.finished).toBe(false);
      expect(end.sent).toBeLessThan(endless.total / 2);
    } finally {
      await endless.close();
    }
  });

  it('refuses a 200,000-character address with the length error, before the address pattern reads it', async () => {
    const w = await makeWorld();
    // Many dots after the @ and no way to end well: the pattern's backtracking is quadratic on this.
    const to = `a@${'b.'.repeat(99_998)}b@`;
    expect(to).toHaveLength(200_000);
    const started = Date.now();
    const res = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'email', to } });
    expect(res.errors![0].extensions).toMatchObject({ code: 'VALIDATION', fields: { to: ['The to field may not be greater than 255 characters.'] } });
    expect(Date.now() - started).toBeLessThan(3000);
    // The sender address of the SMTP settings too.
    const from = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { host: '127.0.0.1', fromEmail: to } });
    expect(from.errors![0].extensions.fields).toEqual({ from_email: ['The from email may not be greater than 255 characters.'] });
  });
});
