import type { Request, RequestHandler, Response } from 'express';
import { httpDuration, httpRequests } from './metrics';

/**
 * Every path the app mounts a router or middleware at (src/http/app.ts and the routers it mounts), as declared.
 * Express matches mount paths case-insensitively but keeps the request's spelling in `req.baseUrl`, so a label built
 * from it gave `GET /aPi/V1/x` a series of its own: any client could add series without bound. The label takes the
 * declared spelling from here, never the request's text. A mount missing here is labelled by the declared mount
 * above it (the simulators' `/simulators/<provider>` by `/simulators/*`), else `other`.
 */
const MOUNTS = [
  '/api/agency/v1',
  '/api/v1',
  '/api/webhooks/inbound',
  '/api/mcp',
  '/graphql',
  '/connect',
  '/reports',
  '/u',
  '/r',
  '/docs',
  '/docs/assets',
  '/brand',
  '/oauth',
  '/oauth/interaction',
  '/.well-known',
  '/simulators',
];
const DECLARED = new Map(MOUNTS.map((m) => [m.toLowerCase(), m]));
const DEEPEST_FIRST = [...MOUNTS].sort((a, b) => b.length - a.length);

/**
 * Distinct `route` values per process; past this, `other`. Every value is a constant of the code (templates, mounts,
 * tool names, at most 200 operation names), some 350 in all: the cap is the second line should one ever come from a
 * request.
 */
export const MAX_ROUTE_LABELS = 500;
const routeLabels = new Set<string>(['other']);

/** The methods labelled by name; any other (WebDAV's PROPFIND, PURGE, ...) is `OTHER`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Distinct GraphQL operation names labelled per process; past this, `graphql:other` (clients name operations). A name
 * takes a slot only from a request that was signed in and answered below 400: an anonymous or refused caller's names
 * are `graphql:other` until a signed-in caller's answered request has used them, so made-up names sent without a
 * token cannot fill the slots and push the clients' real operations into `graphql:other`.
 */
const MAX_OPERATION_NAMES = 200;
const operationNames = new Set<string>();
const NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;
const FIRST_OPERATION = /^(?:\s|,|#[^\n]*\n)*(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;

/** A facade names the request for metrics itself (MCP: the tool or method), overriding the route template. */
export function setRouteLabel(res: Response, label: string): void {
  res.locals.metricsRoute = label;
}

const MCP_METHODS = new Set(['initialize', 'ping', 'tools/list', 'tools/call', 'server/discover']);

/** `mcp:<method>` for the JSON-RPC methods this server knows (a tool call is relabelled with its tool). */
export function mcpRouteLabel(method: string): string {
  if (MCP_METHODS.has(method)) return `mcp:${method}`;
  return method.startsWith('notifications/') ? 'mcp:notification' : 'mcp:other';
}

function graphqlLabel(req: Request, res: Response): string {
  const source = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown> | undefined;
  let name: string | null = null;
  if (source && typeof source.operationName === 'string' && source.operationName) name = source.operationName;
  else if (source && typeof source.query === 'string') name = FIRST_OPERATION.exec(source.query)?.[1] ?? null;
  if (name === null) return 'graphql:anonymous';
  if (!NAME.test(name)) return 'graphql:other';
  if (!operationNames.has(name)) {
    const signedIn = Boolean((res.locals.ctx as { principal?: unknown } | undefined)?.principal);
    if (!signedIn || res.statusCode >= 400 || operationNames.size >= MAX_OPERATION_NAMES) return 'graphql:other';
    operationNames.add(name);
  }
  return `graphql:${name}`;
}

/** Whether `path` is `mount` or below it, whatever the casing of either. */
function within(path: string, mount: string): boolean {
  const p = path.toLowerCase();
  const m = mount.toLowerCase();
  return p === m || p.startsWith(`${m}/`);
}

/** The deepest declared mount that is `path` or holds it. */
const mountHolding = (path: string): string | undefined => DEEPEST_FIRST.find((m) => within(path, m));

/**
 * A route template below its mount. A template that already starts with the mount is a full path: a route of the app
 * itself, still on `req.route` when a middleware mounted at that path answered after it.
 */
const below = (mount: string, template: string): string => (within(template, mount) ? template : template === '/' ? mount : `${mount}${template}`);

/**
 * The `route` label of a finished request, from constants only: a template such as `/api/v1/reviews/:id` under its
 * mount as declared, `<mount>/*`, `graphql:<name>`, `mcp:<...>` or `other`; never the raw URL or its casing.
 */
export function routeLabel(req: Request, res: Response): string {
  const given = res.locals.metricsRoute;
  if (typeof given === 'string') return given;
  const path = req.originalUrl.split('?')[0];
  if (within(path, '/graphql')) return graphqlLabel(req, res);
  if (within(path, '/api/mcp')) return 'mcp:other';
  const template: string | undefined = typeof req.route?.path === 'string' ? req.route.path : undefined;
  if (req.baseUrl) {
    const mount = DECLARED.get(req.baseUrl.toLowerCase());
    if (mount === undefined) {
      // A router mounted below an undeclared path: its template is relative to that path, so the mount above stands.
      const above = mountHolding(req.baseUrl);
      return above ? `${above}/*` : 'other';
    }
    // Answered before any route matched (authentication, a rate limit, a 404 inside a router): the mount's wildcard.
    return template === undefined ? `${mount}/*` : below(mount, template);
  }
  // At the app level: a route of the app itself, or an error handler of the app answering after the request left
  // its router (`req.baseUrl` is gone then, the router's template is still on `req.route`).
  const mount = mountHolding(path);
  if (template !== undefined) return mount ? below(mount, template) : template;
  return mount ? `${mount}/*` : 'other';
}

/** The label itself while fewer than MAX_ROUTE_LABELS are in use, else `other`: the series stay bounded. */
function capped(label: string): string {
  if (routeLabels.has(label)) return label;
  if (routeLabels.size >= MAX_ROUTE_LABELS) return 'other';
  routeLabels.add(label);
  return label;
}

/** Counts every response and its latency by route template, method and status. */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const start = performance.now();
    // `finish` comes once per response: a plain listener, without the wrapper `once` makes for every request.
    res.on('finish', () => {
      const method = METHODS.has(req.method) ? req.method : 'OTHER';
      const labels = { route: capped(routeLabel(req, res)), method, status: String(res.statusCode) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, (performance.now() - start) / 1000);
    });
    next();
  };
}
