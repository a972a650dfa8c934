import { randomUUID } from 'node:crypto';
import { renderEmail, renderText } from '../../src/messaging/templates';
import { unsubscribeTokenOf } from '../../src/messaging/links';
import { Customer, OutboxEvent } from '../../src/models';
import { issueConnectLink } from '../../src/services/connect-links.service';
import { escapeHtml } from '../../src/domain/html';
import { CATALOGUES } from '../../src/i18n';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { makeCampaign, makeSentInvite, useInboundApp } from '../inbound/support';
import { makeCampaign as makeInviteCampaign, makeContact } from '../invites/fixtures';

/**
 * Issue 19, item 4: the pages a customer (and the customer's own customers) read speak the account's language, with
 * `<html lang>` set: the connect-link page, the unsubscribe page, the review page with its feedback form; so do the
 * review-request mail and SMS. English when the account has none of the six.
 */
describe('pages and messages in the account language', () => {
  afterAll(async () => {
    await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });
  });
  useDatabase();
  const t = useInboundApp();

  const speaking = async (language: string) => {
    const w = await makeWorld();
    await Customer.update({ language }, { where: { id: w.org.customerId } });
    return w;
  };

  it('shows the unsubscribe page in Spanish for a Spanish-speaking account', async () => {
    const w = await speaking('es');
    const campaign = await makeInviteCampaign(w);
    const contact = await makeContact(campaign);
    const res = await t.http().get(`/u/${unsubscribeTokenOf(contact.uuid)}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html lang="es">');
    expect(res.text).toContain(`<button type="submit">${CATALOGUES.es.unsubscribe.button}</button>`);
    expect(res.text).toContain(CATALOGUES.es.unsubscribe.heading);
    expect(res.text).toContain(`<strong>${w.org.name}</strong>`);
    const done = await t.http().post(`/u/${unsubscribeTokenOf(contact.uuid)}`).type('form').send({ confirm: '1' });
    expect(done.text).toContain(CATALOGUES.es.unsubscribe.doneHeading);
  });

  it('shows the review page and the feedback form in French, stars and labels included', async () => {
    const w = await speaking('fr');
    const campaign = await makeCampaign(w.org, w.home, { reviewUrl: 'https://g.page/r/x/review', feedbackThreshold: 3 });
    const { invite } = await makeSentInvite(campaign, { firstName: 'Amélie', email: `a-${randomUUID().slice(0, 6)}@example.test` });
    const page = await t.http().get(`/r/${invite.uuid}`);
    expect(page.text).toContain('<html lang="fr">');
    expect(page.text).toContain(CATALOGUES.fr.feedback.rateIntro);
    expect(page.text).toContain('Amélie');
    const form = await t.http().get(`/r/${invite.uuid}/rate/2`).redirects(1);
    expect(form.text).toContain('<html lang="fr">');
    expect(form.text).toContain(CATALOGUES.fr.feedback.send);
    expect(form.text).toContain(CATALOGUES.fr.feedback.yourMessage);
  });

  it("says what is wrong with the feedback form in the account's language", async () => {
    const w = await speaking('pt');
    const campaign = await makeCampaign(w.org, w.home, { reviewUrl: 'https://g.page/r/x/review', feedbackThreshold: 3 });
    const { invite } = await makeSentInvite(campaign, { firstName: 'João', email: `j-${randomUUID().slice(0, 6)}@example.test` });
    const pt = CATALOGUES.pt.feedback.errors;
    const res = await t.http().post(`/r/${invite.uuid}/feedback`).type('form').send({ name: 'x'.repeat(300), email: 'not-an-email', phone: '12', message: '   ', rating: '7' });
    expect(res.status).toBe(422);
    expect(res.text).toContain('<html lang="pt">');
    const alerts = [...res.text.matchAll(/<p class="error" role="alert">([^<]*)<\/p>/g)].map((m) => m[1]);
    expect(alerts).toEqual([pt.rating, pt.messageRequired, pt.nameTooLong.replace('{{max}}', '255'), pt.email, pt.phone].map(escapeHtml));
    const long = await t.http().post(`/r/${invite.uuid}/feedback`).type('form').send({ name: '', email: '', phone: '', message: 'a'.repeat(5001), rating: '2' });
    expect(long.status).toBe(422);
    // European Portuguese groups from five digits only (Brazil's `pt` writes 5.000).
    expect(long.text).toContain(escapeHtml(pt.messageTooLong.replace('{{max}}', '5000')));
  });

  it('shows the connect-link page in German', async () => {
    const w = await speaking('de');
    const link = await issueConnectLink({ tenantId: w.tenant.id, locationId: w.home.id, provider: 'google' });
    const res = await t.http().get(`/connect/${link.token}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html lang="de">');
    expect(res.text).toContain(CATALOGUES.de.connect.providers.google.thing);
    expect(res.text).toContain(CATALOGUES.de.connect.signIn.replace('{{provider}}', 'Google'));
  });

  it('speaks English to an account without a supported language', async () => {
    const w = await speaking('nl');
    const campaign = await makeInviteCampaign(w);
    const contact = await makeContact(campaign);
    const res = await t.http().get(`/u/${unsubscribeTokenOf(contact.uuid)}`);
    expect(res.text).toContain('<html lang="en">');
    expect(res.text).toContain('<button type="submit">Unsubscribe</button>');
  });

  it('writes the default review request, its footer and the SMS opt-out in the account language', () => {
    const values = { firstName: null, lastName: null, businessName: 'Forno Rossi', reviewLink: 'https://r.test/r/1', unsubscribeLink: 'https://r.test/u/1', language: 'it' };
    const mail = renderEmail({ subject: '', body: '' }, values);
    expect(mail.subject).toBe(CATALOGUES.it.invite.subject.replace('{business_name}', 'Forno Rossi'));
    expect(mail.body).toContain(CATALOGUES.it.invite.there);
    expect(mail.body).toContain(CATALOGUES.it.invite.textFooter.replace('{{link}}', values.unsubscribeLink));
    expect(mail.html).toContain('<html lang="it">');
    expect(mail.html).toContain(`>${CATALOGUES.it.invite.footerLink}</a>`);
    const sms = renderText({ body: '' }, { ...values, language: 'pt' });
    expect(sms.body).toContain(CATALOGUES.pt.invite.smsStop.replace('{{link}}', values.unsubscribeLink));
    expect(sms.body).toContain('STOP');
  });
});
