import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type {} from 'pino-http';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Logger } from 'pino';
import { authenticatedContext, type Context } from '../../src/context';
import type { Clock } from '../../src/domain/clock';
import { DomainError } from '../../src/domain/errors';
import { bearerOf } from '../shared/auth';
import { loggable } from '../shared/errors';
import { executeResult, InternalFailure, unwrap } from '../shared/execute';
import { SCOPE_CHECK } from './scope';
import { baseUrlOf } from '../shared/pagination';
import { scrubArguments, type McpAuditSink } from './audit';
import { mcpOutcome } from './errors';
import { McpLimits, type McpLimitOptions } from './limits';
import { mcpRouteLabel, setRouteLabel } from '../../src/observability/http-metrics';
import { MCP_ACCESS, refusal, REVIEWS_PII } from './permissions';
import { errorEnvelope, ErrorCodes, idOf, McpError, parseEnvelope, PROTOCOL_VERSION, resultEnvelope, type JsonRpcId, type JsonRpcRequest } from './protocol';
import { gate, ToolRegistry } from './registry';
import { TOOLS } from './tools';
import type { AnyTool } from './tool';

export interface McpOptions {
  schema: GraphQLSchema;
  logger: Logger;
  clock?: Clock;
  bodyLimit: string;
  limits: McpLimitOptions;
  audit: McpAuditSink;
  /** The catalogue (tests add fixtures); default: every tool of `tools/index.ts`. */
  tools?: readonly AnyTool[];
}

