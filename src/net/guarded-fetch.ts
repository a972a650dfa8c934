import dns, { type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { loadConfig } from '../config';
import { isOperatorRefusedAddress, isPublicAddress, isRefusedHostname, METADATA_HOSTNAMES } from './address-policy';

/**
 * The one way the product fetches a URL it was given (webhook receivers, an account's own SMS API base URL): the host
 * is resolved once, per connection, by the dispatcher's own `lookup`; every address of the answer is checked against
 * the address policy; and the socket connects to exactly those checked addresses (TLS still names the host). A DNS
 * server that answers differently the second time (DNS rebinding) is never asked a second time. IP literals are
 * checked before any connection. Redirects are never followed (`redirect: 'manual'` for webhooks, `'error'`
 * elsewhere), so a hop cannot lead past the check.
 *
 * `allowPrivate` (development: `WEBHOOK_ALLOW_PRIVATE_URLS=true`) skips the address check. `operator` is the policy of
 * base URLs the operator configured (`operatorFetch`): private addresses allowed (a local model server, the embedded
 * simulators), link-local and cloud metadata (`isOperatorRefusedAddress`: 169.254.169.254, fd00:ec2::254, fd20:ce::254,
 * 100.100.100.200) still refused. `OUTBOUND_DNS_SERVERS`
 * (comma-separated `host[:port]`) sends the look-ups to given DNS servers instead of the system resolver.
 */

export class RefusedAddress extends Error {
  readonly code = 'ERR_REFUSED_ADDRESS';
  constructor(readonly host: string) {
    super(`The url must not point to a private, loopback or link-local address (${host}).`);
    this.name = 'RefusedAddress';
  }
}

export class UnresolvableHost extends Error {
  readonly code = 'ERR_UNRESOLVABLE_HOST';
  /**
   * The DNS gave no answer rather than "no such name" (a timeout, SERVFAIL, a refused query, `EAI_AGAIN`): the host may
   * well resolve in a moment. False for NXDOMAIN, a name without addresses, or an empty answer.
   */
  readonly transient: boolean;
  constructor(
    readonly host: string,
    cause?: unknown,
  ) {
    super(`The url host could not be resolved (${host}).`, cause === undefined ? undefined : { cause });
    this.name = 'UnresolvableHost';
    this.transient = cause !== undefined && isTransientDnsFailure(cause);
  }
}

/** DNS failures that are an answer: the name does not exist, has no address of the family, or cannot be asked. */
const DEFINITE_DNS_CODES = new Set(['ENOTFOUND', 'ENODATA', 'EBADNAME', 'EBADFAMILY', 'EBADQUERY', 'EBADSTR', 'EFORMERR', 'ENOTIMP', 'EAI_NONAME', 'EAI_NODATA']);

/** A failed look-up that may succeed when tried again (no answer, SERVFAIL, refused, `EAI_AGAIN`), by its error code. */
export function isTransientDnsFailure(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && !DEFINITE_DNS_CODES.has(code);
}

export interface GuardOptions {
  allowPrivate?: boolean;
  /** The operator's own base URLs: private allowed, link-local and metadata refused (overrides `allowPrivate`). */
  operator?: boolean;
  /** DNS servers (`host[:port]`); default `OUTBOUND_DNS_SERVERS`, else the system resolver. */
  dnsServers?: string[];
}

type Resolve = (hostname: string) => Promise<LookupAddress[]>;

function resolverFor(servers: string[]): Resolve {
  if (servers.length === 0) return (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });
  const resolver = new dns.promises.Resolver({ timeout: 5_000, tries: 2 });
  resolver.setServers(servers);
  return async (hostname) => {
    const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
    const out: LookupAddress[] = [];
    if (v4.status === 'fulfilled') out.push(...v4.value.map((address) => ({ address, family: 4 })));
    if (v6.status === 'fulfilled') out.push(...v6.value.map((address) => ({ address, family: 6 })));
    // No address, and the DNS did not say there is none (it failed or did not answer): that failure, for the caller
    // to tell from "no such name" (`UnresolvableHost.transient`).
    const failed = [v4, v6].find((r): r is PromiseRejectedResult => r.status === 'rejected' && isTransientDnsFailure(r.reason));
    if (out.length === 0 && failed) throw failed.reason;
    return out;
  };
}

/** The resolver of outbound connections (`OUTBOUND_DNS_SERVERS`, else the system's). */
export function outboundResolver(): Resolve {
  return resolverFor(loadConfig().OUTBOUND_DNS_SERVERS.split(',').map((x) => x.trim()).filter(Boolean));
}

