import { randomUUID } from 'node:crypto';
import { CATALOGUES } from '../../src/i18n';
import { Customer } from '../../src/models';
import { makeWorld } from '../support/factories';
import { useMessagingWorld } from '../support/messaging-world';

/** The messaging settings' test message (GraphQL `sendTestMessage`) speaks the account's language, as its other mail. */
describe('the test message in the account language', () => {
  const { sink, gql, twilio } = useMessagingWorld();
  const SET_EMAIL = 'mutation($input: EmailSettingsInput!) { setEmailSettings(input: $input) { channel } }';
  const SET_SMS = 'mutation($input: SmsSettingsInput!) { setSmsSettings(input: $input) { channel } }';
  const TEST = 'mutation($input: TestMessageInput!) { sendTestMessage(input: $input) { channel to } }';

  async function spanishAccount() {
    const w = await makeWorld();
    await Customer.update({ language: 'es' }, { where: { id: w.org.customerId } });
    return w;
  }

  it("sends a Spanish account's test email with a Spanish subject and body", async () => {
    const w = await spanishAccount();
    await gql(w.tokens.orgOwner, SET_EMAIL, { input: { host: '127.0.0.1', port: sink().port, secure: false, fromEmail: 'reviews@smiles.test' } });
    const to = `owner-${randomUUID().slice(0, 6)}@example.test`;
    const res = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'email', to } });
    expect(res.errors).toBeUndefined();
    await sink().waitFor(1);
    const [mail] = sink().to(to);
    expect(mail.subject).toBe(CATALOGUES.es.invite.testSubject.replace('{{business}}', w.org.name));
    expect(mail.text!.trim()).toBe(CATALOGUES.es.invite.testBody.email.replace('{{business}}', w.org.name));
    expect(mail.text).not.toMatch(/test message|set up correctly/i);
  });

  it("sends a Spanish account's test SMS in Spanish", async () => {
    const w = await spanishAccount();
    await gql(w.tokens.orgOwner, SET_SMS, { input: { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'twilio-secret', fromNumber: '+15005550006', baseUrl: twilio().url } });
    const res = await gql(w.tokens.orgOwner, TEST, { input: { channel: 'sms', to: '+14155550181' } });
    expect(res.errors).toBeUndefined();
    const [sms] = twilio().to('+14155550181');
    expect(sms.body).toBe(CATALOGUES.es.invite.testBody.sms.replace('{{business}}', w.org.name));
  });
});
