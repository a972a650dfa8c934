import { promises as dns } from 'node:dns';
import { BlockList, isIP, isIPv4 } from 'node:net';
import { webhookPrivateUrlsAllowed } from '../config';
import { Validation } from '../domain/errors';

/**
 * Where outbound webhooks may go. Checked when a receiver is configured and again before each attempt (a name
 * can resolve elsewhere later: DNS rebinding): http(s) only, no credentials, at most 2048 characters, and no
 * private, loopback, link-local, unspecified or otherwise non-public address, unless allowed by configuration.
 */
export const MAX_URL_CHARS = 2048;

/** Every address a host name resolves to. */
export type HostLookup = (hostname: string) => Promise<string[]>;

export interface DeliverableUrl {
  /** The URL as parsed (normalised by the WHATWG parser: `http://2130706433/` reads as `http://127.0.0.1/`). */
  url: string;
  hostname: string;
  /** The addresses checked (empty when private addresses are allowed and the host is a name). */
  addresses: string[];
}

const V4_BLOCKED: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", including the unspecified address
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];

const V6_BLOCKED: Array<[string, number]> = [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: the IPv4 address inside is obfuscated, so none is trusted
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const blocked = new BlockList();
for (const [net, prefix] of V4_BLOCKED) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of V6_BLOCKED) blocked.addSubnet(net, prefix, 'ipv6');

/** The 16 bytes of an IPv6 address (with an optional trailing dotted quad), or null. */
function ipv6Bytes(ip: string): number[] | null {
  let text = ip.replace(/%.*$/, '').toLowerCase();
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (quad) {
    if (!isIPv4(quad[1])) return null;
    const [a, b, c, d] = quad[1].split('.').map(Number);
    text = `${text.slice(0, -quad[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) => (s ? s.split(':') : []);
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 0) return null;
  const groups = [...head, ...Array<string>(fill).fill('0'), ...tail];
  const bytes: number[] = [];
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    const n = parseInt(g, 16);
    bytes.push(n >> 8, n & 0xff);
  }
  return bytes;
}

const v4 = (b: number[], at: number) => b.slice(at, at + 4).join('.');

/** An IPv4 address carried inside an IPv6 one (mapped, compatible, NAT64, 6to4), or null. */
function embeddedIPv4(bytes: number[]): string | null {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return v4(bytes, 12); // ::ffff:a.b.c.d
  if (zeros(0, 12)) return v4(bytes, 12); // ::a.b.c.d (deprecated "compatible")
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12)) return v4(bytes, 12); // 64:ff9b::/96
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return v4(bytes, 2); // 2002::/16 (6to4)
  return null;
}

/** Whether an address is one a webhook may be sent to (public unicast). */
export function isPublicAddress(ip: string): boolean {
  const address = ip.replace(/^\[|\]$/g, '');
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family !== 6) return false;
  const bytes = ipv6Bytes(address);
  if (!bytes) return false;
  const inner = embeddedIPv4(bytes);
  if (inner !== null && blocked.check(inner, 'ipv4')) return false;
  return !blocked.check(address.replace(/%.*$/, ''), 'ipv6');
}

const systemLookup: HostLookup = async (hostname) => (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const invalid = (message: string, reason: string) => new Validation({ url: [message] }, reason);

/**
 * Throws the domain Validation error `{url: [...]}` (reason `invalid_url`, `private_address` or
 * `unresolvable_host`) unless the URL may receive webhooks. `allowPrivate` defaults to the configuration
 * (`WEBHOOK_ALLOW_PRIVATE_URLS`); with it, addresses are not checked and names are not resolved.
 */
export async function assertDeliverableUrl(
  raw: string,
  opts: { allowPrivate?: boolean; lookup?: HostLookup } = {},
): Promise<DeliverableUrl> {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalid('The url field is required.', 'invalid_url');
  if ([...raw].length > MAX_URL_CHARS) throw invalid(`The url may not be greater than ${MAX_URL_CHARS} characters.`, 'invalid_url');
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalid('The url must be a valid URL.', 'invalid_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('The url must use http or https.', 'invalid_url');
  if (url.username || url.password) throw invalid('The url must not contain a user name or password.', 'invalid_url');
  if (!url.hostname) throw invalid('The url must name a host.', 'invalid_url');
  if (url.href.length > MAX_URL_CHARS) throw invalid(`The url may not be greater than ${MAX_URL_CHARS} characters.`, 'invalid_url');

  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(hostname) !== 0;
  const allowPrivate = opts.allowPrivate ?? webhookPrivateUrlsAllowed();
  if (allowPrivate) return { url: url.href, hostname, addresses: literal ? [hostname] : [] };

  const refused = () => invalid('The url must not point to a private, loopback or link-local address.', 'private_address');
  // `localhost` and its subdomains are loopback by definition (RFC 6761), whatever a resolver says.
  if (/(^|\.)localhost\.?$/i.test(hostname)) throw refused();
  let addresses: string[];
  if (literal) addresses = [hostname];
  else {
    try {
      addresses = await (opts.lookup ?? systemLookup)(hostname);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) throw invalid('The url host could not be resolved.', 'unresolvable_host');
  }
  if (!addresses.every(isPublicAddress)) throw refused();
  return { url: url.href, hostname, addresses };
}
