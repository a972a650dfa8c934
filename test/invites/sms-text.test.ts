import { randomUUID } from 'node:crypto';
import type { FieldErrors } from '../../src/domain/errors';
import { CATALOGUES, UI_LANGUAGES } from '../../src/i18n';
import { sendInviteStep } from '../../src/messaging/delivery';
import { configureInviteDelivery, resetInviteDelivery } from '../../src/messaging/settings';
import { renderText, SMS_BODY_MAX_CHARS, SMS_LINK_CHARS, SMS_MAX_CHARS, SMS_RESERVED_CHARS, textLengthOf } from '../../src/messaging/templates';
import { Contact, Invite, Organization } from '../../src/models';
import { twilioSender } from '../../src/providers/twilio/client';
import { cleanSteps } from '../../src/services/campaigns.service';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { startTwilioServer, type TwilioSink } from '../support/providers/twilio';
import { giveCredits, makeCampaign, makeContact, makeInvite, phoneNumber } from './fixtures';

/**
 * Text messages (SMS, messaging app) always fit the provider's 1,600 characters (Twilio error 21617), whatever the
 * names filled in (docs/decisions/review-requests.md, "Messages"), and always end with the opt-out line.
 */

/** A link of exactly `n` characters, as the limit assumes the longest. */
const linkOf = (path: string, n: number) => {
  const head = `https://reviews.agency.test/${path}/`;
  return head + 'a'.repeat(n - head.length);
};

const values = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  businessName: 'Bright Smiles',
  reviewLink: 'https://reviews.agency.test/r/abc',
  unsubscribeLink: 'https://reviews.agency.test/u/tok',
};
const optOut = (link: string, language = 'en') => CATALOGUES[language as 'en'].invite.smsStop.replace('{{link}}', link);

/** A step body whose counted length is exactly the limit: names, business name and the review link in it. */
const fullBody = (): string => {
  const words = 'Hi {first_name} {last_name}, thank you for choosing {business_name}! ';
  const tail = ' {review_link}';
  const body = `${words}${'y'.repeat(SMS_BODY_MAX_CHARS - textLengthOf(words + tail))}${tail}`;
  expect(textLengthOf(body)).toBe(SMS_BODY_MAX_CHARS);
  return body;
};

