import type { Request, RequestHandler, Response } from 'express';
import { httpDuration, httpRequests } from './metrics';

/**
 * Where the app mounts its routers: a response given after the request left its router (an error handler at the
 * app level) no longer has `req.baseUrl`, so the prefix of its route template is found here.
 */
const MOUNTS = ['/api/agency/v1', '/api/v1', '/api/webhooks/inbound', '/connect', '/reports', '/u', '/r'];

/** Distinct GraphQL operation names labelled per process; past this, `graphql:other` (clients name operations). */
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

function graphqlLabel(req: Request): string {
  const source = (req.method === 'GET' ? req.query : req.body) as Record<string, unknown> | undefined;
  let name: string | null = null;
  if (source && typeof source.operationName === 'string' && source.operationName) name = source.operationName;
  else if (source && typeof source.query === 'string') name = FIRST_OPERATION.exec(source.query)?.[1] ?? null;
  if (name === null) return 'graphql:anonymous';
  if (!NAME.test(name)) return 'graphql:other';
  if (!operationNames.has(name)) {
    if (operationNames.size >= MAX_OPERATION_NAMES) return 'graphql:other';
    operationNames.add(name);
  }
  return `graphql:${name}`;
}

/** The bounded `route` label of a finished request: a template such as `/api/v1/reviews/:id`, never the raw URL. */
export function routeLabel(req: Request, res: Response): string {
  const given = res.locals.metricsRoute;
  if (typeof given === 'string') return given;
  const path = req.originalUrl.split('?')[0];
  if (path === '/graphql' || path.startsWith('/graphql/')) return graphqlLabel(req);
  if (path === '/api/mcp' || path.startsWith('/api/mcp/')) return 'mcp:other';
  const mount = req.baseUrl || MOUNTS.find((m) => path === m || path.startsWith(`${m}/`)) || '';
  const template = req.route?.path;
  // Express keeps the mount paths as written (no parameters in ours), so baseUrl + route path is a template.
  if (typeof template === 'string') return `${mount}${template === '/' && mount ? '' : template}` || '/';
  // Answered before any route matched (authentication, a rate limit, a 404 inside a router).
  return mount ? `${mount}/*` : 'other';
}

/** Counts every response and its latency by route template, method and status. */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const end = httpDuration.startTimer();
    res.once('finish', () => {
      const labels = { route: routeLabel(req, res), method: req.method, status: String(res.statusCode) };
      httpRequests.inc(labels);
      end(labels);
    });
    next();
  };
}
