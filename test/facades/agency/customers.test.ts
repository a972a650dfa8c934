import { randomUUID } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { ApiToken, Customer, Integration, Location, Organization, OutboxEvent, Plan, Review, StoredFile, Tenant, User, WebhookEndpoint } from '../../../src/models';
import { setTaxCalculation } from '../../../src/services/agency.service';
import { agencyWorld, newCustomerBody } from '../../support/agency-customers';
import { useApp } from '../../support/app';
import {
  defaultLocationOf,
  makeOrganization,
  makeOrgOwner,
  makePlan,
  makeReview,
  makeTenant,
  testimonialsOf,
  tokenFor,
} from '../../support/factories';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const iso = (d: Date) => d.toISOString();

/** The Customer resource exactly as the spec's table has it, built from the database. */
async function customerJson(id: number) {
  const c = (await Customer.findByPk(id))!;
  const plan = c.planId ? await Plan.findByPk(c.planId) : null;
  const orgs = await Organization.findAll({ where: { customerId: id }, order: [['id', 'ASC']] });
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    language: c.language,
    trial_ends_at: c.trialEndsAt ? iso(c.trialEndsAt) : null,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    custom_plan: plan ? { id: plan.id, name: plan.name } : null,
    organizations: orgs.map((o) => ({ id: o.id, name: o.name })),
  };
}

const body = newCustomerBody;

