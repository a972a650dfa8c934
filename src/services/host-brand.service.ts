import { Tenant, TenantDomain } from '../models';
import type { ServiceOptions } from './common';

/**
 * The brand of the host a request came in on: a tenant's white-label domain names that tenant (its brand name and
 * logo); any other host (the platform's own name, an IP address, an unknown domain) has none, and the caller shows
 * the platform's default brand. Read by the public developer pages (`/docs`, GraphiQL), which have no other key.
 */
export interface HostBrand {
  name: string;
  logoUrl: string | null;
}

export async function brandOfHost(hostname: string, opts: ServiceOptions = {}): Promise<HostBrand | null> {
  const name = hostname.trim().toLowerCase();
  if (!name) return null;
  const domain = await TenantDomain.findOne({ where: { domain: name }, include: [{ model: Tenant, required: true }], transaction: opts.transaction });
  const tenant = domain?.tenant;
  return tenant ? { name: tenant.brandName || tenant.name, logoUrl: tenant.logoUrl } : null;
}