/** The one address rule: the operator's policy refuses link-local and cloud metadata, a user's URL anything not public. */
function isRefusedAddress(address: string, opts: { allowPrivate: boolean; operator?: boolean }): boolean {
  return opts.operator ? isOperatorRefusedAddress(address) : !opts.allowPrivate && !isPublicAddress(address);
}

/** Resolves once and returns only checked addresses, or throws RefusedAddress / UnresolvableHost. */
export async function resolveChecked(hostname: string, opts: { allowPrivate: boolean; operator?: boolean; resolve: Resolve }): Promise<LookupAddress[]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  const refused = (address: string) => isRefusedAddress(address, opts);
  if (family) {
    if (refused(host)) throw new RefusedAddress(host);
    return [{ address: host, family }];
  }
  if (opts.operator ? METADATA_HOSTNAMES.has(host.toLowerCase().replace(/\.$/, '')) : !opts.allowPrivate && isRefusedHostname(host)) throw new RefusedAddress(host);
  let answers: LookupAddress[];
  let failure: unknown;
  try {
    answers = await opts.resolve(host);
  } catch (e) {
    answers = [];
    failure = e;
  }
  if (answers.length === 0) throw new UnresolvableHost(host, failure);
  // Every address must pass: a mixed answer is refused whole rather than filtered (it names a private target).
  if (answers.some((a) => refused(a.address))) throw new RefusedAddress(host);
  return answers;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function guardedLookup(opts: { allowPrivate: boolean; operator: boolean; resolve: Resolve }) {
  return (hostname: string, options: { all?: boolean } | number | undefined, callback: LookupCallback) => {
    resolveChecked(hostname, opts).then(
      (addresses) => {
        if (typeof options === 'object' && options?.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}

const agents = new Map<string, Agent>();

/** The dispatcher for the given options (one per setting, so keep-alive connections are shared). */
export function guardedAgent(opts: GuardOptions = {}): Agent {
  const config = loadConfig();
  const allowPrivate = opts.allowPrivate ?? config.WEBHOOK_ALLOW_PRIVATE_URLS === 'true';
  const servers = opts.dnsServers ?? config.OUTBOUND_DNS_SERVERS.split(',').map((s) => s.trim()).filter(Boolean);
  const operator = opts.operator === true;
  const key = `${allowPrivate}|${operator}|${servers.join(',')}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({
      connect: { lookup: guardedLookup({ allowPrivate, operator, resolve: resolverFor(servers) }) as never },
      keepAliveTimeout: 10_000,
      connections: 64,
    });
    agents.set(key, agent);
  }
  return agent;
}

/** Whether a failed fetch was refused by the address policy (not a network failure worth retrying). */
export function refusedCause(e: unknown): RefusedAddress | UnresolvableHost | null {
  for (let cur: unknown = e, depth = 0; cur && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    if (cur instanceof RefusedAddress || cur instanceof UnresolvableHost) return cur;
  }
  return null;
}

/**
 * `fetch` through the guarded dispatcher. Literal hosts are checked here, names when the connection is made; the
 * URL must be http(s) without credentials; redirects are never followed (default `'error'`).
 */
export async function guardedFetch(url: string, init: UndiciRequestInit = {}, opts: GuardOptions = {}): Promise<Response> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`Refused: ${parsed.protocol} URLs are not fetched.`);
  if (parsed.username || parsed.password) throw new TypeError('Refused: URLs with credentials are not fetched.');
  const allowPrivate = opts.allowPrivate ?? loadConfig().WEBHOOK_ALLOW_PRIVATE_URLS === 'true';
  // The WHATWG parser has already read decimal, octal, hex and short IPv4 forms as the dotted address they mean.
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && isRefusedAddress(host, { allowPrivate, operator: opts.operator })) throw new TypeError('fetch failed', { cause: new RefusedAddress(host) });
  const redirect = init.redirect === 'manual' ? 'manual' : 'error';
  return (await undiciFetch(parsed.href, { ...init, redirect, dispatcher: guardedAgent(opts) })) as unknown as Response;
}

/**
 * `fetch` of a base URL the operator configured (provider APIs, the AI endpoint, geocoding, the simulators): the same
 * guarded client (resolved once, no redirects, no credentials, http(s) only) with the operator's policy: private
 * addresses allowed, link-local and cloud metadata refused. No URL from a request ever comes here.
 */
export function operatorFetch(url: string, init: UndiciRequestInit = {}): Promise<Response> {
  return guardedFetch(url, init, { operator: true });
}
