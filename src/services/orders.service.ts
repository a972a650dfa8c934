import { randomUUID } from 'node:crypto';
import { UniqueConstraintError } from 'sequelize';
import { Conflict, Forbidden, NotFound, Validation, type FieldErrors } from '../domain/errors';
import type { Principal } from '../domain/principal';
import { Country, Customer, NfcOrder, NfcOrderItem } from '../models';
import type { NfcOrderStatus } from '../models/nfc-order.model';
import { clockOf, inTransaction, type ServiceOptions, tenantScoped } from './common';
import { charCount } from '../domain/limits';
import { isAccountEmail } from '../domain/email';

/**
 * NFC product orders of the agency's storefront (spec: NFC order). The storefront itself is not part of the
 * platform: orders arrive through `createOrder` (operator CLI `order:create`, the demo seed); the agency API
 * lists them and moves them through their states.
 *
 * States: pending -> shipped -> completed; pending or shipped -> canceled. completed and canceled are final.
 * Any other move is a 409 (`invalid_order_transition`), including repeating the one just made.
 */

export type OrderAction = 'ship' | 'complete' | 'cancel';

const TRANSITIONS: Record<OrderAction, { from: readonly NfcOrderStatus[]; to: NfcOrderStatus; done: string }> = {
  ship: { from: ['pending'], to: 'shipped', done: 'shipped' },
  complete: { from: ['shipped'], to: 'completed', done: 'completed' },
  cancel: { from: ['pending', 'shipped'], to: 'canceled', done: 'canceled' },
};

function assertAgency(p: Principal): void {
  if (p.tokenKind !== 'agency' || p.role !== 'tenant_owner') {
    throw new Forbidden('Only an agency token of the tenant owner can manage orders.', 'agency_token_required');
  }
}

/** Digits after the decimal point of a currency (2 for usd, 0 for jpy, 3 for kwd). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

export const fromMinor = (minor: number, currency: string): number => Number(minor) / 10 ** minorDigits(currency);

const ordered = { include: [NfcOrderItem], order: [['items', 'position', 'ASC']] as [string, string, string][] };

/** Every order of the agency, newest first, with its items. */
export async function list(p: Principal): Promise<NfcOrder[]> {
  assertAgency(p);
  return NfcOrder.findAll({
    where: tenantScoped(p),
    include: [NfcOrderItem],
    order: [
      ['createdAt', 'DESC'],
      ['orderNumber', 'DESC'],
      ['items', 'position', 'ASC'],
    ],
  });
}

const HTTP_URL_MAX = 2048;

export function isHttpUrl(value: string): boolean {
  if (value.length > HTTP_URL_MAX || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.hostname);
  } catch {
    return false;
  }
}

/** ship / complete / cancel: 404 for an order of another tenant, 409 when the state does not allow it. */
export async function transition(
  p: Principal,
  id: string,
  action: OrderAction,
  input: { trackingUrl?: string | null } = {},
  opts: ServiceOptions = {},
): Promise<NfcOrder> {
  assertAgency(p);
  const trackingUrl = input.trackingUrl?.trim() || null;
  if (action === 'ship' && trackingUrl !== null && !isHttpUrl(trackingUrl)) {
    throw new Validation({ tracking_url: ['The tracking url must be a valid URL (http or https, at most 2048 characters).'] });
  }
  const rule = TRANSITIONS[action];
  const now = clockOf(opts).now();
  await inTransaction(opts, async (transaction) => {
    const order = await NfcOrder.findOne({ where: { id, ...tenantScoped(p) }, transaction, lock: transaction.LOCK.UPDATE });
    if (!order) throw new NotFound('Order');
    if (!rule.from.includes(order.status)) {
      throw new Conflict(`The order is ${order.status}; it cannot be ${rule.done}.`, 'invalid_order_transition');
    }
    const patch: Partial<NfcOrder> = { status: rule.to };
    if (action === 'ship') {
      patch.shippedAt = now;
      patch.trackingUrl = trackingUrl;
    }
    if (action === 'complete') patch.completedAt = now;
    if (action === 'cancel') patch.canceledAt = now;
    await order.update(patch, { transaction });
  });
  return (await NfcOrder.findByPk(id, ordered))!;
}

