import { randomUUID } from 'node:crypto';
import { MessagingSetting } from '../../src/models';
import { makeWorld, tokenFor, without } from '../support/factories';
import { useMessagingWorld } from '../support/messaging-world';
import { withSmtpGone } from '../support/providers/smtp';

/**
 * The account's own sending accounts for review requests through GraphQL: read (secrets never returned), set,
 * clear per channel, and the test message; account owners only.
 */
describe('GraphQL messaging settings', () => {
  // The test servers are on loopback; a test switches the SMS simulator and PUBLIC_URL.
  const { sink, env, gql, twilio } = useMessagingWorld(['PUBLIC_URL']);

  const SETTINGS = '{ messagingSettings { channel configured fallback hasPassword email { host port secure username fromEmail fromName } sms { accountSid fromNumber baseUrl } } }';
  const SET_EMAIL = 'mutation($input: EmailSettingsInput!) { setEmailSettings(input: $input) { channel configured hasPassword email { host port secure username fromEmail fromName } } }';
  const SET_SMS = 'mutation($input: SmsSettingsInput!) { setSmsSettings(input: $input) { channel configured hasPassword sms { accountSid fromNumber baseUrl } } }';
  const TEST = 'mutation($input: TestMessageInput!) { sendTestMessage(input: $input) { channel to sender providerMessageId } }';

  it('lists one entry per channel with its fallback while nothing is configured', async () => {
    const w = await makeWorld();
    const res = await gql(w.tokens.orgOwner, SETTINGS);
    expect(res.data!.messagingSettings).toEqual([
      { channel: 'email', configured: false, fallback: 'platform_mail', hasPassword: false, email: null, sms: null },
      { channel: 'sms', configured: false, fallback: null, hasPassword: false, email: null, sms: null },
      { channel: 'messaging', configured: false, fallback: null, hasPassword: false, email: null, sms: null },
    ]);
  });

  it('stores SMTP settings with the password encrypted and never returns it; null keeps it (same server and user), "" removes it', async () => {
    const w = await makeWorld();
    const input = { host: 'SMTP.Example.com', port: 587, username: 'mailer', password: 'smtp-secret-123', fromEmail: 'Reviews@Smiles.test', fromName: 'Bright Smiles' };
    const set = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { ...input, host: '127.0.0.1' } });
    expect(set.data!.setEmailSettings).toEqual({
      channel: 'email',
      configured: true,
      hasPassword: true,
      email: { host: '127.0.0.1', port: 587, secure: false, username: 'mailer', fromEmail: 'reviews@smiles.test', fromName: 'Bright Smiles' },
    });
    const listed = await gql(w.tokens.orgOwner, SETTINGS);
    expect(JSON.stringify(listed)).not.toContain('smtp-secret-123');
    const row = (await MessagingSetting.findOne({ where: { customerId: w.org.customerId, channel: 'email' } }))!;
    expect(row.secretEncrypted).toMatch(/^v2\./);
    expect(JSON.stringify(row.config)).not.toContain('smtp-secret-123');

    const kept = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { host: '127.0.0.1', port: 587, username: 'mailer', fromEmail: 'hello@smiles.test' } });
    expect(kept.data!.setEmailSettings).toMatchObject({ hasPassword: true, email: { port: 587, secure: false, username: 'mailer', fromEmail: 'hello@smiles.test' } });
    // Another port (or host, TLS mode, user name) takes the password again (test/invites/messaging-settings-security.test.ts).
    const moved = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { host: '127.0.0.1', port: 465, fromEmail: 'reviews@smiles.test' } });
    expect(moved.errors![0].extensions.fields).toEqual({ password: ['The password must be sent again when the host, port, TLS mode or username changes.'] });
    const removed = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { host: '127.0.0.1', fromEmail: 'reviews@smiles.test', password: '' } });
    expect(removed.data!.setEmailSettings).toMatchObject({ hasPassword: false, email: { port: 587, secure: false } });

    const cleared = await gql(w.tokens.orgOwner, 'mutation { clearMessagingSettings(channel: "email") { channel configured hasPassword } }');
    expect(cleared.data!.clearMessagingSettings).toEqual({ channel: 'email', configured: false, hasPassword: false });
    expect(await MessagingSetting.count({ where: { customerId: w.org.customerId } })).toBe(0);
  });

  it('validates the settings with field errors', async () => {
    const w = await makeWorld();
    const email = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { host: 'not a host!', port: 70000, fromEmail: 'nope' } });
    expect(email.errors![0].extensions.code).toBe('VALIDATION');
    expect(Object.keys(email.errors![0].extensions.fields!).sort()).toEqual(['from_email', 'host', 'port']);
    const sms = await gql(w.tokens.orgOwner, SET_SMS, { input: { accountSid: 'AC123', fromNumber: '555-1234' } });
    expect(sms.errors![0].extensions.fields).toEqual({
      from_number: ['The from number must be a valid phone number in E.164 format (for example +14155552671).'],
      auth_token: ['The auth token field is required.'],
    });
    const channel = await gql(w.tokens.orgOwner, SET_SMS, { input: { channel: 'email', accountSid: 'AC123', authToken: 'x', fromNumber: '+15005550006' } });
    expect(channel.errors![0].extensions.fields).toEqual({ channel: ['The channel must be one of: sms, messaging.'] });
  });

  it('refuses provider addresses on private networks unless WEBHOOK_ALLOW_PRIVATE_URLS allows them', async () => {
    const w = await makeWorld();
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'false';
    try {
      const sms = await gql(w.tokens.orgOwner, SET_SMS, { input: { accountSid: 'AC123', authToken: 'tok', fromNumber: '+15005550006', baseUrl: 'http://169.254.169.254' } });
      expect(sms.errors![0].extensions).toMatchObject({ code: 'VALIDATION', reason: 'private_address' });
      expect(Object.keys(sms.errors![0].extensions.fields!)).toEqual(['base_url']);
      const email = await gql(w.tokens.orgOwner, SET_EMAIL, { input: { host: '127.0.0.1', fromEmail: 'a@b.test' } });
      expect(email.errors![0].extensions).toMatchObject({ code: 'VALIDATION', reason: 'private_address' });
    } finally {
      process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true';
    }
  });

  it('lets only account owners in: team members and tokens without organizations:update are FORBIDDEN', async () => {
    const w = await makeWorld();
    const member = await gql(w.tokens.member, SETTINGS);
    expect(member.errors![0].extensions.code).toBe('FORBIDDEN');
    const readOnly = await tokenFor(w.orgOwner, without('organizations:update'));
    expect((await gql(readOnly, SETTINGS)).data!.messagingSettings).toHaveLength(3);
    const write = await gql(readOnly, SET_EMAIL, { input: { host: '127.0.0.1', fromEmail: 'a@b.test' } });
    expect(write.errors![0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'missing_permission' });
  });

  it("says that the platform's mail could not be reached without naming its relay (address and port stay in the log)", async () => {
    const { port, result: res } = await withSmtpGone(async () => {
      const w = await makeWorld();
      return gql(w.tokens.orgOwner, TEST, { input: { channel: 'email', to: w.orgOwner.email } });
    });
    expect(res.errors![0].extensions).toMatchObject({ code: 'UPSTREAM', reason: 'provider_unavailable' });
    expect(res.errors![0].message).toMatch(/^The mail server could not be reached \(E[A-Z]+\): details are in the platform log$/);
    expect(res.errors![0].message).not.toContain(String(port));
  });


  it("sends a test email through the account's SMTP server", async () => {
    const w = await makeWorld();
    await gql(w.tokens.orgOwner, SET_EMAIL, { input: { host: '127.0.0.1', port: sink().port, secure: false, fromEmail: 'reviews@smiles.test', fromName: 'Bright Smiles' } });
    const to = `owner-${randomUUID().slice(0, 6)}@example.test`;
    const res = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'email', to } });
    expect(res.data!.sendTestMessage).toMatchObject({ channel: 'email', to, sender: 'account SMTP' });
    await sink().waitFor(1);
    const [mail] = sink().to(to);
    expect(mail.from?.value[0]).toEqual({ address: 'reviews@smiles.test', name: 'Bright Smiles' });
    expect(mail.text).toContain('review requests by email are set up correctly');
  });

  it("sends a test SMS through the account's Twilio-style account, and reports its refusal as 502 provider_rejected", async () => {
    const w = await makeWorld();
    const set = await gql(w.tokens.orgOwner, SET_SMS, { input: { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'twilio-secret', fromNumber: '+15005550006', baseUrl: twilio().url } });
    expect(set.data!.setSmsSettings).toEqual({ channel: 'sms', configured: true, hasPassword: true, sms: { accountSid: 'AC0123456789abcdef0123456789abcdef', fromNumber: '+15005550006', baseUrl: twilio().url } });
    expect(JSON.stringify(await gql(w.tokens.orgOwner, SETTINGS))).not.toContain('twilio-secret');

    const res = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'sms', to: '+14155550177' } });
    expect(res.data!.sendTestMessage).toMatchObject({ channel: 'sms', to: '+14155550177', sender: 'SMS provider', providerMessageId: expect.stringMatching(/^SM/) });
    expect(twilio().to('+14155550177')[0]).toMatchObject({ from: '+15005550006', account_sid: 'AC0123456789abcdef0123456789abcdef' });
    expect(twilio().requests.at(-1)!.authorization).toBe(`Basic ${Buffer.from('AC0123456789abcdef0123456789abcdef:twilio-secret').toString('base64')}`);

    twilio().refuseNext({ status: 400, code: 21211, message: "The 'To' number is not a valid phone number." });
    const refused = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'sms', to: '+14155550178' } });
    expect(refused.errors![0].extensions).toMatchObject({ code: 'UPSTREAM', reason: 'provider_rejected' });
    expect(refused.errors![0].message).toContain('code 21211');

    const invalid = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'sms', to: '12345' } });
    expect(invalid.errors![0].extensions.fields).toEqual({ to: ['The to field must be a valid phone number in E.164 format (for example +14155552671).'] });
  });

  it('answers sms_not_configured without SMS settings, and uses the Twilio simulator when SMS_SIMULATOR is on', async () => {
    const w = await makeWorld();
    const off = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'sms', to: '+14155550179' } });
    expect(off.errors![0].extensions).toMatchObject({ code: 'VALIDATION', reason: 'sms_not_configured' });

    process.env.SMS_SIMULATOR = 'true';
    process.env.PUBLIC_URL = twilio().url; // the test server also answers under /simulators/twilio
    try {
      const listed = await gql(w.tokens.orgOwner, SETTINGS);
      expect((listed.data!.messagingSettings as Array<{ fallback: string | null }>)[1].fallback).toBe('simulator');
      const on = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'messaging', to: '+14155550179' } });
      expect(on.data!.sendTestMessage).toMatchObject({ channel: 'messaging', sender: 'SMS simulator' });
      expect(twilio().to('whatsapp:+14155550179')).toHaveLength(1);
      expect(twilio().requests.at(-1)!.path).toBe('/simulators/twilio/2010-04-01/Accounts/AC00000000000000000000000000000000/Messages.json');
    } finally {
      process.env.SMS_SIMULATOR = 'false';
      const publicUrl = env.before('PUBLIC_URL');
      if (publicUrl === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = publicUrl;
    }
  });
});
