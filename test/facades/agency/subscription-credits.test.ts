import { fixedClock } from '../../../src/domain/clock';
import { CreditGrant, Customer, User, WebhookEndpoint } from '../../../src/models';
import { principalFor } from '../../../src/services/auth.service';
import * as webhooks from '../../../src/services/webhooks.service';
import { consumeCredits, creditBalance } from '../../../src/services/credits.service';
import { useApp } from '../../support/app';
import { agencyTokenFor, ALL, makePlan, makeTenant, tokenFor } from '../../support/factories';

const clock = fixedClock(new Date('2026-11-20T12:00:00.000Z'));

describe('agency API: subscription pause/resume and credits', () => {
  const t = useApp({ clock });
  const as = t.as;
  const gql = (token: string, query: string) =>
    t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query });

  async function customerOn(planOverrides: Parameters<typeof makePlan>[1] = {}) {
    const { tenant, owner } = await makeTenant();
    const token = await agencyTokenFor(owner);
    const plan = await makePlan(tenant.id, planOverrides);
    const created = await as(token)
      .post('/api/agency/v1/customers')
      .send({ name: 'Pat', company: `Co ${Math.random()}`, email: `pat-${Math.random().toString(36).slice(2)}@x.test`, password: 'password1', custom_plan_id: String(plan.id) });
    expect(created.status).toBe(201);
    const user = (await User.findOne({ where: { customerId: created.body.data.id } }))!;
    return { token, id: created.body.data.id as number, orgId: created.body.data.organizations[0].id as number, user, plan };
  }

  describe('PUT pause / resume', () => {
    it('pauses and resumes a customer on a plan not linked to a payment provider', async () => {
      const c = await customerOn();
      const paused = await as(c.token).put(`/api/agency/v1/customers/${c.id}/pause`);
      expect(paused.status).toBe(200);
      expect(paused.body).toEqual({ message: 'Subscription has been paused.' });
      expect((await Customer.findByPk(c.id))!.subscriptionStatus).toBe('paused');
      const resumed = await as(c.token).put(`/api/agency/v1/customers/${c.id}/resume`);
      expect(resumed.status).toBe(200);
      expect(resumed.body).toEqual({ message: 'Subscription has been resumed.' });
      expect((await Customer.findByPk(c.id))!.subscriptionStatus).toBe('active');
    });

    it('answers 409 when pausing a paused customer or resuming an active one', async () => {
      const c = await customerOn();
      const resumeActive = await as(c.token).put(`/api/agency/v1/customers/${c.id}/resume`);
      expect(resumeActive.status).toBe(409);
      expect(resumeActive.body).toMatchObject({ code: 'not_paused', message: expect.any(String) });
      await as(c.token).put(`/api/agency/v1/customers/${c.id}/pause`);
      const again = await as(c.token).put(`/api/agency/v1/customers/${c.id}/pause`);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('already_paused');
    });

    it.each([
      ['monthly', { billingMonthlyId: 'price_m' }],
      ['yearly', { billingYearlyId: 'price_y' }],
    ])('answers 422 plan_linked_to_payment_provider when the plan has a %s price id', async (_label, overrides) => {
      const c = await customerOn(overrides);
      const res = await as(c.token).put(`/api/agency/v1/customers/${c.id}/pause`);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'plan_linked_to_payment_provider', errors: {} });
      expect(res.body.message).toMatch(/payment provider/);
      expect((await Customer.findByPk(c.id))!.subscriptionStatus).toBe('active');
      // Resume is refused by the same rule, even on an account paused before the plan was linked.
      await Customer.update({ subscriptionStatus: 'paused' }, { where: { id: c.id } });
      expect((await as(c.token).put(`/api/agency/v1/customers/${c.id}/resume`)).body.code).toBe('plan_linked_to_payment_provider');
    });

    it("holds back every write of a paused account's users with 402 subscription_paused, while reads keep working", async () => {
      const c = await customerOn();
      const customerToken = await tokenFor(c.user);
      await as(c.token).put(`/api/agency/v1/customers/${c.id}/pause`);

      const write = await as(customerToken).post('/api/v1/locations').send({ organization_id: c.orgId, name: 'Another' });
      expect(write.status).toBe(402);
      expect(write.body).toMatchObject({ code: 'subscription_paused', message: expect.stringMatching(/paused/) });
      expect((await as(customerToken).put(`/api/v1/organizations/${c.orgId}`).send({ name: 'Renamed' })).status).toBe(402);
      expect((await as(customerToken).delete(`/api/v1/organizations/${c.orgId}`)).status).toBe(402);
      const mutation = await gql(customerToken, `mutation { createOrganization(input: { name: "Via GraphQL" }) { id } }`);
      expect(mutation.body.errors[0].extensions).toMatchObject({ code: 'PLAN_LIMIT', reason: 'subscription_paused' });

      const read = await as(customerToken).get('/api/v1/organizations');
      expect(read.status).toBe(200);
      expect(read.body.data.map((o: { id: number }) => o.id)).toEqual([c.orgId]);
      expect((await gql(customerToken, '{ account { subscriptionStatus } }')).body.data.account.subscriptionStatus).toBe('paused');

      await as(c.token).put(`/api/agency/v1/customers/${c.id}/resume`);
      expect((await as(customerToken).post('/api/v1/locations').send({ organization_id: c.orgId, name: 'Another' })).status).toBe(201);
    });

    it('holds back a canceled account (a state a billing system or an operator sets) as a paused one', async () => {
      const c = await customerOn();
      const customerToken = await tokenFor(c.user);
      await Customer.update({ subscriptionStatus: 'canceled' }, { where: { id: c.id } });
      const write = await as(customerToken).post('/api/v1/locations').send({ organization_id: c.orgId, name: 'Another' });
      expect([write.status, write.body.code]).toEqual([402, 'subscription_paused']);
      expect((await as(customerToken).get('/api/v1/organizations')).status).toBe(200);
    });

    it('lets a paused account shut doors: revoke an AI client, turn a webhook endpoint off, rotate its secret, delete it', async () => {
      const c = await customerOn();
      const customerToken = await tokenFor(c.user);
      const endpoint = (await webhooks.createEndpoint(await principalFor(c.user, { id: 0, kind: 'customer', permissions: ALL }), { url: 'https://93.184.215.14/hooks' }, { allowPrivateUrls: false })).endpoint;
      await as(c.token).put(`/api/agency/v1/customers/${c.id}/pause`);
      const run = async (query: string) => (await gql(customerToken, query)).body;

      // Still held back: a change that opens or widens something.
      const widened = await run(`mutation { updateWebhookEndpoint(id: ${endpoint.id}, input: { enabled: false, url: "https://93.184.215.14/other" }) { id } }`);
      expect(widened.errors[0].extensions).toMatchObject({ code: 'PLAN_LIMIT', reason: 'subscription_paused' });

      const off = await run(`mutation { updateWebhookEndpoint(id: ${endpoint.id}, input: { enabled: false }) { id enabled } }`);
      expect(off.errors).toBeUndefined();
      expect(off.data.updateWebhookEndpoint).toEqual({ id: endpoint.id, enabled: false });
      const on = await run(`mutation { updateWebhookEndpoint(id: ${endpoint.id}, input: { enabled: true }) { id } }`);
      expect(on.errors[0].extensions).toMatchObject({ reason: 'subscription_paused' });
      const rotated = await run(`mutation { rotateWebhookSecret(id: ${endpoint.id}) { secret } }`);
      expect(rotated.errors).toBeUndefined();
      expect(rotated.data.rotateWebhookSecret.secret).toMatch(/^whsec_/);
      // An AI client's authorization: the pause is not the answer (this one does not exist).
      const revoked = await run('mutation { revokeAiAuthorization(id: 999999) { id } }');
      expect(revoked.errors[0].extensions.code).toBe('NOT_FOUND');
      const deleted = await run(`mutation { deleteWebhookEndpoint(id: ${endpoint.id}) { id } }`);
      expect(deleted.errors).toBeUndefined();
      expect(await WebhookEndpoint.findByPk(endpoint.id)).toBeNull();
    });
  });

  describe('POST add-credits', () => {
    it('grants credits per type and answers the balance of that type', async () => {
      const c = await customerOn();
      const first = await as(c.token).post(`/api/agency/v1/customers/${c.id}/add-credits`).send({ type: 'email', credits: 100, notes: 'Welcome bonus' });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ message: 'Credits added successfully.', balance: 100 });
      const second = await as(c.token).post(`/api/agency/v1/customers/${c.id}/add-credits`).send({ type: 'email', credits: 25, expires_at: '2026-12-31' });
      expect(second.body).toEqual({ message: 'Credits added successfully.', balance: 125 });
      const sms = await as(c.token).post(`/api/agency/v1/customers/${c.id}/add-credits`).send({ type: 'sms', credits: '7' });
      expect(sms.body).toEqual({ message: 'Credits added successfully.', balance: 7 });
    });

    it('answers a balance past 2^31 - 1 (GraphQL Int): the grant is made once and answered 200, the balance query too', async () => {
      const c = await customerOn();
      // 2,147 earlier grants of 1,000,000 (the most one call grants): the next one takes the sum past 2,147,483,647.
      await CreditGrant.bulkCreate(
        Array.from({ length: 2_147 }, () => ({ tenantId: c.plan.tenantId, customerId: c.id, type: 'email' as const, credits: 1_000_000, remaining: 1_000_000, expiresAt: null, notes: null })),
      );
      const added = await as(c.token).post(`/api/agency/v1/customers/${c.id}/add-credits`).send({ type: 'email', credits: 1_000_000 });
      expect(added.status).toBe(200);
      expect(added.body).toEqual({ message: 'Credits added successfully.', balance: 2_148_000_000 });
      expect(await CreditGrant.count({ where: { customerId: c.id } })).toBe(2_148);
      const credits = await gql(c.token, `{ agencyCustomerCredits(id: ${c.id}, type: "email") }`);
      expect(credits.body).toEqual({ data: { agencyCustomerCredits: 2_148_000_000 } });
    });

    it('counts credits through their expiry date (UTC) and not after; consumption draws from the soonest-expiring grant first', async () => {
      const c = await customerOn();
      const today = clock.now().toISOString().slice(0, 10);
      await as(c.token).post(`/api/agency/v1/customers/${c.id}/add-credits`).send({ type: 'sms', credits: 10, expires_at: today });
      await as(c.token).post(`/api/agency/v1/customers/${c.id}/add-credits`).send({ type: 'sms', credits: 5 });
      expect(await creditBalance(c.id, 'sms', { clock })).toBe(15);

      // 4 are spent from the grant expiring today, so its lapse takes only the 6 left.
      const seq = Customer.sequelize!;
      expect(await seq.transaction((tx) => consumeCredits(c.id, 'sms', 4, tx, { clock, reference: 'invite-1' }))).toBe(11);
      const lastMoment = fixedClock(new Date(`${today}T23:59:59.999Z`));
      expect(await creditBalance(c.id, 'sms', { clock: lastMoment })).toBe(11);
      const tomorrow = fixedClock(new Date(new Date(`${today}T00:00:00Z`).getTime() + 86_400_000));
      expect(await creditBalance(c.id, 'sms', { clock: tomorrow })).toBe(5);
      expect(await creditBalance(c.id, 'email', { clock })).toBe(0);
    });

    it('refuses to spend more than the unexpired balance (402 insufficient_credits) and spends nothing then', async () => {
      const c = await customerOn();
      await as(c.token).post(`/api/agency/v1/customers/${c.id}/add-credits`).send({ type: 'email', credits: 3 });
      const seq = Customer.sequelize!;
      await expect(seq.transaction((tx) => consumeCredits(c.id, 'email', 4, tx, { clock }))).rejects.toMatchObject({
        code: 'PLAN_LIMIT',
        reason: 'insufficient_credits',
      });
      expect(await creditBalance(c.id, 'email', { clock })).toBe(3);
      // A rolled-back send gives its credits back.
      await expect(
        seq.transaction(async (tx) => {
          await consumeCredits(c.id, 'email', 2, tx, { clock });
          throw new Error('send failed');
        }),
      ).rejects.toThrow('send failed');
      expect(await creditBalance(c.id, 'email', { clock })).toBe(3);
      expect(await seq.transaction((tx) => consumeCredits(c.id, 'email', 3, tx, { clock }))).toBe(0);
    });

    it.each([
      ['a missing type', { credits: 5 }, 'type'],
      ['an unknown type', { type: 'push', credits: 5 }, 'type'],
      ['missing credits', { type: 'email' }, 'credits'],
      ['zero credits', { type: 'email', credits: 0 }, 'credits'],
      ['fractional credits', { type: 'email', credits: 1.5 }, 'credits'],
      ['an expiry that is no Y-m-d date', { type: 'email', credits: 5, expires_at: '31/12/2026' }, 'expires_at'],
      ['an impossible date', { type: 'email', credits: 5, expires_at: '2026-02-30' }, 'expires_at'],
      ['an expiry in the past', { type: 'email', credits: 5, expires_at: '2026-11-19' }, 'expires_at'],
      ['an expiry whose end the database cannot hold (was a 500)', { type: 'email', credits: 5, expires_at: '9999-12-31' }, 'expires_at'],
      ['notes over 1000 characters', { type: 'email', credits: 5, notes: 'n'.repeat(1001) }, 'notes'],
    ])('answers 422 for %s', async (_label, sent, field) => {
      const c = await customerOn();
      const res = await as(c.token).post(`/api/agency/v1/customers/${c.id}/add-credits`).send(sent);
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(await creditBalance(c.id, 'email', { clock })).toBe(0);
    });
  });
});
