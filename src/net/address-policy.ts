import ipaddr from 'ipaddr.js';

/**
 * Which addresses the product may connect to on a user's behalf (webhook receivers, an account's own SMS API): public
 * unicast only, classified by ipaddr.js. Refused: private (RFC 1918), loopback, link-local (including the cloud
 * metadata address 169.254.169.254), carrier-grade NAT (100.64/10), unspecified, broadcast, multicast, reserved,
 * benchmarking, IETF and documentation ranges, and in IPv6 also unique-local, site-local, discard and Teredo; the
 * forms that embed an IPv4 address (IPv4-mapped, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) are
 * judged by that address.
 */
export function isPublicAddress(ip: string): boolean {
  const text = bare(ip);
  if (!ipaddr.isValid(text)) return false;
  // `ipaddr.isValid` also takes the legacy IPv4 forms (octal, hex, short); only the four-part decimal form of an
  // address as resolvers and URL parsers return it is classified here, others are refused.
  if (!ipaddr.IPv6.isValid(text) && !ipaddr.IPv4.isValidFourPartDecimal(text)) return false;
  return rangeOf(ipaddr.parse(text)) === 'unicast';
}

const bare = (ip: string): string => ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');

/**
 * The range an address is judged by: IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4) by that
 * address; Teredo obfuscates it and is judged as Teredo (not unicast: refused).
 */
function rangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  return judgedAddress(address).range();
}

/** The address a connection really reaches: the IPv4 address an IPv6 form carries (see `rangeOf`), else itself. */
function judgedAddress(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() !== 'ipv6') return address;
  const range = address.range();
  const bytes = (address as ipaddr.IPv6).toByteArray();
  // IPv4-compatible (::a.b.c.d, deprecated by RFC 4291 but still parsed): ipaddr.js calls it unicast.
  const compatible = range === 'unicast' && bytes.slice(0, 12).every((b) => b === 0);
  const inner = range === 'ipv4Mapped' || range === 'rfc6052' || compatible ? bytes.slice(12, 16) : range === '6to4' ? bytes.slice(2, 6) : null;
  return inner ? ipaddr.fromByteArray(inner) : address;
}

/**
 * Link-local addresses (169.254/16 with the cloud metadata address 169.254.169.254, fe80::/10, and IPv6 forms that
 * embed a link-local IPv4 address): refused even for the operator's own base URLs, which may otherwise be private.
 */
export function isLinkLocalAddress(ip: string): boolean {
  const text = bare(ip);
  return ipaddr.isValid(text) && rangeOf(ipaddr.parse(text)) === 'linkLocal';
}

/**
 * Cloud metadata endpoints outside link-local: AWS's IPv6 one (fd00:ec2::254, with the instance's other services in
 * fd00:ec2::/64), Google Cloud's IPv6 one (fd20:ce::254 in fd20:ce::/64) and Alibaba Cloud's 100.100.100.200. A
 * user's URL never reaches them (unique-local and carrier-grade NAT are not public); the operator's base URLs, which
 * may be private, are refused them by this list.
 */
export const METADATA_RANGES: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]> = ['fd00:ec2::/64', 'fd20:ce::/64', '100.100.100.200/32'].map((cidr) => ipaddr.parseCIDR(cidr));

/**
 * A cloud metadata address outside link-local (METADATA_RANGES), also in the IPv6 forms that carry such an IPv4 address
 * (IPv4-mapped, IPv4-compatible, NAT64, 6to4).
 */
export function isMetadataAddress(ip: string): boolean {
  const text = bare(ip);
  if (!ipaddr.isValid(text)) return false;
  const address = judgedAddress(ipaddr.parse(text));
  return METADATA_RANGES.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
}

/**
 * What the operator's own base URLs (which may be private) are refused: link-local addresses (169.254.169.254 among
 * them) and the other cloud metadata addresses.
 */
export function isOperatorRefusedAddress(ip: string): boolean {
  return isLinkLocalAddress(ip) || isMetadataAddress(ip);
}

/** Cloud metadata host names that resolve to link-local addresses inside a cloud (refused by name as well). */
export const METADATA_HOSTNAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** Names that are loopback or metadata by definition (RFC 6761 `localhost`), whatever a resolver says. */
export function isRefusedHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return /(^|\.)localhost$/.test(name) || METADATA_HOSTNAMES.has(name);
}

/**
 * A host name of this machine's loopback: `localhost`, or an IPv4 or IPv6 loopback literal (`127.0.0.1`, `::1`, also
 * in URL brackets `[::1]`). Where plain http or any origin is allowed for local development and tests.
 */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase();
  if (name === 'localhost') return true;
  const text = bare(name);
  if (!ipaddr.IPv6.isValid(text) && !ipaddr.IPv4.isValidFourPartDecimal(text)) return false;
  // The address itself, or the IPv4 one an IPv4-mapped form names; not NAT64 or 6to4 forms (they reach another host).
  const address = ipaddr.parse(text);
  const own = address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;
  return own.range() === 'loopback';
}
