import { Customer, Tenant } from '../../src/models';
import { CATALOGUES, INVALID_LANGUAGE } from '../../src/i18n';
import { useApp } from '../support/app';
import { agencyTokenFor, makeTenant, makeWorld } from '../support/factories';
import { useSmtpServer } from '../support/providers/smtp';

/**
 * Issue 19, item 4: an account's language is set with the additive `language` field of the agency API's POST and
 * PUT /customers (ISO 639-1; 422 for an unsupported one), by the account's owner through GraphQL, and defaults to the
 * agency's language (GraphQL `setTenantLanguage`). The mails the account gets on creation speak it.
 */
describe('the language of a customer account', () => {
  const t = useApp();
  const smtp = useSmtpServer();

  async function agency() {
    const { tenant, owner, plan } = await makeTenant();
    await tenant.update({ brandName: 'Sparkle Reviews' });
    return { tenant, owner, plan, token: await agencyTokenFor(owner) };
  }
  const body = (planId: number, extra: Record<string, unknown> = {}) => ({
    name: 'Dana',
    company: 'Clínica Dana',
    email: `dana-${Math.random().toString(36).slice(2, 10)}@example.test`,
    password: 'Sup3r-secret-pass',
    custom_plan_id: String(planId),
    ...extra,
  });
  const gql = (token: string, query: string, variables: Record<string, unknown> = {}) =>
    t.http().post('/graphql').set('Authorization', `Bearer ${token}`).send({ query, variables });

  it('takes language on POST /customers, answers it, and mails the login details and connect link in it', async () => {
    const a = await agency();
    const sent = body(a.plan.id, { language: 'de', send_invite: true, send_google_connect_link: true });
    const res = await t.as(a.token).post('/api/agency/v1/customers').send(sent);
    expect(res.status).toBe(201);
    expect(res.body.data.language).toBe('de');
    expect((await Customer.findByPk(res.body.data.id))!.language).toBe('de');
    await smtp().waitFor(2);
    const subjects = smtp().to(sent.email).map((m) => m.subject).sort();
    expect(subjects).toEqual(
      [
        CATALOGUES.de.mail.accountReadySubject.replace('{{brand}}', 'Sparkle Reviews'),
        CATALOGUES.de.mail.connectSubject.replace('{{thing}}', CATALOGUES.de.mail.providers.google).replace('{{brand}}', 'Sparkle Reviews'),
      ].sort(),
    );
    const connect = smtp().to(sent.email).find((m) => m.headers.get('x-mail-kind') === 'connect-link-google')!;
    expect(connect.text).toContain(CATALOGUES.de.mail.hello.replace('{{name}}', 'Dana'));
  });

  it("refuses an unsupported language with 422, and defaults to the agency's language", async () => {
    const a = await agency();
    const bad = await t.as(a.token).post('/api/agency/v1/customers').send(body(a.plan.id, { language: 'xx' }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors.language).toEqual([INVALID_LANGUAGE]);
    const klingon = await t.as(a.token).post('/api/agency/v1/customers').send(body(a.plan.id, { language: 'tlh' }));
    expect(klingon.status).toBe(422);

    const plain = await t.as(a.token).post('/api/agency/v1/customers').send(body(a.plan.id));
    expect(plain.body.data.language).toBe('en');
    const set = await gql(a.token, `mutation { setTenantLanguage(language: "fr") { language } }`);
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data.setTenantLanguage.language).toBe('fr');
    expect((await Tenant.findByPk(a.tenant.id))!.language).toBe('fr');
    const defaulted = await t.as(a.token).post('/api/agency/v1/customers').send(body(a.plan.id));
    expect(defaulted.body.data.language).toBe('fr');
    const unsupported = await gql(a.token, `mutation { setTenantLanguage(language: "nl") { language } }`);
    expect(unsupported.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION' });
  });

  it('changes it with PUT /customers/{customer} beside the plan (and leaves it without)', async () => {
    const a = await agency();
    const created = await t.as(a.token).post('/api/agency/v1/customers').send(body(a.plan.id, { language: 'es' }));
    const id = created.body.data.id;
    const kept = await t.as(a.token).put(`/api/agency/v1/customers/${id}`).send({ custom_plan_id: String(a.plan.id) });
    expect(kept.status).toBe(200);
    expect(kept.body.data.language).toBe('es');
    const changed = await t.as(a.token).put(`/api/agency/v1/customers/${id}`).send({ custom_plan_id: String(a.plan.id), language: 'IT' });
    expect(changed.status).toBe(200);
    expect(changed.body.data.language).toBe('it');
    const bad = await t.as(a.token).put(`/api/agency/v1/customers/${id}`).send({ custom_plan_id: String(a.plan.id), language: 'xx' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.language).toEqual([INVALID_LANGUAGE]);
    expect((await Customer.findByPk(id))!.language).toBe('it');
  });

  it("is set by the account's owner through GraphQL, not by a team member", async () => {
    const w = await makeWorld();
    const res = await gql(w.tokens.orgOwner, `mutation { setAccountLanguage(language: "pt") { language } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.setAccountLanguage.language).toBe('pt');
    expect((await Customer.findByPk(w.org.customerId))!.language).toBe('pt');
    const read = await gql(w.tokens.orgOwner, `{ account { language } }`);
    expect(read.body.data.account.language).toBe('pt');
    const member = await gql(w.tokens.member, `mutation { setAccountLanguage(language: "es") { language } }`);
    expect(member.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const bad = await gql(w.tokens.orgOwner, `mutation { setAccountLanguage(language: "xx") { language } }`);
    expect(bad.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION', fields: { language: [INVALID_LANGUAGE] } });
  });
});
