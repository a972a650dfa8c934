import { literal, Op, where } from 'sequelize';
import { Tenant, TenantDomain } from '../models';
import { logoKey, shownLogoUrl } from '../reports/logo';
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

/**
 * The brand of the host as a page shows it: its logo only when the platform can serve it (`shownLogoUrl`: a logo it
 * cannot fetch shows the name alone, not a broken image). Null for a host that names no tenant, as `brandOfHost`.
 */
export async function shownBrandOfHost(hostname: string): Promise<HostBrand | null> {
  const brand = await brandOfHost(hostname);
  return brand && { ...brand, logoUrl: await shownLogoUrl(brand.logoUrl) };
}

/** Logo URLs found by their key lately (a minute), so a page's visitors don't each cost a query. */
const logoUrls = new Map<string, { url: string; at: number }>();
const LOGO_URL_KEEP_MS = 60_000;

/**
 * The agency logo URL whose key is `key` (`logoKey`, what `GET /brand/logo/<key>` serves), or null: only a URL some
 * tenant has as its logo, so the route fetches nothing else. Looked up by the key's hash in the database (the tenants
 * are the agencies: a short table).
 */
export async function logoUrlOfKey(key: string, opts: ServiceOptions = {}): Promise<string | null> {
  const known = logoUrls.get(key);
  if (known && Date.now() - known.at < LOGO_URL_KEEP_MS) return known.url;
  const tenant = await Tenant.findOne({
    attributes: ['logoUrl'],
    where: { [Op.and]: [{ logoUrl: { [Op.ne]: null } }, literalWhere('LEFT(SHA2(logo_url, 256), 32)', key)] },
    transaction: opts.transaction,
  });
  if (!tenant?.logoUrl || logoKey(tenant.logoUrl) !== key) return null;
  if (logoUrls.size >= 1_000) logoUrls.clear();
  logoUrls.set(key, { url: tenant.logoUrl, at: Date.now() });
  return tenant.logoUrl;
}

/** `<sql expression> = value`, the value bound. */
const literalWhere = (expression: string, value: string) => where(literal(expression), value);
