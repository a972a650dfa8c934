import ipaddr from 'ipaddr.js';

/**
 * Express's `trust proxy` setting, from TRUST_PROXY:
 * - `false` (the default): X-Forwarded-* are ignored; the socket's peer is the client.
 * - `true`, or a number n: n proxies (true: one) stand in front of the process. The client's address is the n-th entry
 *   of X-Forwarded-For from the right, the one the outermost of those proxies appended; whatever a client writes into
 *   the header itself stands further left and is never read.
 * - A comma-separated list of the proxies' own addresses, CIDR ranges or the names `loopback`, `linklocal`,
 *   `uniquelocal`: hops from those addresses are trusted, the first address outside them is the client.
 * `true` used to mean "trust every hop", which made the left-most entry, written by the client, its address: anyone
 * could choose the address its per-address rate limits and the `/metrics` loopback check saw.
 */
export type TrustProxy = false | number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length) return false;
  const valid = ipaddr.IPv4.isValidFourPartDecimal(address) || ipaddr.IPv6.isValid(address);
  if (!valid || bits === undefined) return valid;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (ipaddr.IPv4.isValidFourPartDecimal(address) ? 32 : 128);
}

/** The setting a TRUST_PROXY value stands for, or null when it is none of the forms above. */
export function parseTrustProxy(value: string): TrustProxy | null {
  const v = value.trim();
  if (v === 'false' || v === '0') return false;
  if (v === 'true') return 1;
  if (/^[1-9]\d?$/.test(v)) return Number(v);
  const list = v.split(',').map((s) => s.trim());
  return list.length && list.every(isAddressOrRange) ? list : null;
}

/** The setting of a configuration value already checked by loadConfig (anything else: no proxy trusted). */
export const trustProxyOf = (value: string | undefined): TrustProxy => (value === undefined ? false : (parseTrustProxy(value) ?? false));
