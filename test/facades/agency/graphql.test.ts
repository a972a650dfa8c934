import { Customer } from '../../../src/models';
import { useApp } from '../../support/app';
import { countStatements } from '../../support/db';
import { agencyTokenFor, makeOrder, makeOrgOwner, makeTenant, tokenFor } from '../../support/factories';

/** The agency area of the GraphQL schema: the same operations the agency REST API runs. */
describe('GraphQL agency area', () => {
  const t = useApp();
  const gql = (token: string, query: string, variables: Record<string, unknown> = {}) =>
    t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query, variables });

  it('refuses customer tokens with FORBIDDEN agency_token_required, AI tokens with wrong_token_kind, and anonymous callers with UNAUTHENTICATED', async () => {
    const { tenant, owner } = await makeTenant();
    const orgOwner = await makeOrgOwner(tenant.id);
    const ai = await tokenFor(owner, ['mcp:access'], 'ai');
    for (const token of [await tokenFor(owner), await tokenFor(orgOwner), ai]) {
      for (const query of ['{ customPlans { id } }', '{ nfcOrders { id } }', `mutation { pauseCustomer(id: ${orgOwner.customerId}) { message } }`]) {
        const res = await gql(token, query);
        expect(res.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: token === ai ? 'wrong_token_kind' : 'agency_token_required' });
      }
    }
    expect((await Customer.findByPk(orgOwner.customerId!))!.subscriptionStatus).toBe('active');
    const anonymous = await t.http().post('/graphql').send({ query: '{ customPlans { id } }' });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('creates, finds, changes, credits, pauses and deletes a customer', async () => {
    const { owner, plan } = await makeTenant();
    const token = await agencyTokenFor(owner);
    const created = await gql(
      token,
      `mutation ($input: CreateCustomerInput!) { createCustomer(input: $input) { id name email phone customPlan { id name } organizations { name } subscriptionStatus locationLimit } }`,
      { input: { name: 'Gina', company: 'Gina Gelato', email: 'gina@gelato.test', password: 'password1', customPlanId: String(plan.id), phone: '+442071838750', locationLimit: 4 } },
    );
    expect(created.body.errors).toBeUndefined();
    const c = created.body.data.createCustomer;
    expect(c).toMatchObject({ name: 'Gina', email: 'gina@gelato.test', phone: '+442071838750', customPlan: { id: plan.id, name: 'Standard' }, organizations: [{ name: 'Gina Gelato' }], subscriptionStatus: 'active', locationLimit: 4 });

    const invalid = await gql(token, `mutation ($input: CreateCustomerInput!) { createCustomer(input: $input) { id } }`, {
      input: { name: '', company: 'X', email: 'gina@gelato.test', password: 'short', customPlanId: 'x' },
    });
    expect(invalid.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION',
      fields: {
        name: ['The name field is required.'],
        email: ['The email has already been taken.'],
        password: ['The password must be at least 8 characters.'],
        custom_plan_id: ['The selected custom plan id is invalid.'],
      },
    });

    const found = await gql(token, '{ agencyCustomers(search: "gelato", page: 1, perPage: 5) { total items { id } } }');
    expect(found.body.data.agencyCustomers).toEqual({ total: 1, items: [{ id: c.id }] });
    const credits = await gql(token, `mutation { addCustomerCredits(id: ${c.id}, input: { type: "sms", credits: 12 }) { message type balance } }`);
    expect(credits.body.data.addCustomerCredits).toEqual({ message: 'Credits added successfully.', type: 'sms', balance: 12 });
    expect((await gql(token, `{ agencyCustomerCredits(id: ${c.id}, type: "sms") }`)).body.data.agencyCustomerCredits).toBe(12);
    expect((await gql(token, `mutation { setCustomerMemberLimit(id: ${c.id}, memberLimit: 3) { message } }`)).body.data.setCustomerMemberLimit.message).toBe(
      'Member limit updated successfully.',
    );
    expect((await gql(token, `mutation { pauseCustomer(id: ${c.id}) { message } }`)).body.data.pauseCustomer.message).toBe('Subscription has been paused.');
    const again = await gql(token, `mutation { pauseCustomer(id: ${c.id}) { message } }`);
    expect(again.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'already_paused' });
    // Agency tokens are never held back by the pause they set.
    expect((await gql(token, `mutation { deleteCustomer(id: ${c.id}) { message } }`)).body.data.deleteCustomer.message).toBe('Customer deleted successfully.');
    const gone = await gql(token, `{ agencyCustomer(id: ${c.id}) { id } }`);
    expect(gone.body.errors[0].extensions.code).toBe('NOT_FOUND');
  });

  it('lists orders and moves them through their states', async () => {
    const { tenant, owner } = await makeTenant();
    const token = await agencyTokenFor(owner);
    const order = await makeOrder(tenant.id);
    const list = await gql(token, '{ nfcOrders { id status total currency items { productName quantity unitPrice } } }');
    expect(list.body.data.nfcOrders).toEqual([
      { id: order.id, status: 'pending', total: 74.98, currency: 'usd', items: [
        { productName: 'NFC review card', quantity: 2, unitPrice: 19.99 },
        { productName: 'NFC stand', quantity: 1, unitPrice: 35 },
      ] },
    ]);
    const shipped = await gql(token, `mutation { shipNfcOrder(id: "${order.id}", trackingUrl: "https://t.example.com/1") { status shipping { trackingUrl } shippedAt } }`);
    expect(shipped.body.data.shipNfcOrder).toMatchObject({ status: 'shipped', shipping: { trackingUrl: 'https://t.example.com/1' }, shippedAt: expect.any(String) });
    const late = await gql(token, `mutation { shipNfcOrder(id: "${order.id}") { status } }`);
    expect(late.body.errors[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'invalid_order_transition' });
  });

  it('resolves a page of customers with a constant number of SQL statements (no N+1)', async () => {
    const { owner, plan } = await makeTenant();
    const token = await agencyTokenFor(owner);
    const create = (i: number) =>
      gql(token, `mutation ($input: CreateCustomerInput!) { createCustomer(input: $input) { id } }`, {
        input: { name: `C${i}`, company: `Co ${i}`, email: `c${i}-${Date.now()}@n1.test`, password: 'password1', customPlanId: String(plan.id) },
      });
    const run = async () => {
      const { n, result: res } = await countStatements(t.db(), async () =>
        gql(token, '{ agencyCustomers(page: 1, perPage: 100) { total items { id customPlan { name } organizations { id name } } } }'),
      );
      expect(res.body.errors).toBeUndefined();
      return { n, count: res.body.data.agencyCustomers.items.length };
    };
    await create(0);
    await run(); // warm-up: token bookkeeping
    const before = await run();
    for (let i = 1; i <= 4; i++) await create(i);
    const after = await run();
    expect(after.count).toBe(before.count + 4);
    expect(after.n).toBe(before.n);
  });
});