/** `serverInfo.version`: the version of the package the server runs from. */
export const SERVER_VERSION: string = (() => {
  for (const up of ['../..', '../../..']) {
    const file = path.resolve(__dirname, up, 'package.json');
    if (fs.existsSync(file)) return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return '0.0.0';
})();

const CORRELATION_ID = /^[\x21-\x7e]{1,64}$/;

/**
 * `X-Correlation-Id`: up to 64 visible ASCII characters, echoed on every answer and recorded in the audit log.
 * Absent, longer or with other characters: the server makes one (a UUID) and answers with it, so every call
 * can still be traced; the call itself is not refused for a tracing aid.
 */
function correlationIdOf(req: Request): string {
  const given = req.get('x-correlation-id');
  return given !== undefined && CORRELATION_ID.test(given) ? given : randomUUID();
}

interface Call {
  req: Request;
  res: Response;
  log: Logger;
  started: number;
  correlationId: string;
  ctx?: Context;
  method: string;
  tool: string | null;
  arguments: Record<string, unknown> | null;
  piiUnlocked: boolean;
}

interface ToolResult {
  structuredContent?: Record<string, unknown>;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

/** `POST /api/mcp`: JSON-RPC 2.0 over HTTP, one message per request, answered as `application/json`. */
export function mcpApi(opts: McpOptions): Router {
  const router = express.Router();
  const registry = new ToolRegistry(opts.tools ?? TOOLS);
  const limits = new McpLimits(opts.limits, opts.logger);

  router.use((req, res, next) => {
    res.locals.correlationId = correlationIdOf(req);
    res.setHeader('X-Correlation-Id', res.locals.correlationId as string);
    next();
  });

  router.post('/', express.raw({ type: () => true, limit: opts.bodyLimit }), (req, res) => {
    const call: Call = {
      req,
      res,
      log: (req.log ?? opts.logger).child({ correlationId: res.locals.correlationId }),
      started: performance.now(),
      correlationId: res.locals.correlationId as string,
      method: '-',
      tool: null,
      arguments: null,
      piiUnlocked: false,
    };
    void handle(call);
  });

  // GET (the optional server-to-client SSE stream) and every other verb: this server answers POSTs only.
  router.all('/', (_req, res) => {
    res.setHeader('Allow', 'POST');
    res.status(405).json(errorEnvelope(null, new McpError(ErrorCodes.INVALID_REQUEST, 'Method not allowed: send JSON-RPC messages with POST.', { reason: 'method_not_allowed' })));
  });

  router.use((_req, res) => {
    res.status(404).json(errorEnvelope(null, new McpError(ErrorCodes.INVALID_REQUEST, 'Not found: the MCP endpoint is POST /api/mcp.', { reason: 'not_found' }, 404)));
  });

  // Body-reading failures (too large, bad Content-Encoding): still a JSON-RPC envelope, never Express's HTML page.
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const e = err as { type?: string; status?: number };
    const error =
      e.type === 'entity.too.large'
        ? new McpError(ErrorCodes.INVALID_REQUEST, `The request body is larger than ${opts.bodyLimit}.`, { reason: 'body_too_large' }, 413)
        : new McpError(ErrorCodes.PARSE_ERROR, 'The request body could not be read.', { reason: 'unreadable_body' }, 400);
    res.status(error.status).json(errorEnvelope(null, error));
  });

  /** Every failure below ends in `fail` with the id read so far: always a JSON-RPC envelope. */
  async function handle(call: Call): Promise<void> {
    let id: JsonRpcId = null;
    try {
      id = await answer(call, (read) => (id = read));
    } catch (err) {
      fail(call, id, err);
    }
  }

  async function answer(call: Call, setId: (id: JsonRpcId) => void): Promise<JsonRpcId> {
    const { req } = call;
    const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    let message: unknown;
    let unparsable = false;
    try {
      message = JSON.parse(raw);
    } catch {
      unparsable = true;
    }
    const id = idOf(message);
    setId(id);

    // The token first (like the REST facades): a caller without a usable token learns nothing about its body.
    try {
      call.ctx = await authenticatedContext({
        bearer: bearerOf(req),
        baseUrl: baseUrlOf(req),
        kinds: ['ai'],
        clock: opts.clock,
        requestId: req.id === undefined ? undefined : String(req.id),
      });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const limited = await limits.failedAuthentication(ipKeyGenerator(req.ip ?? '0.0.0.0'));
      if (limited) throw limited;
      if (err.code === 'UNAUTHENTICATED') {
        throw new McpError(ErrorCodes.UNAUTHORIZED, 'Unauthenticated: send an AI token as "Authorization: Bearer <token>".', { reason: 'unauthenticated' }, 401, {
          'WWW-Authenticate': 'Bearer realm="mcp"',
        });
      }
      throw new McpError(ErrorCodes.UNAUTHORIZED, `${err.message} Create an AI token with the mcp:access ability.`, { reason: err.reason ?? 'forbidden' }, 403);
    }
    const principal = call.ctx.principal!;
    if (!principal.permissions.has(MCP_ACCESS)) {
      throw new McpError(ErrorCodes.UNAUTHORIZED, 'This token lacks the mcp:access ability.', { reason: 'mcp_access_required' }, 403);
    }
    await limits.check(principal);

    if (unparsable) {
      setId(null);
      throw new McpError(ErrorCodes.PARSE_ERROR, 'Parse error: the body is not valid JSON.', { reason: 'invalid_json' });
    }
    const version = req.get('mcp-protocol-version');
    if (version !== undefined && version !== PROTOCOL_VERSION) {
      throw new McpError(ErrorCodes.INVALID_REQUEST, `Unsupported MCP-Protocol-Version "${version.slice(0, 32)}": this server speaks ${PROTOCOL_VERSION}.`, {
        reason: 'unsupported_protocol_version',
      });
    }
    const request = parseEnvelope(message);
    call.method = request.method.slice(0, 64);
    setRouteLabel(call.res, mcpRouteLabel(request.method));
    if (request.id === undefined) {
      // A notification (`notifications/initialized`, `notifications/cancelled`, ...): accepted, nothing to answer.
      call.res.status(202).end();
      return id;
    }
    const { result, code, reason } = await dispatch(call, request);
    send(call, 200, resultEnvelope(request.id, result), code, reason);
    return id;
  }

  interface Answer {
    result: unknown;
    /** 0: a result, 1: a tool result with isError. */
    code: 0 | 1;
    reason: string | null;
  }
  const ok = (result: unknown): Answer => ({ result, code: 0, reason: null });

  async function dispatch(call: Call, request: JsonRpcRequest): Promise<Answer> {
    const params = request.params ?? {};
    switch (request.method) {
      case 'initialize':
        return ok(await initialize(call, params));
      case 'ping':
        return ok({});
      case 'tools/list':
        return ok({ tools: registry.visibleTo(call.ctx!.principal!).map(describe) });
      case 'tools/call':
        return callTool(call, params);
      default:
        throw new McpError(ErrorCodes.METHOD_NOT_FOUND, `Method not found: ${request.method.slice(0, 64)}. This server offers initialize, ping, tools/list and tools/call.`, {
          reason: 'unknown_method',
        });
    }
  }

  async function initialize(call: Call, params: Record<string, unknown>) {
    const info = params.clientInfo as Record<string, unknown> | undefined;
    const problems: Record<string, string[]> = {};
    if (typeof params.protocolVersion !== 'string') problems.protocolVersion = ['protocolVersion must be a string.'];
    if (!params.capabilities || typeof params.capabilities !== 'object' || Array.isArray(params.capabilities)) problems.capabilities = ['capabilities must be an object.'];
    if (!info || typeof info !== 'object' || typeof info.name !== 'string' || typeof info.version !== 'string') {
      problems.clientInfo = ['clientInfo must be an object with string name and version.'];
    }
    if (Object.keys(problems).length) {
      throw new McpError(ErrorCodes.INVALID_PARAMS, `Invalid initialize params: ${Object.values(problems)[0][0]}`, { reason: 'invalid_params', errors: problems });
    }
    const data = await run<{ tenant: { brandName: string } }>(call, '{ tenant { brandName } }', {});
    // Whatever version the client asks for, this server speaks one; the client decides whether it can go on.
    return { protocolVersion: PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: { name: data.tenant.brandName, version: SERVER_VERSION } };
  }

  async function callTool(call: Call, params: Record<string, unknown>): Promise<Answer> {
    const principal = call.ctx!.principal!;
    if (typeof params.name !== 'string' || params.name === '') {
      throw new McpError(ErrorCodes.INVALID_PARAMS, 'tools/call needs params.name, the tool to call.', { reason: 'invalid_params', errors: { name: ['The name is required.'] } });
    }
    call.tool = params.name.slice(0, 64);
    call.arguments = scrubArguments(params.arguments ?? {});
    const tool = registry.get(params.name);
    if (tool) setRouteLabel(call.res, `mcp:${tool.name}`);
    if (!tool) throw new McpError(ErrorCodes.METHOD_NOT_FOUND, `Unknown tool: ${call.tool}. Call tools/list for the tools this token can use.`, { reason: 'unknown_tool' });
    const refused = refusal(principal, gate(tool));
    if (refused) throw new McpError(ErrorCodes.UNAUTHORIZED, refused.message, { reason: refused.reason });
    if (params.arguments !== undefined && (params.arguments === null || typeof params.arguments !== 'object' || Array.isArray(params.arguments))) {
      throw new McpError(ErrorCodes.INVALID_PARAMS, 'params.arguments must be an object.', { reason: 'invalid_arguments' });
    }
    const args = registry.validate(tool, params.arguments);
    if (args.include_pii === true) {
      if (!principal.permissions.has(REVIEWS_PII)) {
        throw new McpError(ErrorCodes.UNAUTHORIZED, 'include_pii needs the reviews.pii permission (token ability reviews:pii).', { reason: 'missing_permission' });
      }
      call.piiUnlocked = true;
    }
    let data: unknown;
    try {
      data = await run(call, tool.document, tool.variables(args));
    } catch (err) {
      if (err instanceof DomainError) {
        const outcome = mcpOutcome(err);
        if (outcome.kind === 'error') throw outcome.error;
        const text = JSON.stringify({ error: { reason: outcome.reason, message: outcome.message } });
        const refusedResult: ToolResult = { content: [{ type: 'text', text }], isError: true };
        return { result: refusedResult, code: 1, reason: outcome.reason };
      }
      throw err;
    }
    let structured = tool.result(data, args);
    if (tool.redact && !call.piiUnlocked) structured = tool.redact(structured);
    const toolResult: ToolResult = { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
    return ok(toolResult);
  }

  /**
   * One GraphQL operation with the caller's context; a scope check's refusal outranks the query's own errors. The
   * check runs first on its own: root fields resolve in parallel and a failing non-null field ends the operation with
   * whichever error came first, so within one operation the answer for an id outside scope would depend on timing.
   */
  async function run<T>(call: Call, document: string, variables: Record<string, unknown>): Promise<T> {
    if (variables.checkScope === true) {
      const scope = await executeResult(opts.schema, SCOPE_CHECK, { organizationId: variables.organizationId ?? null, locationId: variables.locationId ?? null }, call.ctx!);
      if (scope.errors?.length) throw unwrap(scope.errors);
    }
    const result = await executeResult(opts.schema, document, variables, call.ctx!);
    if (result.errors?.length) {
      const scope = result.errors.find((e) => e.path?.[0] === 'accessScope' && e.originalError instanceof DomainError);
      throw scope ? scope.originalError : unwrap(result.errors);
    }
    return result.data as T;
  }

  function internal(call: Call, err: unknown): McpError {
    call.log.error({ err: loggable(err instanceof InternalFailure ? err.failure : err) }, 'MCP internal error');
    return new McpError(ErrorCodes.INTERNAL_ERROR, 'Internal error.', {}, 500);
  }

  function fail(call: Call, id: JsonRpcId, err: unknown): void {
    const error = err instanceof McpError ? err : err instanceof DomainError ? domainError(err) : internal(call, err);
    for (const [k, v] of Object.entries(error.headers)) call.res.setHeader(k, v);
    send(call, error.status, errorEnvelope(id, error), error.code, error.data.reason ?? null);
  }

  function domainError(err: DomainError): McpError {
    const outcome = mcpOutcome(err);
    return outcome.kind === 'error' ? outcome.error : new McpError(ErrorCodes.INVALID_PARAMS, outcome.message, { reason: outcome.reason });
  }

  function send(call: Call, status: number, body: unknown, resultCode: number, reason: string | null): void {
    if (call.res.headersSent) return;
    call.res.status(status).json(body);
    const principal = call.ctx?.principal;
    if (!principal) return; // no identified token: logged by the request logger, not audited
    opts.audit.record({
      tenantId: principal.tenantId,
      tokenId: principal.tokenId,
      userId: principal.userId,
      method: call.method,
      tool: call.tool,
      arguments: call.tool ? call.arguments : null,
      piiUnlocked: call.piiUnlocked,
      resultCode,
      errorReason: reason,
      durationMs: Math.round(performance.now() - call.started),
      correlationId: call.correlationId,
      requestId: call.req.id === undefined ? null : String(call.req.id),
      createdAt: call.ctx!.clock.now(),
    });
  }

  return router;
}

/** A tool as `tools/list` publishes it. */
function describe(t: AnyTool) {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
    annotations: { title: t.title, ...t.annotations },
  };
}