describe('text message length', () => {
  it('keeps room for what every language adds: the review link and the opt-out line with its link', () => {
    const links = { ...values, reviewLink: linkOf('r', SMS_LINK_CHARS), unsubscribeLink: linkOf('u', SMS_LINK_CHARS) };
    for (const language of UI_LANGUAGES) {
      const body = 'x'.repeat(SMS_BODY_MAX_CHARS);
      const sms = renderText({ body }, { ...links, language }).body!;
      expect(sms).toBe(`${body} ${links.reviewLink}\n${optOut(links.unsubscribeLink, language)}`);
      expect(sms.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    }
    expect(SMS_BODY_MAX_CHARS).toBe(SMS_MAX_CHARS - SMS_RESERVED_CHARS);
  });

  it('a step at the limit with 255-character names fits: the names are shortened, the text, links and opt-out kept', () => {
    const body = fullBody();
    const fields: FieldErrors = {};
    cleanSteps([{ channel: 'sms', delayHours: 0, body }], fields);
    expect(fields).toEqual({});
    const long = {
      ...values,
      firstName: 'F'.repeat(255),
      lastName: 'L'.repeat(255),
      businessName: 'B'.repeat(255),
      reviewLink: linkOf('r', SMS_LINK_CHARS),
      unsubscribeLink: linkOf('u', SMS_LINK_CHARS),
    };
    for (const language of UI_LANGUAGES) {
      const sms = renderText({ body }, { ...long, language }).body!;
      expect(sms.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
      expect(sms).toContain('y'.repeat(SMS_BODY_MAX_CHARS - 200));
      expect(sms).toContain(` ${long.reviewLink}\n`);
      expect(sms.endsWith(`\n${optOut(long.unsubscribeLink, language)}`)).toBe(true);
      expect(sms).toMatch(/^Hi F+… L+…, thank you for choosing B+…! y/);
    }
    // Short names are not touched.
    expect(renderText({ body }, { ...long, firstName: 'Ada', lastName: 'King', businessName: 'Bright Smiles' }).body).toMatch(/^Hi Ada King, thank you for choosing Bright Smiles! y/);
  });

  it('a 1600-character body (saved before the limit counted the added text) still goes: its end is cut, never a link or the opt-out', () => {
    const body = `${'x'.repeat(1590)} {review_link}`;
    for (const names of [values, { ...values, firstName: 'F'.repeat(255), businessName: 'B'.repeat(255) }]) {
      const sms = renderText({ body }, names).body!;
      expect(sms.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
      expect(sms.startsWith('x'.repeat(1400))).toBe(true);
      expect(sms).toContain(`x… ${values.reviewLink}\n`);
      expect(sms.endsWith(`\n${optOut(values.unsubscribeLink)}`)).toBe(true);
    }
    const plain = renderText({ body: 'x'.repeat(1600) }, values).body!;
    expect(plain.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(plain.endsWith(`… ${values.reviewLink}\n${optOut(values.unsubscribeLink)}`)).toBe(true);
  });

  it('counts an emoji as 2 (the provider counts UTF-16 units): a step of emoji passes validation only if it fits', () => {
    const fields: FieldErrors = {};
    cleanSteps([{ channel: 'sms', delayHours: 0, body: '\u{1F600}'.repeat(SMS_BODY_MAX_CHARS / 2 + 1) }], fields);
    expect(Object.keys(fields)).toEqual(['steps.0.body']);
    const body = '\u{1F600}'.repeat(SMS_BODY_MAX_CHARS / 2);
    const ok: FieldErrors = {};
    cleanSteps([{ channel: 'messaging', delayHours: 0, body }], ok);
    expect(ok).toEqual({});
    expect(renderText({ body }, values).body!.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
  });
});

describe('the opt-out line', () => {
  it('is added when a contact or business name says STOP: only the step’s own text can already carry it', () => {
    const body = 'Hi {first_name}, {business_name} thanks you: {review_link}';
    const sms = renderText({ body }, { ...values, firstName: 'STOP', businessName: 'Bus STOP Diner' }).body!;
    expect(sms).toBe(`Hi STOP, Bus STOP Diner thanks you: ${values.reviewLink}\n${optOut(values.unsubscribeLink)}`);
    const withLink = renderText({ body: 'Hi {last_name}! {review_link} Opt out: {unsubscribe_link}' }, { ...values, lastName: 'STOP' }).body!;
    expect(withLink).toBe(`Hi STOP! ${values.reviewLink} Opt out: ${values.unsubscribeLink}\nReply STOP to opt out.`);
  });

  it('is not repeated when the step itself tells to reply STOP', () => {
    const sms = renderText({ body: 'Reply STOP to end. {review_link}' }, values).body!;
    expect(sms).toBe(`Reply STOP to end. ${values.reviewLink}\nUnsubscribe: ${values.unsubscribeLink}`);
  });
});

describe('sending a text step at the limit', () => {
  useDatabase();
  let twilio: TwilioSink;
  beforeAll(async () => {
    configureInviteDelivery({ hourMs: 1_000, inFlightGraceMs: 60_000 });
    twilio = await startTwilioServer();
  });
  afterAll(async () => {
    resetInviteDelivery();
    await twilio.close();
  });

  it('the Twilio-format server takes it (no 21617) with 255-character names and business name', async () => {
    const w = await makeWorld();
    await Organization.update({ name: `${'B'.repeat(240)}${randomUUID().slice(0, 15)}` }, { where: { id: w.org.id } });
    await giveCredits(w, 'sms', 1);
    const campaign = await makeCampaign(w, { steps: [{ channel: 'sms', delayHours: 0, subject: null, body: fullBody() }] });
    const contact = await makeContact(campaign, { email: null, phone: phoneNumber() });
    await Contact.update({ firstName: 'F'.repeat(255), lastName: 'L'.repeat(255) }, { where: { id: contact.id } });
    const invite = await makeInvite(campaign, contact, new Date(Date.now() - 1_000));
    const account = { accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'secret-token', fromNumber: '+15005550006', baseUrl: twilio.url };
    const result = await sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true }, { senderFor: async () => twilioSender(account, 'sms') });
    expect(result).toMatchObject({ outcome: 'sent' });
    expect(await Invite.findByPk(invite.id)).toMatchObject({ status: 'sent', reason: null });
    const [sms] = twilio.to(contact.phone!);
    expect(sms.body.length).toBeLessThanOrEqual(SMS_MAX_CHARS);
    expect(sms.body).toContain(`/r/${invite.uuid}`);
    expect(sms.body).toMatch(/\nReply STOP to opt out or unsubscribe: \S+\/u\/\S+$/);
  });
});
