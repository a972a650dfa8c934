import { demoRefusal, type Config } from '../../config';
import { findTenant } from '../../services/admin.service';
import { CliInputError, idOf, type CliResult } from '../run';

/**
 * Commands that need heavier services (orders, grid providers, the demo seed): in their own module, so the everyday
 * commands never load them.
 */

export interface OrderCreateOpts {
  tenant: string;
  email: string;
  name: string;
  address: string;
  city: string;
  country: string;
  currency: string;
  number?: string;
  customer?: string;
  item: string[];
}

/** Largest quantity of an order line: the column is INT UNSIGNED. */
const MAX_QUANTITY = 4_294_967_295;

export async function orderCreate(o: OrderCreateOpts): Promise<CliResult> {
  if (!o.item.length) throw new CliInputError('at least one --item "name:quantity:unit price[:url|url]" is needed');
  const { createOrder, minorDigits } = await import('../../services/orders.service');
  const digits = minorDigits(o.currency.trim());
  let totalMinor = 0;
  const items = o.item.map((line) => {
    // Only the first three colons separate fields: the URLs keep theirs (a port, a path, a query) whole.
    const [productName, quantity, unitPrice, ...rest] = line.split(':');
    const urls = rest.join(':');
    if (!productName || !/^\d+$/.test(quantity ?? '') || !/^\d+(\.\d+)?$/.test(unitPrice ?? '')) {
      throw new CliInputError(`--item "${line}" is not "product name:quantity:unit price[:url|url]"`);
    }
    if (Number(quantity) > MAX_QUANTITY) throw new CliInputError(`--item "${line}": the quantity may not be greater than ${MAX_QUANTITY}`);
    // The price is stored in minor units: a digit the currency does not have would be rounded away, so it is refused.
    const [whole, fraction = ''] = unitPrice.split('.');
    const decimals = fraction.replace(/0+$/, '');
    if (decimals.length > digits) {
      throw new CliInputError(`--item "${line}": a ${o.currency.trim().toUpperCase()} price has ${digits ? `at most ${digits} decimals` : 'no decimals'}`);
    }
    totalMinor += Number(whole + decimals.padEnd(digits, '0')) * Number(quantity);
    return { productName, quantity: Number(quantity), unitPrice: Number(unitPrice), nfcUrls: urls.split('|').filter(Boolean) };
  });
  // Beyond this the total (and the line prices) would no longer be exact, nor fit the database's BIGINT.
  if (!Number.isSafeInteger(totalMinor)) throw new CliInputError(`the order total may not be greater than ${Number.MAX_SAFE_INTEGER} minor units`);
  const tenant = await findTenant(o.tenant);
  const order = await createOrder({
    tenantId: tenant.id,
    customerId: o.customer ? idOf(o.customer, '--customer') : null,
    orderNumber: o.number ?? null,
    email: o.email,
    currency: o.currency,
    shipping: { name: o.name, address: o.address, city: o.city, country: o.country },
    items,
  });
  return {
    text: `Order ${order.orderNumber} (${order.id}) recorded for tenant #${tenant.id}, status ${order.status}.`,
    data: { order: { id: order.id, order_number: order.orderNumber, status: order.status, total_minor: order.totalMinor, currency: order.currency } },
  };
}

export interface GridConfigureOpts {
  tenant: string;
  mode: string;
  dataforseoLogin?: string;
  dataforseoPassword?: string;
  googleMapsKey?: string;
  dataforseoUrl?: string;
  googleMapsUrl?: string;
}

export async function gridConfigure(o: GridConfigureOpts): Promise<CliResult> {
  const tenant = await findTenant(o.tenant);
  const { configureGridProviders } = await import('../../services/grid-providers.service');
  const setting = await configureGridProviders({
    tenantId: tenant.id,
    mode: o.mode,
    dataforseoLogin: o.dataforseoLogin ?? null,
    dataforseoPassword: o.dataforseoPassword ?? null,
    googleMapsKey: o.googleMapsKey ?? null,
    dataforseoBaseUrl: o.dataforseoUrl ?? null,
    googleMapsBaseUrl: o.googleMapsUrl ?? null,
  });
  return {
    text: `Local Search Grid providers of tenant #${tenant.id}: ${setting.mode}.`,
    data: { tenant: { id: tenant.id }, grid_providers: { mode: setting.mode, dataforseo_login: setting.dataforseoLogin } },
  };
}

/** The most reviews a demo tenant is seeded with: beyond it the seed runs for hours (an overflowing number, for ever). */
const MAX_DEMO_REVIEWS = 1_000_000;

export async function demoSeed(o: { reviews: string; domain: string }, config: Pick<Config, 'NODE_ENV'>): Promise<CliResult> {
  const refused = demoRefusal(config);
  if (refused) throw new CliInputError(`demo:seed: ${refused}`);
  if (!/^\d+$/.test(o.reviews) || Number(o.reviews) > MAX_DEMO_REVIEWS) throw new CliInputError(`--reviews must be a whole number from 0 to ${MAX_DEMO_REVIEWS}`);
  const { seedDemo } = await import('../../services/demo.service');
  const { tenant, tokens } = await seedDemo({ reviews: Number(o.reviews), domain: o.domain });
  const text = [`Demo tenant #${tenant.id} "${tenant.name}" seeded with ${o.reviews} reviews. Tokens:`]
    .concat(tokens.map((t) => `  ${t.label.padEnd(48)} ${t.token}`))
    .join('\n');
  return { text, data: { tenant: { id: tenant.id, name: tenant.name }, reviews: Number(o.reviews), tokens } };
}
