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

export async function orderCreate(o: OrderCreateOpts): Promise<CliResult> {
  if (!o.item.length) throw new CliInputError('at least one --item "name:quantity:unit price[:url|url]" is needed');
  const items = o.item.map((line) => {
    const [productName, quantity, unitPrice, urls] = line.split(/:(?!\/\/)/);
    if (!productName || !/^\d+$/.test(quantity ?? '') || !/^\d+(\.\d+)?$/.test(unitPrice ?? '')) {
      throw new CliInputError(`--item "${line}" is not "product name:quantity:unit price[:url|url]"`);
    }
    return { productName, quantity: Number(quantity), unitPrice: Number(unitPrice), nfcUrls: urls ? urls.split('|').filter(Boolean) : [] };
  });
  const tenant = await findTenant(o.tenant);
  const { createOrder } = await import('../../services/orders.service');
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

export async function demoSeed(o: { reviews: string; domain: string }, config: Pick<Config, 'NODE_ENV'>): Promise<CliResult> {
  const refused = demoRefusal(config);
  if (refused) throw new CliInputError(`demo:seed: ${refused}`);
  if (!/^\d+$/.test(o.reviews)) throw new CliInputError('--reviews must be a whole number');
  const { seedDemo } = await import('../../services/demo.service');
  const { tenant, tokens } = await seedDemo({ reviews: Number(o.reviews), domain: o.domain });
  const text = [`Demo tenant #${tenant.id} "${tenant.name}" seeded with ${o.reviews} reviews. Tokens:`]
    .concat(tokens.map((t) => `  ${t.label.padEnd(48)} ${t.token}`))
    .join('\n');
  return { text, data: { tenant: { id: tenant.id, name: tenant.name }, reviews: Number(o.reviews), tokens } };
}