describe('agency API: customers', () => {
  const t = useApp();
  const as = t.as;

  describe('POST /api/agency/v1/customers', () => {
    it('creates the account, its owner login (hashed password), plan, limits and the company organisation with its Default Location; 201 {data: Customer}', async () => {
      const w = await agencyWorld();
      const plan = await makePlan(w.tenant.id, { name: 'Pro', locationLimit: 3, memberLimit: 2 });
      const res = await as(w.token)
        .post('/api/agency/v1/customers')
        .send(body(plan.id, { phone: '+14155552671', location_limit: 7, member_limit: 0 }));
      expect(res.status).toBe(201);
      const id = res.body.data.id;
      expect(res.body).toEqual({ data: await customerJson(id) });
      expect(res.body.data).toMatchObject({
        name: 'Dana Dentist',
        phone: '+14155552671',
        language: 'en',
        trial_ends_at: null,
        custom_plan: { id: plan.id, name: 'Pro' },
        organizations: [{ id: expect.any(Number), name: 'Bright Smiles Dental' }],
      });
      expect(res.body.data.created_at).toMatch(ISO);

      const account = (await Customer.findByPk(id))!;
      expect(account).toMatchObject({ tenantId: w.tenant.id, planId: plan.id, locationLimit: 7, memberLimit: 0, subscriptionStatus: 'active' });
      const user = (await User.findOne({ where: { customerId: id } }))!;
      expect(user.role).toBe('organization_owner');
      expect(user.email).toBe(res.body.data.email);
      expect(user.passwordHash).not.toContain('correct horse');
      expect(await bcrypt.compare('correct horse', user.passwordHash!)).toBe(true);
      const org = (await Organization.findByPk(res.body.data.organizations[0].id))!;
      const locations = await Location.findAll({ where: { organizationId: org.id } });
      expect(locations.map((l) => [l.id, l.name])).toEqual([[org.defaultLocationId, 'Default Location']]);
      // The new owner can work with the account through the customer API at once.
      const own = await as(await tokenFor(user)).get('/api/v1/organizations');
      expect(own.body.data.map((o: { name: string }) => o.name)).toEqual(['Bright Smiles Dental']);
    });

    it('counts a name in characters, not UTF-16 units: 200 emoji make a 201, the owner login named alike', async () => {
      const w = await agencyWorld();
      const name = '\u{1F600}'.repeat(200);
      const res = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { name }));
      expect(res.status).toBe(201);
      expect(res.body.data.name).toBe(name);
      expect((await User.findOne({ where: { customerId: res.body.data.id } }))!.name).toBe(name);
    });

    it('takes custom_plan_id as a JSON number too and leaves limits to the plan when not given', async () => {
      const w = await agencyWorld();
      const res = await as(w.token).post('/api/agency/v1/customers').send({ ...body(w.plan.id), custom_plan_id: w.plan.id });
      expect(res.status).toBe(201);
      const account = (await Customer.findByPk(res.body.data.id))!;
      expect(account).toMatchObject({ planId: w.plan.id, locationLimit: null, memberLimit: null, phone: null });
    });

    it('answers 422 {message, errors} naming every missing required field at once', async () => {
      const w = await agencyWorld();
      const res = await as(w.token).post('/api/agency/v1/customers').send({});
      expect(res.status).toBe(422);
      expect(typeof res.body.message).toBe('string');
      expect(res.body.errors).toEqual({
        name: ['The name field is required.'],
        company: ['The company field is required.'],
        email: ['The email field is required.'],
        password: ['The password field is required.'],
        custom_plan_id: ['The custom plan id field is required.'],
      });
      expect(await Customer.count({ where: { tenantId: w.tenant.id } })).toBe(1);
    });

    it.each([
      ['password shorter than 8', { password: 'short' }, 'password'],
      ['phone not in E.164', { phone: '415 555 2671' }, 'phone'],
      ['phone that is no number', { phone: '+1000' }, 'phone'],
      ['invalid email', { email: 'not-an-email' }, 'email'],
      ['negative location limit', { location_limit: -1 }, 'location_limit'],
      ['negative member limit', { member_limit: -3 }, 'member_limit'],
      ['non-integer limit', { location_limit: 'many' }, 'location_limit'],
      ['unknown plan', { custom_plan_id: '999999999' }, 'custom_plan_id'],
      ['plan id that is no id', { custom_plan_id: 'gold' }, 'custom_plan_id'],
      ['unknown country', { country: 'XX' }, 'country'],
      ['name over 255 characters', { name: 'x'.repeat(256) }, 'name'],
      ['boolean flag that is no boolean', { send_invite: 'perhaps' }, 'send_invite'],
    ])('answers 422 for a %s', async (_label, extra, field) => {
      const w = await agencyWorld();
      const res = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, extra));
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(res.body.errors[field][0]).toEqual(expect.any(String));
      expect(await Customer.count({ where: { tenantId: w.tenant.id } })).toBe(1);
    });

    it("refuses another tenant's plan (422 custom_plan_id)", async () => {
      const w = await agencyWorld();
      const other = await makeTenant();
      const res = await as(w.token).post('/api/agency/v1/customers').send(body(other.plan.id));
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual({ custom_plan_id: ['The selected custom plan id is invalid.'] });
    });

    it('refuses a login email already used in the tenant (422 email)', async () => {
      const w = await agencyWorld();
      const first = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id));
      const again = await as(w.token).post('/api/agency/v1/customers').send({ ...body(w.plan.id), email: first.body.data.email.toUpperCase() });
      expect(again.status).toBe(422);
      expect(again.body.errors).toEqual({ email: ['The email has already been taken.'] });
    });

    describe('with tax calculation enabled for the tenant', () => {
      it('requires country, and a postal code for US and CA', async () => {
        const w = await agencyWorld();
        await setTaxCalculation(w.tenant.id, true);
        const none = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id));
        expect(none.status).toBe(422);
        expect(none.body.errors).toEqual({ country: ['The country field is required when tax calculation is enabled.'] });

        for (const country of ['US', 'ca']) {
          const res = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { country }));
          expect(res.status).toBe(422);
          expect(Object.keys(res.body.errors)).toEqual(['postal_code']);
        }
        const badZip = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { country: 'US', postal_code: 'ABC' }));
        expect(badZip.status).toBe(422);
        expect(badZip.body.errors.postal_code[0]).toMatch(/not a valid US postal code/);

        const us = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { country: 'US', postal_code: '94107' }));
        expect(us.status).toBe(201);
        expect(await Customer.findByPk(us.body.data.id)).toMatchObject({ country: 'US', postalCode: '94107' });
        const de = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { country: 'de' }));
        expect(de.status).toBe(201);
        expect(await Customer.findByPk(de.body.data.id)).toMatchObject({ country: 'DE', postalCode: null });
      });

      it('needs neither country nor postal code while tax calculation is off (the default)', async () => {
        const w = await agencyWorld();
        expect((await Tenant.findByPk(w.tenant.id))!.taxCalculationEnabled).toBe(false);
        const res = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { country: 'US' }));
        expect(res.status).toBe(201);
      });
    });
  });

  describe('GET /api/agency/v1/customers', () => {
    it("lists the tenant's customers newest first with the short meta, without the agency's own account or other tenants' customers", async () => {
      const w = await agencyWorld();
      const a = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { name: 'Alice Able' }));
      const b = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { name: 'Bob Baker' }));
      const other = await makeTenant();
      await makeOrgOwner(other.tenant.id);

      const res = await as(w.token).get('/api/agency/v1/customers');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([await customerJson(b.body.data.id), await customerJson(a.body.data.id)]);
      expect(res.body.meta).toEqual({ current_page: 1, from: 1, per_page: 10, to: 2 });
      expect(res.body.links).toMatchObject({ prev: null, next: null, first: expect.stringMatching(/\/api\/agency\/v1\/customers\?page=1$/) });
    });

    it('searches by name or email, any case', async () => {
      const w = await agencyWorld();
      const alice = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { name: 'Alice Able', email: 'alice@one.test' }));
      const bob = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id, { name: 'Bob Baker', email: 'bob@two.test' }));
      const byName = await as(w.token).get('/api/agency/v1/customers?search=alice');
      expect(byName.body.data.map((c: { id: number }) => c.id)).toEqual([alice.body.data.id]);
      const byEmail = await as(w.token).get('/api/agency/v1/customers?search=TWO.test');
      expect(byEmail.body.data.map((c: { id: number }) => c.id)).toEqual([bob.body.data.id]);
      const none = await as(w.token).get('/api/agency/v1/customers?search=%25');
      expect(none.body.data).toEqual([]);
      expect(none.body.meta).toEqual({ current_page: 1, from: null, per_page: 10, to: null });
    });

    it('pages by per_page (1-100) and page', async () => {
      const w = await agencyWorld();
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id))).body.data.id);
      const two = await as(w.token).get('/api/agency/v1/customers?per_page=2&page=2');
      expect(two.body.data.map((c: { id: number }) => c.id)).toEqual([ids[0]]);
      expect(two.body.meta).toEqual({ current_page: 2, from: 3, per_page: 2, to: 3 });
      expect(two.body.links.prev).toMatch(/per_page=2&page=1$/);
      const bad = await as(w.token).get('/api/agency/v1/customers?per_page=101');
      expect(bad.status).toBe(422);
      expect(Object.keys(bad.body.errors)).toEqual(['per_page']);
    });
  });

  describe('PUT /api/agency/v1/customers/{customer}', () => {
    it('moves the customer to another plan of the agency and answers {data: Customer}', async () => {
      const w = await agencyWorld();
      const created = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id));
      const gold = await makePlan(w.tenant.id, { name: 'Gold' });
      const res = await as(w.token).put(`/api/agency/v1/customers/${created.body.data.id}`).send({ custom_plan_id: String(gold.id) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: await customerJson(created.body.data.id) });
      expect(res.body.data.custom_plan).toEqual({ id: gold.id, name: 'Gold' });
    });

    it('answers 422 without custom_plan_id or with a plan of another tenant', async () => {
      const w = await agencyWorld();
      const created = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id));
      const missing = await as(w.token).put(`/api/agency/v1/customers/${created.body.data.id}`).send({});
      expect(missing.status).toBe(422);
      expect(missing.body.errors).toEqual({ custom_plan_id: ['The custom plan id field is required.'] });
      const foreign = await as(w.token).put(`/api/agency/v1/customers/${created.body.data.id}`).send({ custom_plan_id: String((await makeTenant()).plan.id) });
      expect(foreign.status).toBe(422);
      expect(foreign.body.errors).toEqual({ custom_plan_id: ['The selected custom plan id is invalid.'] });
    });
  });

  describe('PUT location-limit and member-limit', () => {
    it('sets the account limits (0 = unlimited) and enforces them on the customer API', async () => {
      const w = await agencyWorld();
      const created = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id));
      const id = created.body.data.id;
      const loc = await as(w.token).put(`/api/agency/v1/customers/${id}/location-limit`).send({ location_limit: 1 });
      expect(loc.status).toBe(200);
      expect(loc.body).toEqual({ message: 'Location limit updated successfully.' });
      const mem = await as(w.token).put(`/api/agency/v1/customers/${id}/member-limit`).send({ member_limit: 0 });
      expect(mem.body).toEqual({ message: 'Member limit updated successfully.' });
      expect(await Customer.findByPk(id)).toMatchObject({ locationLimit: 1, memberLimit: 0 });

      // One location (the Default Location) exists: the limit of 1 is reached.
      const user = (await User.findOne({ where: { customerId: id } }))!;
      const org = created.body.data.organizations[0];
      const refused = await as(await tokenFor(user)).post('/api/v1/locations').send({ organization_id: org.id, name: 'Second' });
      expect(refused.status).toBe(402);
      expect(refused.body.code).toBe('upgrade_required');
      await as(w.token).put(`/api/agency/v1/customers/${id}/location-limit`).send({ location_limit: 0 });
      expect((await as(await tokenFor(user)).post('/api/v1/locations').send({ organization_id: org.id, name: 'Second' })).status).toBe(201);
    });

    it.each([
      ['location-limit', 'location_limit'],
      ['member-limit', 'member_limit'],
    ])('PUT %s answers 422 for a missing, negative or non-integer value', async (path, field) => {
      const w = await agencyWorld();
      const id = (await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id))).body.data.id;
      for (const sent of [{}, { [field]: -1 }, { [field]: 1.5 }, { [field]: 'ten' }]) {
        const res = await as(w.token).put(`/api/agency/v1/customers/${id}/${path}`).send(sent);
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toEqual([field]);
      }
    });
  });

  describe('DELETE /api/agency/v1/customers/{customer}', () => {
    it('deletes the account permanently with everything in it', async () => {
      const w = await agencyWorld();
      const created = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id));
      const id = created.body.data.id;
      const user = (await User.findOne({ where: { customerId: id } }))!;
      const customerToken = await tokenFor(user);
      const second = await makeOrganization(user, 'Second Org');
      const home = await defaultLocationOf(second);
      const review = await makeReview(await testimonialsOf(home));
      await WebhookEndpoint.create({ tenantId: w.tenant.id, customerId: id, url: 'https://hooks.example.com/x', secret: 'whsec_x', enabled: true });
      const logo = await StoredFile.create({
        id: randomUUID(),
        tenantId: w.tenant.id,
        purpose: 'logo',
        filename: 'logo.png',
        contentType: 'image/png',
        size: 1,
        sha256: 'x'.repeat(64),
        content: Buffer.from('x'),
      });
      await second.update({ logoFileId: logo.id });
      await as(w.token).post(`/api/agency/v1/customers/${id}/add-credits`).send({ type: 'sms', credits: 5 });
      // A neighbour of the same tenant stays untouched.
      const neighbour = await as(w.token).post('/api/agency/v1/customers').send(body(w.plan.id));

      const res = await as(w.token).delete(`/api/agency/v1/customers/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Customer deleted successfully.' });

      expect(await Customer.findByPk(id)).toBeNull();
      expect(await User.count({ where: { customerId: id } })).toBe(0);
      expect(await ApiToken.count({ where: { userId: user.id } })).toBe(0);
      expect(await Organization.count({ where: { customerId: id } })).toBe(0);
      expect(await Location.count({ where: { customerId: id } })).toBe(0);
      expect(await Integration.count({ where: { customerId: id } })).toBe(0);
      expect(await Review.findByPk(review.id)).toBeNull();
      expect(await WebhookEndpoint.count({ where: { customerId: id } })).toBe(0);
      expect(await StoredFile.findByPk(logo.id)).toBeNull();
      const [[grants]] = (await Customer.sequelize!.query('SELECT COUNT(*) AS n FROM credit_grants WHERE customer_id = ?', { replacements: [id] })) as [Array<{ n: number }>, unknown];
      expect(Number(grants.n)).toBe(0);
      expect((await t.http().get('/api/v1/me').set('Authorization', `Bearer ${customerToken}`)).status).toBe(401);
      // The organisations' deletions are told as for a deleted organisation.
      const events = await OutboxEvent.findAll({ where: { customerId: id, event: 'organization-deleted' } });
      expect(events.map((e) => e.aggregateId).sort()).toEqual([String(created.body.data.organizations[0].id), String(second.id)].sort());

      expect(await Customer.findByPk(neighbour.body.data.id)).not.toBeNull();
      expect((await as(w.token).get('/api/agency/v1/customers')).body.data.map((c: { id: number }) => c.id)).toEqual([neighbour.body.data.id]);
      expect((await as(w.token).delete(`/api/agency/v1/customers/${id}`)).status).toBe(404);
    });
  });

  describe('scope: the token acts for its own tenant only', () => {
    const routes: Array<[string, 'get' | 'put' | 'post' | 'delete', (id: number) => string, Record<string, unknown>]> = [
      ['PUT plan', 'put', (id) => `/api/agency/v1/customers/${id}`, { custom_plan_id: '1' }],
      ['PUT location-limit', 'put', (id) => `/api/agency/v1/customers/${id}/location-limit`, { location_limit: 3 }],
      ['PUT member-limit', 'put', (id) => `/api/agency/v1/customers/${id}/member-limit`, { member_limit: 3 }],
      ['POST add-credits', 'post', (id) => `/api/agency/v1/customers/${id}/add-credits`, { type: 'email', credits: 1 }],
      ['PUT pause', 'put', (id) => `/api/agency/v1/customers/${id}/pause`, {}],
      ['PUT resume', 'put', (id) => `/api/agency/v1/customers/${id}/resume`, {}],
      ['DELETE', 'delete', (id) => `/api/agency/v1/customers/${id}`, {}],
    ];

    it.each(routes)("%s answers 404 for another tenant's customer and changes nothing", async (_label, method, path, sent) => {
      const w = await agencyWorld();
      const other = await makeTenant();
      const foreign = await makeOrgOwner(other.tenant.id);
      const before = (await Customer.findByPk(foreign.customerId!))!.toJSON();
      const res = await as(w.token)[method](path(foreign.customerId!)).send(sent);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Customer not found.' });
      expect((await Customer.findByPk(foreign.customerId!))!.toJSON()).toEqual(before);
    });

    it.each(routes)("%s answers 404 for the agency's own workspace account, an unknown id and a non-numeric id", async (_label, method, path, sent) => {
      const w = await agencyWorld();
      for (const id of [w.ownerAccount.id, 2_000_000_000]) {
        expect((await as(w.token)[method](path(id)).send(sent)).status).toBe(404);
      }
      const weird = path(1).replace(/customers\/1/, 'customers/abc');
      expect((await as(w.token)[method](weird).send(sent)).status).toBe(404);
      expect(await Customer.findByPk(w.ownerAccount.id)).not.toBeNull();
    });
  });

  describe('GET /api/agency/v1/custom-plans', () => {
    it("answers {data: [Custom plan]} with exactly the spec's fields, the tenant's plans only, in creation order", async () => {
      const w = await agencyWorld();
      const linked = await makePlan(w.tenant.id, { name: 'Monthly', billingMonthlyId: 'price_123', isHidden: true });
      await makePlan((await makeTenant()).tenant.id, { name: 'Foreign' });
      const res = await as(w.token).get('/api/agency/v1/custom-plans');
      expect(res.status).toBe(200);
      const json = (p: Plan) => ({
        id: p.id,
        billing_monthly_id: p.billingMonthlyId,
        billing_yearly_id: p.billingYearlyId,
        name: p.name,
        is_default: p.isDefault,
        is_hidden: p.isHidden,
        is_free: p.isFree,
        created_at: iso(p.createdAt),
        updated_at: iso(p.updatedAt),
      });
      const standard = (await Plan.findByPk(w.plan.id))!;
      expect(res.body).toEqual({ data: [json(standard), json((await Plan.findByPk(linked.id))!)] });
      expect(res.body.data[0]).toMatchObject({ name: 'Standard', is_default: true, is_free: true, billing_monthly_id: '', billing_yearly_id: '' });
      expect(res.body.data[1]).toMatchObject({ billing_monthly_id: 'price_123', is_hidden: true });
    });
  });
});
