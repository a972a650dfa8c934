import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ErrorCodes, errorEnvelope, McpError } from '../../facades/mcp/protocol';
import { isLoopbackHost } from '../net/address-policy';
import { isTenantDomain as tenantDomainExists } from '../services/admin.service';

/**
 * DNS-rebinding protection of the MCP endpoint, mounted before it (the Streamable HTTP transport's MUST; issue 16; docs/security.md
 * "MCP: Origin and Host"). A page on a hostile site whose name it re-points at this server reaches it with its own
 * `Host` and `Origin`: both are checked before anything else reads the request.
 *
 * - `Host` must name this server: a loopback name, the host of `PUBLIC_URL`, a tenant's domain, or one of
 *   `MCP_ALLOWED_HOSTS` (`*` turns the check off, for a deployment whose proxy rewrites Host). Any port.
 * - `Origin`, when a browser sends one, must be the origin of `PUBLIC_URL`, `https://<tenant domain>`, a loopback
 *   origin, or one of `MCP_ALLOWED_ORIGINS` / `CORS_ORIGINS`. Without `Origin` (server-side clients, the hosted AI
 *   connectors) the request goes on; `Origin: null` (sandboxed frames, file pages) is refused.
 *
 * Refused: HTTP 403 with a JSON-RPC error without id, code -32001 (the spec's access-denied code) and `data.reason`
 * `host_not_allowed` or `origin_not_allowed`.
 */
export interface OriginGuardOptions {
  publicUrl?: string;
  allowedOrigins?: string;
  allowedHosts?: string;
  corsOrigins?: string;
  /** How long a known tenant domain is cached (ms). */
  domainsTtlMs?: number;
}

const list = (s: string | undefined) => (s ?? '').split(',').map((x) => x.trim().toLowerCase()).filter(Boolean);

/** `host[:port]` → host, lower case (an IPv6 literal keeps its brackets). */
export function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const colon = h.lastIndexOf(':');
  return colon === -1 ? h : h.slice(0, colon);
}

export function mcpOriginGuard(opts: OriginGuardOptions): RequestHandler {
  const publicUrl = opts.publicUrl ? new URL(opts.publicUrl) : null;
  const hosts = new Set(list(opts.allowedHosts));
  const anyHost = hosts.has('*');
  const origins = new Set([...list(opts.allowedOrigins), ...list(opts.corsOrigins)].map((o) => o.replace(/\/+$/, '')));
  if (publicUrl) {
    hosts.add(publicUrl.hostname.toLowerCase());
    origins.add(publicUrl.origin.toLowerCase());
  }
  // Known tenant domains are cached for a minute; a name not known yet is looked up (one indexed query), so a
  // tenant's new domain works at once and a removed one stops within the minute.
  const ttl = opts.domainsTtlMs ?? 60_000;
  const known = new Map<string, number>();
  const isTenantDomain = async (name: string): Promise<boolean> => {
    const until = known.get(name);
    if (until !== undefined && until > Date.now()) return true;
    const found = await tenantDomainExists(name);
    if (found) known.set(name, Date.now() + ttl);
    else known.delete(name);
    return found;
  };
  const refuse = (res: Response, reason: 'host_not_allowed' | 'origin_not_allowed', message: string) =>
    res.status(403).json(errorEnvelope(null, new McpError(ErrorCodes.UNAUTHORIZED, message, { reason }, 403)));

  // Host names this server answers for without a look-up (configured, loopback), remembered as they are seen: the
  // check runs on every MCP call and a client sends the same Host each time.
  const plainHosts = new Set<string>();
  const hostAllowed = (host: string): boolean | Promise<boolean> => {
    if (anyHost || plainHosts.has(host)) return true;
    if (hosts.has(host) || isLoopbackHost(host)) {
      if (plainHosts.size < 1_000) plainHosts.add(host);
      return true;
    }
    return isTenantDomain(host);
  };
  const check = async (req: Request, res: Response, next: NextFunction, host: string, hostOk: boolean | Promise<boolean>) => {
    if (!(await hostOk)) {
      return refuse(res, 'host_not_allowed', `Forbidden: this server does not answer for the host "${host.slice(0, 100)}" (DNS rebinding protection; MCP_ALLOWED_HOSTS).`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !(await originAllowed(origin, origins, isTenantDomain))) {
      return refuse(res, 'origin_not_allowed', `Forbidden: requests from the origin "${origin.slice(0, 100)}" are not allowed (DNS rebinding protection; MCP_ALLOWED_ORIGINS).`);
    }
    next();
  };

  return (req: Request, res: Response, next: NextFunction) => {
    const host = hostnameOf(req.headers.host ?? '');
    const hostOk = hostAllowed(host);
    // The common call (a server-side client: a known Host, no Origin) goes on at once; anything else is checked in full.
    if (hostOk === true && req.headers.origin === undefined) return next();
    check(req, res, next, host, hostOk).catch(next);
  };
}

async function originAllowed(origin: string, origins: Set<string>, isTenantDomain: (name: string) => Promise<boolean>): Promise<boolean> {
  const o = origin.toLowerCase();
  if (o === 'null') return false;
  if (origins.has(o) || origins.has('*')) return true;
  let url: URL;
  try {
    url = new URL(o);
  } catch {
    return false;
  }
  if (url.origin !== o) return false; // a path, credentials or anything else an origin does not carry
  if (isLoopbackHost(url.hostname)) return true;
  return url.protocol === 'https:' && (await isTenantDomain(url.hostname));
}