export interface CreateOrderInput {
  tenantId: number;
  customerId?: number | null;
  orderNumber?: string | null;
  email: string;
  currency: string;
  shipping: { name: string; address: string; city: string; country: string };
  items: Array<{ productName: string; quantity: number; unitPrice: number; nfcUrls: string[] }>;
}

/**
 * An order as the storefront would hand it over (operator action, no principal). The total is the sum of the
 * items; prices are given in major units and stored in minor units of the currency.
 */
export async function createOrder(input: CreateOrderInput, opts: ServiceOptions = {}): Promise<NfcOrder> {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const email = input.email.trim().toLowerCase();
  // Measured before the pattern (isAccountEmail): the pattern alone took minutes on a 200 KB value.
  if (!isAccountEmail(email)) add('email', 'The email must be a valid email address.');
  const currency = input.currency.trim().toLowerCase();
  if (!/^[a-z]{3}$/.test(currency) || !Intl.supportedValuesOf('currency').includes(currency.toUpperCase())) {
    add('currency', 'The currency must be an ISO 4217 code such as usd.');
  }
  const country = input.shipping.country.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country) || !(await Country.findByPk(country))) add('country', 'The country must be an ISO 3166-1 alpha-2 code.');
  for (const [key, value] of Object.entries({ name: input.shipping.name, address: input.shipping.address, city: input.shipping.city })) {
    if (!value.trim() || charCount(value) > 255) add(key, `The ${key} must be between 1 and 255 characters.`);
  }
  if (!input.items.length) add('items', 'An order needs at least one item.');
  const digits = minorDigits(currency);
  const items = input.items.map((item, position) => {
    if (!item.productName.trim() || charCount(item.productName) > 255) add('items', `Item ${position + 1}: the product name must be between 1 and 255 characters.`);
    if (!Number.isInteger(item.quantity) || item.quantity < 1) add('items', `Item ${position + 1}: the quantity must be a positive integer.`);
    if (!Number.isFinite(item.unitPrice) || item.unitPrice < 0) add('items', `Item ${position + 1}: the unit price must be a number of at least 0.`);
    for (const url of item.nfcUrls) if (!isHttpUrl(url)) add('items', `Item ${position + 1}: "${url}" is not a valid URL.`);
    return {
      position,
      productName: item.productName.trim(),
      quantity: item.quantity,
      unitPriceMinor: Math.round(item.unitPrice * 10 ** digits),
      nfcUrls: item.nfcUrls,
    };
  });
  const given = input.orderNumber?.trim();
  if (given !== undefined && given !== null && (!given || given.length > 64)) add('order_number', 'The order number must be between 1 and 64 characters.');
  if (input.customerId != null && !(await Customer.count({ where: { id: input.customerId, tenantId: input.tenantId } }))) {
    add('customer', 'The customer does not exist in this tenant.');
  }
  if (Object.keys(errors).length) throw new Validation(errors);

  const total = items.reduce((sum, i) => sum + i.unitPriceMinor * i.quantity, 0);
  for (let attempt = 0; ; attempt++) {
    try {
      return await inTransaction(opts, async (transaction) => {
        const orderNumber = given || `NFC-${1001 + (await NfcOrder.count({ where: { tenantId: input.tenantId }, transaction })) + attempt}`;
        const order = await NfcOrder.create(
          {
            id: randomUUID(),
            tenantId: input.tenantId,
            customerId: input.customerId ?? null,
            orderNumber,
            email,
            totalMinor: total,
            currency,
            status: 'pending',
            shippingName: input.shipping.name.trim(),
            shippingAddress: input.shipping.address.trim(),
            shippingCity: input.shipping.city.trim(),
            shippingCountry: country,
          },
          { transaction },
        );
        for (const item of items) await NfcOrderItem.create({ tenantId: order.tenantId, orderId: order.id, ...item }, { transaction });
        return (await NfcOrder.findByPk(order.id, { ...ordered, transaction }))!;
      });
    } catch (e) {
      if (!(e instanceof UniqueConstraintError)) throw e;
      if (given) throw new Validation({ order_number: ['The order number has already been taken.'] });
      if (attempt >= 5) throw e;
    }
  }
}
