import { randomUUID } from 'node:crypto';
import { useApp } from '../support/app';
import { cli, cliJson } from './binary';

/** `reviewgrid order:create` (the built binary), its orders checked through the agency API. */
jest.setTimeout(90_000);
const t = useApp();

async function agency() {
  const id = randomUUID().slice(0, 8);
  const domain = `order-cli-${id}.test`;
  const res = await cliJson('tenant:create', '--name', `Orders ${id}`, '--domain', domain, '--owner-email', `boss-${id}@orders.test`, '--issue-tokens');
  expect(res.code).toBe(0);
  return { domain, agencyToken: res.json.tokens[0].token as string };
}

const order = (domain: string, ...args: string[]) =>
  cliJson('order:create', '--tenant', domain, '--email', 'buyer@orders.test', '--name', 'Ann Buyer', '--address', '5 Elm St', '--city', 'Austin', '--country', 'US', ...args);

describe('reviewgrid order:create --item', () => {
  it("stores each NFC URL whole: a colon of its port, path or query does not end it", async () => {
    const a = await agency();
    const urls = ['https://shop.test:8443/r/abc', 'https://shop.test/r?q=a:b', 'http://[::1]:8080/r/1'];
    const res = await order(a.domain, '--item', `Card:2:9.99:${urls.join('|')}`, '--item', 'Stand:1:39');
    expect(res.code).toBe(0);
    expect(res.json.order.total_minor).toBe(2 * 999 + 3900);

    const listed = await t.as(a.agencyToken).get('/api/agency/v1/orders');
    expect(listed.body.data[0].items).toEqual([
      { product_name: 'Card', quantity: 2, unit_price: 9.99, nfc_urls: urls },
      { product_name: 'Stand', quantity: 1, unit_price: 39, nfc_urls: [] },
    ]);
  });

  it('refuses a price finer than the currency, or a quantity or total the database cannot hold, with exit 2 and no order', async () => {
    const a = await agency();
    const refusals: Array<[args: string[], message: string]> = [
      [['--item', 'Card:1:9.999'], '--item "Card:1:9.999": a USD price has at most 2 decimals'],
      [['--item', 'Card:1:10.5', '--currency', 'jpy'], '--item "Card:1:10.5": a JPY price has no decimals'],
      [['--item', 'Card:99999999999:1'], '--item "Card:99999999999:1": the quantity may not be greater than 4294967295'],
      [['--item', 'Card:4294967295:99999'], 'the order total may not be greater than 9007199254740991 minor units'],
      [['--item', 'Card:1:99999999999999999999'], 'the order total may not be greater than 9007199254740991 minor units'],
      [['--item', 'Card:1:https://shop.test'], '--item "Card:1:https://shop.test" is not "product name:quantity:unit price[:url|url]"'],
    ];
    for (const [args, message] of refusals) {
      const res = await order(a.domain, ...args);
      expect({ args, code: res.code, message: res.json.error?.message }).toEqual({ args, code: 2, message });
    }
    const text = await cli(['order:create', '--tenant', a.domain, '--email', 'b@orders.test', '--name', 'A', '--address', 'B', '--city', 'C', '--country', 'US', '--item', 'Card:1:1.005']);
    expect([text.code, text.stderr]).toEqual([2, 'Error: --item "Card:1:1.005": a USD price has at most 2 decimals\n']);
    expect((await t.as(a.agencyToken).get('/api/agency/v1/orders')).body.data).toEqual([]);

    // Trailing zeros change nothing: 9.990 is 9.99.
    const zeros = await order(a.domain, '--item', 'Card:1:9.990');
    expect([zeros.code, zeros.json.order.total_minor]).toEqual([0, 999]);
  });
});
