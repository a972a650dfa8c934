import { randomUUID } from 'node:crypto';
import { NfcOrder } from '../../../src/models';
import { useApp } from '../../support/app';
import { databaseUrlFor } from '../../support/env';
import { agencyTokenFor, makeOrder, makeTenant } from '../../support/factories';
import { runTs } from '../../support/spawn';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('agency API: NFC orders', () => {
  const t = useApp();
  const as = t.as;

  async function world() {
    const { tenant, owner } = await makeTenant();
    return { tenant, token: await agencyTokenFor(owner) };
  }

  describe('GET /api/agency/v1/orders', () => {
    it("answers {data: [NFC order]} with the spec's fields, the tenant's orders only, newest first", async () => {
      const w = await world();
      const first = await makeOrder(w.tenant.id, { orderNumber: 'NFC-1', currency: 'USD' });
      const second = await makeOrder(w.tenant.id, { orderNumber: 'NFC-2', email: 'Shop@Buyer.TEST' });
      await makeOrder((await makeTenant()).tenant.id);
      const res = await as(w.token).get('/api/agency/v1/orders');
      expect(res.status).toBe(200);
      expect(res.body.data.map((o: { id: string }) => o.id)).toEqual([second.id, first.id]);
      expect(res.body.data[1]).toEqual({
        id: first.id,
        order_number: 'NFC-1',
        email: first.email,
        total: 74.98,
        currency: 'usd',
        status: 'pending',
        shipping: { name: 'Buyer Name', address: '1 Main Street', city: 'Springfield', country: 'US', tracking_url: null },
        items: [
          { product_name: 'NFC review card', quantity: 2, unit_price: 19.99, nfc_urls: ['https://r.example.test/a', 'https://r.example.test/b'] },
          { product_name: 'NFC stand', quantity: 1, unit_price: 35, nfc_urls: ['https://r.example.test/c'] },
        ],
      });
      expect(res.body.data[0].email).toBe('shop@buyer.test');
      expect(res.body.data[0].id).toMatch(UUID);
    });

    it('gives zero-decimal currencies whole totals', async () => {
      const w = await world();
      await makeOrder(w.tenant.id, { currency: 'jpy', items: [{ productName: 'Card', quantity: 3, unitPrice: 1500, nfcUrls: [] }] });
      const res = await as(w.token).get('/api/agency/v1/orders');
      expect(res.body.data[0]).toMatchObject({ total: 4500, currency: 'jpy', items: [{ unit_price: 1500, nfc_urls: [] }] });
    });
  });

  describe('transitions: pending -> shipped -> completed; pending|shipped -> canceled', () => {
    it('ships with a tracking URL, then completes; each answers {data: NFC order}', async () => {
      const w = await world();
      const order = await makeOrder(w.tenant.id);
      const shipped = await as(w.token).put(`/api/agency/v1/orders/${order.id}/ship`).send({ tracking_url: 'https://track.example.com/1Z999' });
      expect(shipped.status).toBe(200);
      expect(shipped.body.data).toMatchObject({ id: order.id, status: 'shipped', shipping: { tracking_url: 'https://track.example.com/1Z999' } });
      const completed = await as(w.token).put(`/api/agency/v1/orders/${order.id}/complete`);
      expect(completed.status).toBe(200);
      expect(completed.body.data).toMatchObject({ status: 'completed', shipping: { tracking_url: 'https://track.example.com/1Z999' } });
      const row = (await NfcOrder.findByPk(order.id))!;
      expect(row.shippedAt).toBeInstanceOf(Date);
      expect(row.completedAt).toBeInstanceOf(Date);
    });

    it('ships without a tracking URL (optional) and cancels a pending or a shipped order', async () => {
      const w = await world();
      const a = await makeOrder(w.tenant.id);
      const shipped = await as(w.token).put(`/api/agency/v1/orders/${a.id}/ship`).send({});
      expect(shipped.body.data).toMatchObject({ status: 'shipped', shipping: { tracking_url: null } });
      expect((await as(w.token).put(`/api/agency/v1/orders/${a.id}/cancel`)).body.data.status).toBe('canceled');
      const b = await makeOrder(w.tenant.id);
      const canceled = await as(w.token).put(`/api/agency/v1/orders/${b.id}/cancel`);
      expect(canceled.status).toBe(200);
      expect(canceled.body.data.status).toBe('canceled');
    });

    it.each([
      ['pending', 'complete'],
      ['shipped', 'ship'],
      ['completed', 'ship'],
      ['completed', 'complete'],
      ['completed', 'cancel'],
      ['canceled', 'ship'],
      ['canceled', 'complete'],
      ['canceled', 'cancel'],
    ] as const)('answers 409 invalid_order_transition for a %s order on %s, and changes nothing', async (status, action) => {
      const w = await world();
      const order = await makeOrder(w.tenant.id);
      await order.update({ status });
      const res = await as(w.token).put(`/api/agency/v1/orders/${order.id}/${action}`).send({});
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: expect.stringContaining(`The order is ${status}`), code: 'invalid_order_transition' });
      expect((await NfcOrder.findByPk(order.id))!.status).toBe(status);
    });

    it.each([
      ['an ftp URL', 'ftp://track.example.com/1'],
      ['text', 'not a url'],
      ['a URL without scheme', 'track.example.com/1'],
      ['a URL over 2048 characters', `https://e.com/${'x'.repeat(2048)}`],
    ])(
      'answers 422 for a tracking_url that is %s',
      async (_label, trackingUrl) => {
        const w = await world();
        const order = await makeOrder(w.tenant.id);
        const res = await as(w.token).put(`/api/agency/v1/orders/${order.id}/ship`).send({ tracking_url: trackingUrl });
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.errors)).toEqual(['tracking_url']);
        expect((await NfcOrder.findByPk(order.id))!.status).toBe('pending');
      },
    );

    it.each(['ship', 'complete', 'cancel'])("%s answers 404 for another tenant's order, an unknown id and a non-UUID", async (action) => {
      const w = await world();
      const foreign = await makeOrder((await makeTenant()).tenant.id);
      for (const id of [foreign.id, randomUUID(), 'NFC-1001']) {
        const res = await as(w.token).put(`/api/agency/v1/orders/${id}/${action}`).send({});
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'Order not found.' });
      }
      expect((await NfcOrder.findByPk(foreign.id))!.status).toBe('pending');
    });
  });

  describe('CLI order:create and tenant:create --tax-calculation', () => {
    jest.setTimeout(60_000);
    const cli = async (...args: string[]) => {
      const res = await runTs('src/cli/index.ts', ['--json', ...args], { DATABASE_URL: databaseUrlFor(process.env.JEST_WORKER_ID ?? '1') });
      const last = res.stdout.trim().split('\n').pop() ?? '';
      return { ...res, json: last ? JSON.parse(last) : null };
    };

    it('records an order an operator types in, which the agency then sees', async () => {
      const id = randomUUID().slice(0, 8);
      const created = await cli('tenant:create', '--name', `Order Agency ${id}`, '--domain', `orders-${id}.test`, '--owner-email', `o-${id}@cli.test`, '--tax-calculation');
      expect(created.code).toBe(0);
      expect(created.json.tenant.tax_calculation_enabled).toBe(true);
      const order = await cli(
        'order:create', '--tenant', `orders-${id}.test`, '--email', 'buyer@cli.test', '--name', 'Ann Buyer', '--address', '5 Elm St',
        '--city', 'Austin', '--country', 'us', '--currency', 'EUR',
        '--item', 'NFC card:2:9.50:https://r.example.test/1|https://r.example.test/2',
      );
      expect(order.code).toBe(0);
      expect(order.json.order).toMatchObject({ order_number: 'NFC-1001', status: 'pending', total_minor: 1900, currency: 'eur' });

      const bad = await cli('order:create', '--tenant', `orders-${id}.test`, '--email', 'x', '--name', 'A', '--address', 'B', '--city', 'C', '--country', 'ZZ', '--item', 'Card:1:5');
      expect(bad.code).toBe(2);
      expect(Object.keys(bad.json.error.fields).sort()).toEqual(['country', 'email']);

      const token = await cli('token:create', '--user', `o-${id}@cli.test`, '--kind', 'agency');
      const res = await t.as(token.json.token).get('/api/agency/v1/orders');
      expect(res.body.data).toEqual([
        expect.objectContaining({
          id: order.json.order.id,
          total: 19,
          currency: 'eur',
          shipping: { name: 'Ann Buyer', address: '5 Elm St', city: 'Austin', country: 'US', tracking_url: null },
          items: [{ product_name: 'NFC card', quantity: 2, unit_price: 9.5, nfc_urls: ['https://r.example.test/1', 'https://r.example.test/2'] }],
        }),
      ]);
      // Tax calculation is on for this tenant: a customer without country is refused.
      const customer = await t.as(token.json.token).post('/api/agency/v1/customers').send({
        name: 'N', company: 'C', email: `c-${id}@cli.test`, password: 'password1', custom_plan_id: String(created.json.plan.id),
      });
      expect(customer.status).toBe(422);
      expect(Object.keys(customer.body.errors)).toEqual(['country']);
    });
  });
});
