import type { Transaction } from 'sequelize';
import { publicBaseUrl } from '../config';
import { NotFound, Validation } from '../domain/errors';
import { Tenant, TenantDomain } from '../models';
import { UNSUBSCRIBE_PATH, UNSUBSCRIBE_TOKEN_CHARS } from '../messaging/links';
import { SMS_LINK_CHARS } from '../messaging/templates';

/**
 * The origin of the links an agency's customers and their customers get: review requests (review and unsubscribe
 * links, e-mail and SMS), connect links and scan report links. PUBLIC_URL by default; with the agency's link domain
 * set (`reviewgrid tenant:link-domain`, one of its `tenant_domains`, once that domain serves this platform: DNS to
 * the proxy in front of the API, its TLS certificate there) PUBLIC_URL with that host, its scheme, port and path kept,
 * as the inbound webhook URL already is (`inboundBaseFor`). The links' paths and tokens do not change, and every page
 * answers on any host, so links mailed before a change keep working on the old host as long as it serves the platform.
 * The Message-IDs stay on PUBLIC_URL's host: the same message must keep the same id across a change.
 */

/**
 * The longest link base (52): an SMS step counts each link placeholder as SMS_LINK_CHARS (100) when it is saved, and
 * the unsubscribe link, the longer of the two, is the base, `/u/` and its 45-character token.
 */
export const MAX_LINK_BASE_CHARS = SMS_LINK_CHARS - UNSUBSCRIBE_PATH.length - UNSUBSCRIBE_TOKEN_CHARS;

/** How long a process keeps an agency's link domain before reading it again (a change reaches the workers this late). */
export const LINK_DOMAIN_TTL_MS = 30_000;
const MAX_CACHED = 10_000;
const cache = new Map<number, { domain: Promise<string | null>; until: number }>();

/** PUBLIC_URL (`base`) with `domain` as its host; `base` itself without one. */
export function linkBaseOf(domain: string | null, base: string = publicBaseUrl()): string {
  if (!domain) return base;
  const url = new URL(base);
  url.hostname = domain;
  return url.toString().replace(/\/+$/, '');
}

/**
 * The link base of an agency, read at most every LINK_DOMAIN_TTL_MS per process: one read for a batch of invites
 * prepared at once (they share the read under way), none for the batches after it.
 */
export async function tenantLinkBase(tenantId: number, opts: { transaction?: Transaction } = {}): Promise<string> {
  const now = Date.now();
  let entry = cache.get(tenantId);
  if (!entry || entry.until <= now) {
    if (cache.size >= MAX_CACHED) cache.clear();
    const domain = Tenant.findByPk(tenantId, { attributes: ['id', 'linkDomain'], transaction: opts.transaction }).then((t) => t?.linkDomain ?? null);
    entry = { domain, until: now + LINK_DOMAIN_TTL_MS };
    cache.set(tenantId, entry);
    // A failed read is not kept: the next call reads again.
    domain.catch(() => cache.get(tenantId) === entry && cache.delete(tenantId));
  }
  return linkBaseOf(await entry.domain);
}

/** Forgets what this process read (a change made here is then seen at once; tests). */
export function forgetLinkDomains(): void {
  cache.clear();
}

/**
 * Sets (or, with null, clears) the agency's link domain: one of its own domains, whose link base fits
 * MAX_LINK_BASE_CHARS. 422 otherwise, naming `domain`.
 */
export async function setLinkDomain(tenantId: number, domain: string | null): Promise<Tenant> {
  const tenant = await Tenant.findByPk(tenantId);
  if (!tenant) throw new NotFound('Tenant');
  let chosen: string | null = null;
  if (domain !== null) {
    const wanted = domain.trim().toLowerCase();
    const own = await TenantDomain.findAll({ where: { tenantId }, attributes: ['domain'], order: [['id', 'ASC']] });
    const match = own.find((d) => d.domain.toLowerCase() === wanted);
    if (!match) {
      const list = own.map((d) => d.domain).join(', ') || 'none';
      throw new Validation({ domain: [`"${domain.slice(0, 255)}" is not a domain of this agency (its domains: ${list}).`] });
    }
    const base = linkBaseOf(match.domain);
    if (base.length > MAX_LINK_BASE_CHARS) {
      throw new Validation({ domain: [`Links on ${match.domain} would start with ${base} (${base.length} characters); SMS review requests allow ${MAX_LINK_BASE_CHARS}.`] });
    }
    chosen = match.domain;
  }
  await tenant.update({ linkDomain: chosen });
  cache.delete(tenantId);
  return tenant;
}
