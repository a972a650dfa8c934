import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { webhookPrivateUrlsAllowed } from '../config';
import { Validation } from '../domain/errors';
import { isPublicAddress, isRefusedHostname } from '../net/address-policy';

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

/** Whether an address is one a webhook may be sent to (public unicast; see `src/net/address-policy.ts`). */
export { isPublicAddress };

const systemLookup: HostLookup = async (hostname) => (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

const invalid = (message: string, reason: string) => new Validation({ url: [message] }, reason);

/**
 * Throws the domain Validation error `{url: [...]}` (reason `invalid_url`, `private_address` or
 * `unresolvable_host`) unless the URL may receive webhooks. `allowPrivate` defaults to the configuration
 * (`WEBHOOK_ALLOW_PRIVATE_URLS`); with it, addresses are not checked and names are not resolved.
 */
export async function assertDeliverableUrl(
  raw: string,
  opts: { allowPrivate?: boolean; lookup?: HostLookup; /** false: check the form and literal addresses only (the guarded client checks names when it connects). */ resolve?: boolean } = {},
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
  // `localhost` and its subdomains are loopback by definition (RFC 6761), metadata names by the clouds' design.
  if (isRefusedHostname(hostname)) throw refused();
  let addresses: string[];
  if (literal) addresses = [hostname];
  else if (opts.resolve === false) return { url: url.href, hostname, addresses: [] };
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
