import { randomUUID } from 'node:crypto';
import { contactUuidOfUnsubscribeToken, reviewLinkOf, unsubscribeLinkOf, unsubscribeTokenOf } from '../../src/messaging/links';
import { classifySmtpError, smtpSender, platformEmailSender } from '../../src/providers/smtp/account-sender';
import { SMTP_SEND_DEADLINE_MS, SMTP_TIMEOUTS } from '../../src/providers/smtp/platform-mailer';
import { MAIL_THREAD_GRACE_MS } from '../../src/providers/smtp/mail-thread';
import { inviteDeliverySettings } from '../../src/messaging/settings';
import { renderEmail, renderText } from '../../src/messaging/templates';
import { twilioSender } from '../../src/providers/twilio/client';
import { MessagingRejected, MessagingUnavailable } from '../../src/messaging/types';
import { MAX_PROVIDER_RETRY_AFTER_MS } from '../../src/providers/http';
import { startSilentSmtpServer, startSmtpServer, useSmtpServer } from '../support/providers/smtp';
import { startTwilioServer, type TwilioSink } from '../support/providers/twilio';
import { waitUntil } from '../support/wait';
import { rawHeader } from './fixtures';

/** The pieces every review request is made of: its links, its text, and the channel senders on real local servers. */
describe('review-request links', () => {
  const saved = process.env.PUBLIC_URL;
  beforeAll(() => {
    process.env.PUBLIC_URL = 'https://reviews.agency.test';
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = saved;
  });

  it('builds the review link on PUBLIC_URL from the invite uuid', () => {
    const uuid = randomUUID();
    expect(reviewLinkOf(uuid)).toBe(`https://reviews.agency.test/r/${uuid}`);
  });

  it('follows PUBLIC_URL and PORT as they change (read per message, answered from memory while they stay)', () => {
    const uuid = randomUUID();
    const savedPort = process.env.PORT;
    try {
      process.env.PUBLIC_URL = 'https://other.agency.test/';
      expect(reviewLinkOf(uuid)).toBe(`https://other.agency.test/r/${uuid}`);
      delete process.env.PUBLIC_URL;
      process.env.PORT = '4123';
      expect(reviewLinkOf(uuid)).toBe(`http://127.0.0.1:4123/r/${uuid}`);
      process.env.PORT = '4124';
      expect(reviewLinkOf(uuid)).toBe(`http://127.0.0.1:4124/r/${uuid}`);
    } finally {
      process.env.PUBLIC_URL = 'https://reviews.agency.test';
      if (savedPort === undefined) delete process.env.PORT;
      else process.env.PORT = savedPort;
    }
    expect(reviewLinkOf(uuid)).toBe(`https://reviews.agency.test/r/${uuid}`);
  });

  it('gives each contact an unsubscribe token that names it and checks out', () => {
    const uuid = randomUUID();
    const link = unsubscribeLinkOf(uuid);
    expect(link).toMatch(/^https:\/\/reviews\.agency\.test\/u\/[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/);
    const token = link.split('/u/')[1];
    expect(token).toBe(unsubscribeTokenOf(uuid));
    expect(contactUuidOfUnsubscribeToken(token)).toBe(uuid);
  });

  it('refuses forged, edited and malformed tokens', () => {
    const a = unsubscribeTokenOf(randomUUID());
    const b = unsubscribeTokenOf(randomUUID());
    // Contact part of one token with the MAC of another.
    expect(contactUuidOfUnsubscribeToken(`${a.split('.')[0]}.${b.split('.')[1]}`)).toBeNull();
    const flipped = a.slice(0, -1) + (a.endsWith('A') ? 'B' : 'A');
    expect(contactUuidOfUnsubscribeToken(flipped)).toBeNull();
    for (const bad of ['', 'x', `${a}.x`, a.replace('.', ''), 'a'.repeat(45)]) expect(contactUuidOfUnsubscribeToken(bad)).toBeNull();
  });
});

describe('review-request templates', () => {
  const values = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    businessName: 'Bright Smiles',
    reviewLink: 'https://reviews.agency.test/r/abc',
    unsubscribeLink: 'https://reviews.agency.test/u/tok',
  };

  it('fills the placeholders and always carries the review link, a visible unsubscribe link and the RFC 8058 headers', () => {
    const mail = renderEmail({ subject: 'How was {business_name}, {first_name}?', body: 'Hi {first_name}, thanks for visiting!' }, values);
    expect(mail.subject).toBe('How was Bright Smiles, Ada?');
    expect(mail.body).toContain('Hi Ada, thanks for visiting!');
    expect(mail.body).toContain(values.reviewLink);
    expect(mail.body).toContain(`Unsubscribe: ${values.unsubscribeLink}`);
    expect(mail.html).toContain(`<a href="${values.reviewLink}">`);
    expect(mail.html).toContain(`<a href="${values.unsubscribeLink}">Unsubscribe</a>`);
    expect(mail.headers).toEqual({ 'List-Unsubscribe': `<${values.unsubscribeLink}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });

  it('escapes the HTML part', () => {
    const mail = renderEmail({ body: '<script>x</script> {review_link}' }, { ...values, businessName: 'A & B' });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.html).toContain('A &amp; B');
  });

  it('ends an SMS with the opt-out text and the unsubscribe link', () => {
    const sms = renderText({ body: 'Hi {first_name}! Rate us: {review_link}' }, { ...values, firstName: null });
    expect(sms.body).toBe(`Hi there! Rate us: ${values.reviewLink}\nReply STOP to opt out or unsubscribe: ${values.unsubscribeLink}`);
  });
});

describe('channel senders', () => {
  const sink = useSmtpServer();

  it('sends email through an SMTP server with nodemailer, headers included', async () => {
    const sender = smtpSender({ host: '127.0.0.1', port: sink().port, secure: false, username: null, password: null, fromEmail: 'reviews@smiles.test', fromName: 'Bright "Smiles"' });
    const to = `p-${randomUUID().slice(0, 6)}@example.test`;
    const receipt = await sender.send({ to, subject: 'Hello', body: 'Text', html: '<p>Text</p>', headers: { 'List-Unsubscribe': '<https://x.test/u/t>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } });
    expect(receipt.providerMessageId).toMatch(/@/);
    await sink().waitFor(1);
    const [mail] = sink().to(to);
    expect(mail.from?.value[0]).toEqual({ address: 'reviews@smiles.test', name: 'Bright Smiles' });
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(rawHeader(mail, 'List-Unsubscribe')).toBe('<https://x.test/u/t>');
  });

  it('sends through the installation mailer (SMTP_URL) when the account has no SMTP settings', async () => {
    const to = `q-${randomUUID().slice(0, 6)}@example.test`;
    const receipt = await platformEmailSender('Bright Smiles').send({ to, subject: 'Hi', body: 'Text', headers: { 'List-Unsubscribe': '<https://x.test/u/t>' } });
    expect(receipt.status).toBe('accepted');
    await waitUntil(async () => sink().to(to).length > 0, 10_000, 20);
    const [mail] = sink().to(to);
    expect(mail.from?.value[0].name).toBe('Bright Smiles');
    expect(mail.headers.get('x-mail-kind')).toBe('review-request');
    expect(rawHeader(mail, 'List-Unsubscribe')).toBe('<https://x.test/u/t>');
  });

  it('reports an SMTP 5xx refusal as MessagingRejected and an unreachable server as MessagingUnavailable', async () => {
    const rejecting = await startSmtpServer({ reject: true });
    try {
      const sender = smtpSender({ host: '127.0.0.1', port: rejecting.port, secure: false, username: null, password: null, fromEmail: 'a@b.test', fromName: null });
      await expect(sender.send({ to: 'x@example.test', subject: 's', body: 'b' })).rejects.toBeInstanceOf(MessagingRejected);
    } finally {
      await rejecting.close();
    }
    const down = smtpSender({ host: '127.0.0.1', port: 1, secure: false, username: null, password: null, fromEmail: 'a@b.test', fromName: null });
    await expect(down.send({ to: 'x@example.test', subject: 's', body: 'b' })).rejects.toBeInstanceOf(MessagingUnavailable);
  });

  describe("an account's SMTP server that stops answering (the platform mailer's bounds)", () => {
    const LONG = 60_000;
    const account = (port: number) => ({ host: '127.0.0.1', port, secure: false, username: null, password: null, fromEmail: 'a@b.test', fromName: null });

    it('gives up on a server that greets and then goes silent, on the send deadline, as MessagingUnavailable (sent again later)', async () => {
      const silent = await startSilentSmtpServer('220 silent.test ESMTP\r\n');
      try {
        // Only the deadline is short: the timeouts of each phase would let the send hang on for a minute.
        const sender = smtpSender(account(silent.port), { connectionTimeout: LONG, greetingTimeout: LONG, socketTimeout: LONG, sendDeadlineMs: 200 });
        const e = await sender.send({ to: 'x@example.test', subject: 's', body: 'b' }).then(() => null, (err: unknown) => err);
        expect(e).toBeInstanceOf(MessagingUnavailable);
        expect((e as Error).message).toContain('(EABORT)');
      } finally {
        await silent.close();
      }
    });

    it('has the same timeouts on each phase (a server that greets and goes silent fails on the socket timeout)', async () => {
      const silent = await startSilentSmtpServer('220 silent.test ESMTP\r\n');
      try {
        const sender = smtpSender(account(silent.port), { connectionTimeout: LONG, greetingTimeout: LONG, socketTimeout: 200, sendDeadlineMs: LONG });
        const e = await sender.send({ to: 'x@example.test', subject: 's', body: 'b' }).then(() => null, (err: unknown) => err);
        expect(e).toBeInstanceOf(MessagingUnavailable);
        expect((e as Error).message).toContain('(ETIMEDOUT)');
      } finally {
        await silent.close();
      }
    });

    it('sorts an aborted send as unavailable, not refused, and keeps the deadline under the dispatcher\'s in-flight grace', () => {
      const aborted = Object.assign(new Error('Message sending aborted'), { name: 'AbortError', code: 'EABORT' });
      expect(classifySmtpError(aborted)).toBeInstanceOf(MessagingUnavailable);
      // A pool closed with the message still queued sent nothing: offered again, not refused.
      expect(classifySmtpError(new Error('Connection pool was closed'))).toBeInstanceOf(MessagingUnavailable);
      // A step claimed longer ago than the grace is taken for an attempt that died: a send must have ended by then.
      expect(SMTP_SEND_DEADLINE_MS + MAIL_THREAD_GRACE_MS).toBeLessThan(inviteDeliverySettings().inFlightGraceMs);
      for (const timeout of Object.values(SMTP_TIMEOUTS)) expect(timeout).toBeLessThan(SMTP_SEND_DEADLINE_MS);
    });
  });

  describe('Twilio-style SMS client', () => {
    let twilio: TwilioSink;
    beforeAll(async () => {
      twilio = await startTwilioServer();
    });
    afterAll(() => twilio.close());
    const account = () => ({ accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'secret-token', fromNumber: '+15005550006', baseUrl: twilio.url });

    it('POSTs form-encoded To/From/Body with basic auth and answers the sid', async () => {
      const receipt = await twilioSender(account(), 'sms').send({ to: '+14155550123', body: 'Hello' });
      expect(receipt.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
      expect(receipt.status).toBe('queued');
      const req = twilio.requests.at(-1)!;
      expect(req.path).toBe('/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json');
      expect(req.authorization).toBe(`Basic ${Buffer.from('AC0123456789abcdef0123456789abcdef:secret-token').toString('base64')}`);
      expect(req.body).toEqual({ To: '+14155550123', From: '+15005550006', Body: 'Hello' });
    });

    it('prefixes both addresses with whatsapp: on the messaging channel', async () => {
      await twilioSender(account(), 'messaging').send({ to: '+14155550124', body: 'Hello' });
      expect(twilio.requests.at(-1)!.body).toMatchObject({ To: 'whatsapp:+14155550124', From: 'whatsapp:+15005550006' });
      expect(twilio.to('whatsapp:+14155550124')).toHaveLength(1);
    });

    it('turns a Twilio error into MessagingRejected (4xx) or MessagingUnavailable (429, 5xx)', async () => {
      twilio.refuseNext({ status: 400, code: 21610, message: 'Attempt to send to unsubscribed recipient' });
      const refused = twilioSender(account(), 'sms').send({ to: '+14155550125', body: 'Hello' });
      await expect(refused).rejects.toThrow(/refused the message \(400, code 21610\): Attempt to send to unsubscribed recipient/);
      await expect(twilioSender(account(), 'sms').send({ to: 'not-a-number', body: 'x' })).rejects.toBeInstanceOf(MessagingRejected);
      await expect(twilioSender({ ...account(), authToken: '' }, 'sms').send({ to: '+14155550125', body: 'x' })).rejects.toThrow(/401, code 20003/);
      twilio.refuseNext({ status: 503, code: 20500, message: 'Service unavailable' });
      await expect(twilioSender(account(), 'sms').send({ to: '+14155550125', body: 'x' })).rejects.toBeInstanceOf(MessagingUnavailable);
      await expect(twilioSender({ ...account(), baseUrl: 'http://127.0.0.1:1' }, 'sms').send({ to: '+14155550125', body: 'x' })).rejects.toBeInstanceOf(MessagingUnavailable);
    });

    it("waits a 429's Retry-After, at most 5 minutes (a provider asking for a day does not put a request off by a day)", async () => {
      const busy = async (retryAfter: number) => {
        twilio.refuseNext({ status: 429, code: 20429, message: 'Too Many Requests', retryAfter });
        const e = await twilioSender(account(), 'sms').send({ to: '+14155550126', body: 'x' }).catch((err: unknown) => err);
        expect(e).toBeInstanceOf(MessagingUnavailable);
        return (e as MessagingUnavailable).retryAfterMs;
      };
      expect(await busy(20)).toBe(20_000);
      expect(await busy(86_400)).toBe(MAX_PROVIDER_RETRY_AFTER_MS);
      expect(MAX_PROVIDER_RETRY_AFTER_MS).toBe(300_000);
    });

    it('lists what it received with GET Messages.json, newest first', async () => {
      const res = await fetch(`${twilio.url}/2010-04-01/Accounts/AC0123456789abcdef0123456789abcdef/Messages.json`, {
        headers: { Authorization: `Basic ${Buffer.from('AC0123456789abcdef0123456789abcdef:secret-token').toString('base64')}` },
      });
      const body = (await res.json()) as { messages: Array<{ to: string }> };
      expect(res.status).toBe(200);
      expect(body.messages[0].to).toBe('whatsapp:+14155550124');
      expect(body.messages.at(-1)!.to).toBe('+14155550123');
    });
  });
});
