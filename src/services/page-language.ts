import { Customer, type Tenant } from '../models';
import type { ServiceOptions } from './common';

/**
 * The language a page or message for a customer account speaks: the account's (`customers.language`), else the
 * agency's (`tenants.language`), else English. Pages translate through src/i18n, which reads any other code as
 * English.
 */
export function accountLanguage(
  customer: Pick<Customer, 'language'> | null | undefined,
  tenant: Pick<Tenant, 'language'> | null | undefined,
): string {
  return customer?.language || tenant?.language || 'en';
}

/** The same, loading the account by id. */
export async function customerLanguage(
  customerId: number | null | undefined,
  tenant: Pick<Tenant, 'language'> | null | undefined,
  opts: ServiceOptions = {},
): Promise<string> {
  const customer = customerId ? await Customer.findByPk(customerId, { attributes: ['id', 'language'], transaction: opts.transaction }) : null;
  return accountLanguage(customer, tenant);
}
