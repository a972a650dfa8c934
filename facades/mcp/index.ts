import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type {} from 'pino-http';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import { classifyInboundRequest, createMcpHandler, PerRequestHTTPServerTransport, type AuthInfo, type JSONRPCRequest } from '@modelcontextprotocol/server';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Logger } from 'pino';
import { authenticatedContext, type Context } from '../../src/context';
import type { Clock } from '../../src/domain/clock';
import { DomainError } from '../../src/domain/errors';
import { mcpRouteLabel, setRouteLabel } from '../../src/observability/http-metrics';
import { bearerOf } from '../shared/auth';
import { baseUrlOf } from '../shared/pagination';
import type { AppsOptions } from './apps';
import { scrubArguments, type McpAuditSink } from './audit';
import { ListenStreams, McpLimits, type McpLimitOptions } from './limits';
import { MCP_ACCESS } from './permissions';
import { errorEnvelope, ErrorCodes, idOf, McpError, MODERN_PROTOCOL_VERSION, parseEnvelope, PROTOCOL_VERSIONS, type JsonRpcId, type JsonRpcRequest } from './protocol';
import { ToolRegistry } from './registry';
import { elapsedMs, mcpServer, runOperation, toMcpError, toolFor, type Call, type ServerDeps } from './server';
import { declaresTasks, missingTasksCapability, TaskKinds, type TaskKind } from './tasks';
import { TOOLS } from './tools';
import type { AnyTool } from './tool';
import { graphql } from '../shared/graphql';
import { sendJson, sendJsonText } from '../shared/json-answer';

export interface McpOptions {
  schema: GraphQLSchema;
  logger: Logger;
  clock?: Clock;
  bodyLimit: string;
  limits: McpLimitOptions;
  audit: McpAuditSink;
  /** The catalogue (tests add fixtures); default: every tool of `tools/index.ts`. */
  tools?: readonly AnyTool[];
  /** MCP Apps Views (facades/mcp/apps): map tiles under the scan grid; default none. */
  apps?: AppsOptions;
  /** Task kinds besides those of the catalogue's task-capable tools (test fixtures). */
  taskKinds?: readonly TaskKind[];
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

const methodOf = (message: unknown): unknown => (message && typeof message === 'object' ? (message as { method?: unknown }).method : undefined);

const isNotification = (message: unknown): boolean => !!message && typeof message === 'object' && !Array.isArray(message) && !('id' in message);

/** A body that claims the 2026-07-28 per-request envelope (`params._meta` names a protocol version). */
function claimsEnvelope(message: unknown): boolean {
  const params = message && typeof message === 'object' ? (message as { params?: { _meta?: Record<string, unknown> } }).params : undefined;
  return typeof params?._meta?.['io.modelcontextprotocol/protocolVersion'] === 'string';
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

const invalidParams = (message: string, errors: Record<string, string[]>) => new McpError(ErrorCodes.INVALID_PARAMS, message, { reason: 'invalid_params', errors });

/**
 * What is wrong with `params._meta`, as the SDK's request schema reads it (an object; `progressToken` a string or an
 * integer; the related-task key an object with a string `taskId`), or null. The SDK refuses such a message as a whole
 * (-32600 on HTTP 400, or -32700 with id null on its 2025 transport), where our table has -32602.
 */
function metaProblems(meta: unknown): Record<string, string[]> | null {
  if (meta === undefined) return null;
  if (!isObject(meta)) return { _meta: ['_meta must be an object.'] };
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && !Number.isInteger(token)) return { '_meta.progressToken': ['progressToken must be a string or an integer.'] };
  const task = meta['io.modelcontextprotocol/related-task'];
  if (task !== undefined && (!isObject(task) || typeof task.taskId !== 'string')) {
    return { '_meta.io.modelcontextprotocol/related-task': ['io.modelcontextprotocol/related-task must be an object with a string taskId.'] };
  }
  return null;
}

/** The client capabilities `initialize` declares, each an object when present (the SDK answers others with -32603). */
const CLIENT_CAPABILITIES = ['experimental', 'sampling', 'elicitation', 'roots', 'tasks', 'extensions'];

/**
 * The SDK validates the params of spec methods before our handlers run and answers a failure with -32603 whose
 * message is the zod issue list (`[{"code": ..., "path": ["params", ...], "message": ...}]`). Read back as the
 * fields at fault, or null for any other -32603 (a real internal error stays one, answered 500 and logged).
 */
function sdkParamsProblems(message: unknown): Record<string, string[]> | null {
  if (typeof message !== 'string' || !message.startsWith('[')) return null;
  let issues: unknown;
  try {
    issues = JSON.parse(message);
  } catch {
    return null;
  }
  if (!Array.isArray(issues) || !issues.length) return null;
  const errors: Record<string, string[]> = {};
  for (const issue of issues.slice(0, 20)) {
    if (!isObject(issue) || typeof issue.code !== 'string' || typeof issue.message !== 'string' || !Array.isArray(issue.path) || issue.path[0] !== 'params') return null;
    const field = issue.path.slice(1).map(String).join('.').slice(0, 128) || 'params';
    (errors[field] ??= []).push(issue.message.slice(0, 200));
  }
  return errors;
}

/** The Tasks extension's methods (2026-07-28; facades/mcp/tasks.ts). */
const TASK_METHODS = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** Request headers the SDK reads (Accept and Content-Type are set by us: our contract requires neither). */
const FORWARDED_HEADERS = /^(mcp-|last-event-id$)/;

/**
 * `POST /api/mcp`: the official TypeScript SDK (`@modelcontextprotocol/server`) serves the protocol, stateless: 2026-07-28
 * requests (per-request `_meta` envelope, `server/discover`) through `createMcpHandler`, 2025-era requests (the
 * `initialize` handshake, negotiated to 2025-06-18) through its single-exchange transport in JSON mode, one fresh
 * `Server` per request either way (server.ts). In front of the SDK stays a thin layer of ours for what the SDK leaves to
 * the application or answers otherwise than our contract (spec "MCP errors", docs/decisions/mcp.md "MCP endpoint"):
 *
 * - the token (401/403) and the rate limits (429 + Retry-After) come first, before the body is looked at (the SDK does
 *   no token verification; `authInfo` is pass-through);
 * - the envelope: -32700 for a body that is not JSON, -32600 for a malformed envelope or a batch (the SDK's legacy
 *   transport answers a malformed message with -32700 and accepts batches) and for an `MCP-Protocol-Version` this
 *   server does not speak (the SDK: -32000);
 * - the params (-32602: `_meta`, list cursors, `initialize`, `tools/call`, ...; the SDK answers malformed params of
 *   spec methods with -32603 and a malformed `_meta` with -32600) and notifications (202, nothing to do for a stateless
 *   server);
 * - the open `subscriptions/listen` streams of a token (ListenStreams, -32002 past them);
 * - the answer: the correlation id, the JSON-RPC error our handlers threw exactly as thrown (Call.failure), -32602 for
 *   params the SDK's schemas refused, HTTP 500 for any other -32603, and the audit log entry of every answered message
 *   of an identified token.
 */
export function mcpApi(opts: McpOptions): Router {
  const router = express.Router();
  const registry = new ToolRegistry(opts.tools ?? TOOLS);
  const limits = new McpLimits(opts.limits, opts.logger);
  const brands = new BrandNames(opts.schema);
  const tools = opts.tools ?? TOOLS;
  const tasks = new TaskKinds([...tools.flatMap((t) => (t.task ? [t.task.kind] : [])), ...(opts.taskKinds ?? [])]);
  const deps: ServerDeps = { schema: opts.schema, registry, version: SERVER_VERSION, apps: opts.apps ?? { tiles: null }, tasks };
  const onerror = (err: Error) => opts.logger.debug({ err: { message: err.message } }, 'MCP SDK reported');
  const callOf = (authInfo: AuthInfo | undefined): Call => (authInfo?.extra as { call: Call }).call;
  const listens = new ListenStreams();
  const modern = createMcpHandler(async ({ authInfo }) => mcpServer(deps, callOf(authInfo), await brands.of(callOf(authInfo).ctx!)), { legacy: 'reject', onerror });

  router.use((req, res, next) => {
    res.locals.correlationId = correlationIdOf(req);
    res.setHeader('X-Correlation-Id', res.locals.correlationId as string);
    next();
  });

  router.post('/', express.raw({ type: () => true, limit: opts.bodyLimit }), (req, res) => {
    let log: Logger | undefined;
    const call: Call = {
      req,
      res,
      // Made when first used (an internal error): a pino child per call cost about 4 % of a get_review's CPU.
      get log() {
        return (log ??= (req.log ?? opts.logger).child({ correlationId: res.locals.correlationId }));
      },
      started: performance.now(),
      correlationId: res.locals.correlationId as string,
      method: '-',
      tool: null,
      arguments: null,
      piiUnlocked: false,
      modern: false,
      tasks: false,
    };
    void handle(call);
  });

  // GET (the 2025 server-to-client SSE stream) and every other verb: this stateless server answers POSTs only.
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
      fail(call, id, toMcpError(call, err));
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
    // initialize negotiates the revision in its body (a 2025-11-25 client is answered 2025-06-18): its header is not held to
    // it; nor is a notification's, which a stateless server accepts and does nothing with.
    if (version !== undefined && !PROTOCOL_VERSIONS.includes(version) && methodOf(message) !== 'initialize' && !isNotification(message)) {
      // SEP-2575: the revisions served to this kind of request (2026-07-28 to an envelope, both otherwise) and the one asked.
      const supported = claimsEnvelope(message) ? [MODERN_PROTOCOL_VERSION] : [...PROTOCOL_VERSIONS];
      throw new McpError(ErrorCodes.INVALID_REQUEST, `Unsupported MCP-Protocol-Version "${version.slice(0, 32)}": this server speaks ${supported.join(' and ')}.`, {
        reason: 'unsupported_protocol_version',
        supported,
        requested: version.slice(0, 32),
      });
    }
    const request = parseEnvelope(message);
    call.method = request.method.slice(0, 64);
    setRouteLabel(call.res, mcpRouteLabel(request.method));
    if (request.id === undefined) {
      // A notification (`notifications/initialized`, `notifications/cancelled`, ...): accepted, nothing to answer, and
      // nothing a stateless server could act on (a cancelled request ran in another exchange).
      call.res.status(202).end();
      return id;
    }
    // A stream (a 2026-07-28 `subscriptions/listen`) ends when the client goes away, or at its longest (ListenStreams).
    const stream = request.method === 'subscriptions/listen' ? new AbortController() : undefined;
    // The SDK's own era classification (what `isLegacyRequest` and `createMcpHandler` run), read from the parsed body
    // and the headers without a web Request.
    call.modern = classifyInboundRequest({
      httpMethod: 'POST',
      protocolVersionHeader: req.get('mcp-protocol-version'),
      mcpMethodHeader: req.get('mcp-method'),
      mcpNameHeader: req.get('mcp-name'),
      body: message,
    }).kind !== 'legacy';
    call.tasks = call.modern && declaresTasks(request.params);
    checkParams(call, request);
    if (stream && call.modern) listens.take(principal, call.res, () => stream.abort());
    await deliver(call, id, await dispatch(call, request, stream));
    return id;
  }

  /**
   * The params the SDK would refuse when malformed (-32603 for those of a spec method, -32600 for a `_meta` its message
   * schema refuses); ours are -32602 naming what is wrong. What else the SDK's schemas refuse is read back in deliver.
   */
  function checkParams(call: Call, request: JsonRpcRequest): void {
    const params = request.params ?? {};
    const meta = metaProblems(params._meta);
    if (meta) throw invalidParams(`Invalid params of ${call.method}: ${Object.values(meta)[0][0]}`, meta);
    if ((request.method === 'tools/list' || request.method === 'resources/list') && params.cursor !== undefined && typeof params.cursor !== 'string') {
      throw invalidParams(`Invalid params of ${request.method}: cursor must be a string.`, { cursor: ['cursor must be a string.'] });
    }
    if (request.method === 'initialize' && !call.modern) {
      const info = params.clientInfo as Record<string, unknown> | undefined;
      const problems: Record<string, string[]> = {};
      if (typeof params.protocolVersion !== 'string') problems.protocolVersion = ['protocolVersion must be a string.'];
      if (!isObject(params.capabilities)) problems.capabilities = ['capabilities must be an object.'];
      else {
        for (const name of CLIENT_CAPABILITIES) {
          const capability = params.capabilities[name];
          if (capability !== undefined && !isObject(capability)) problems[`capabilities.${name}`] = [`capabilities.${name} must be an object.`];
        }
      }
      if (!info || typeof info !== 'object' || typeof info.name !== 'string' || typeof info.version !== 'string') {
        problems.clientInfo = ['clientInfo must be an object with string name and version.'];
      }
      if (Object.keys(problems).length) {
        throw new McpError(ErrorCodes.INVALID_PARAMS, `Invalid initialize params: ${Object.values(problems)[0][0]}`, { reason: 'invalid_params', errors: problems });
      }
    } else if (request.method === 'tools/call') {
      if (typeof params.name !== 'string' || params.name === '') {
        throw new McpError(ErrorCodes.INVALID_PARAMS, 'tools/call needs params.name, the tool to call.', { reason: 'invalid_params', errors: { name: ['The name is required.'] } });
      }
      call.tool = params.name.slice(0, 64);
      call.arguments = scrubArguments(params.arguments ?? {});
      if (params.arguments !== undefined && (params.arguments === null || typeof params.arguments !== 'object' || Array.isArray(params.arguments))) {
        toolFor(registry, call, params.name); // an unknown or forbidden tool outranks its arguments
        throw new McpError(ErrorCodes.INVALID_PARAMS, 'params.arguments must be an object.', { reason: 'invalid_arguments' });
      }
    } else if (TASK_METHODS.has(request.method) && call.modern && deps.tasks.size) {
      if (!call.tasks) throw missingTasksCapability(request.method);
      if (typeof params.taskId !== 'string' || params.taskId === '') {
        throw new McpError(ErrorCodes.INVALID_PARAMS, `${request.method} needs params.taskId, the task.`, { reason: 'invalid_params', errors: { taskId: ['The taskId is required.'] } });
      }
      if (request.method === 'tasks/update' && (!params.inputResponses || typeof params.inputResponses !== 'object' || Array.isArray(params.inputResponses))) {
        throw new McpError(ErrorCodes.INVALID_PARAMS, 'tasks/update needs params.inputResponses, an object.', { reason: 'invalid_params', errors: { inputResponses: ['The inputResponses must be an object.'] } });
      }
    } else if (request.method === 'resources/read' && (typeof params.uri !== 'string' || params.uri === '')) {
      throw new McpError(ErrorCodes.INVALID_PARAMS, 'resources/read needs params.uri, the resource to read.', { reason: 'invalid_params', errors: { uri: ['The uri is required.'] } });
    }
  }

  /**
   * A 2026-07-28 exchange as `createMcpHandler` reads it: the headers it uses, and for a stream (a
   * `subscriptions/listen`) a signal that aborts it when the client goes away (or `stream` is aborted: its lifetime is
   * over). Any other exchange answers with one JSON body and no handler of ours reads the signal, so it has none: a
   * signal costs each Request an AbortController, listeners and a
   * FinalizationRegistry entry, and each answer an abort with its DOMException (about 40 µs of CPU a call, some 2 % of
   * a get_review's).
   */
  function webRequestOf(call: Call, stream: AbortController | undefined): globalThis.Request {
    const headers = new Headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    for (const [name, value] of Object.entries(call.req.headers)) {
      if (FORWARDED_HEADERS.test(name) && typeof value === 'string') headers.set(name, value);
    }
    if (!stream) return new Request(`http://localhost${call.req.originalUrl}`, { method: 'POST', headers });
    call.res.once('close', () => stream.abort());
    return new Request(`http://localhost${call.req.originalUrl}`, { method: 'POST', headers, signal: stream.signal });
  }

  /**
   * Hands the message to the SDK: the 2026-07-28 path (`createMcpHandler`) when it carries the envelope claim; a 2025-era
   * message to a fresh `Server` on the SDK's single-exchange transport (`PerRequestHTTPServerTransport`, the building
   * block the SDK documents for compositions that route the eras themselves), in JSON mode as before.
   */
  async function dispatch(call: Call, request: JsonRpcRequest, stream: AbortController | undefined): Promise<globalThis.Response> {
    const principal = call.ctx!.principal!;
    // The SDK passes authInfo through to the factory and the handlers; `extra.call` is this exchange.
    const authInfo: AuthInfo = { token: '[verified]', clientId: String(principal.tokenId), scopes: [...principal.permissions], extra: { call } };
    if (call.modern) return modern.fetch(webRequestOf(call, stream), { parsedBody: request, authInfo });

    const server = mcpServer(deps, call, await brands.of(call.ctx!));
    const transport = new PerRequestHTTPServerTransport({ classification: { era: 'legacy' }, responseMode: 'json' });
    await server.connect(transport);
    // The transport closes itself once the answer is settled (the SDK's close builds an SdkError with its stack, about
    // 3 % of a call: docs/performance-log.md, 2026-12-05); the server is garbage with it.
    return transport.handleMessage(request as JSONRPCRequest, { authInfo });
  }

  /** The SDK's answer as the client gets it, or the error our handler ended the call with (Call.failure). */
  async function deliver(call: Call, id: JsonRpcId, response: globalThis.Response): Promise<void> {
    if (call.failure) {
      await response.body?.cancel();
      return fail(call, id, call.failure);
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('application/json')) {
      // A stream (2026-07-28 answers upgrade to SSE when a handler sends a message before its result) or no body.
      call.res.status(response.status);
      response.headers.forEach((value, name) => call.res.setHeader(name, value));
      const reader = response.body?.getReader();
      for (let chunk = await reader?.read(); chunk && !chunk.done; chunk = await reader!.read()) call.res.write(chunk.value);
      call.res.end();
      audit(call, call.toolError ? 1 : 0, call.toolError ?? null);
      return;
    }
    let text = await response.text();
    if (call.taskCreated) {
      // The SDK fills `content: []` into every tools/call result; a CreateTaskResult is the Task fields alone (SEP-2663).
      const answer = JSON.parse(text) as { result?: { content?: unknown } };
      if (answer.result) delete answer.result.content;
      text = JSON.stringify(answer);
    }
    // The SDK writes a result as `{"result": ...}` first; only other answers (errors) are parsed for the audit log.
    const error = text.startsWith('{"result":') ? undefined : (JSON.parse(text) as { error?: { code: number; message?: unknown; data?: { reason?: string } } }).error;
    if (error?.code === ErrorCodes.PARSE_ERROR) {
      // The body was JSON and its envelope ours to check: the SDK's message schema refused its params.
      return fail(call, id, invalidParams(`Invalid params of ${call.method}.`, { params: ['The params do not match the method.'] }));
    }
    if (error?.code === ErrorCodes.INTERNAL_ERROR) {
      const problems = sdkParamsProblems(error.message);
      if (problems) return fail(call, id, invalidParams(`Invalid params of ${call.method}: ${Object.keys(problems)[0]}: ${Object.values(problems)[0][0]}`, problems));
      return fail(call, id, toMcpError(call, new Error(`The MCP SDK answered -32603: ${JSON.stringify(error)}`)));
    }
    if (error?.code === ErrorCodes.METHOD_NOT_FOUND) {
      // The SDK's bare "Method not found" (a method of no era, or of the other era), with our reason and a hint; on
      // 2026-07-28 with HTTP 404 as its Streamable HTTP binding says (SEP-2575), on 2025-06-18 with 200 as before.
      return fail(
        call,
        id,
        new McpError(
          ErrorCodes.METHOD_NOT_FOUND,
          `Method not found: ${call.method}. This server offers initialize and ping (2025-06-18) or server/discover (2026-07-28), tools/list, tools/call, resources/list and resources/read; with the Tasks extension (2026-07-28) tasks/get, tasks/update and tasks/cancel.`,
          { reason: 'unknown_method' },
          call.modern ? 404 : 200,
        ),
      );
    }
    sendJsonText(call.res, response.status, text);
    if (error) audit(call, error.code, error.data?.reason ?? null);
    else audit(call, call.toolError ? 1 : 0, call.toolError ?? null);
  }

  function fail(call: Call, id: JsonRpcId, error: McpError): void {
    if (call.res.headersSent) return;
    for (const [k, v] of Object.entries(error.headers)) call.res.setHeader(k, v);
    sendJson(call.res, error.status, errorEnvelope(id, error));
    audit(call, error.code, error.data.reason ?? null);
  }

  function audit(call: Call, resultCode: number, reason: string | null): void {
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
      durationMs: elapsedMs(call),
      correlationId: call.correlationId,
      requestId: call.req.id === undefined ? null : String(call.req.id),
      createdAt: call.ctx!.clock.now(),
    });
  }

  return router;
}

/**
 * `serverInfo.name` is the tenant's brand. The 2026-07-28 encoding stamps it on every result, so it is read once a
 * minute per tenant rather than with every call (a renamed brand shows within the minute, in any process).
 */
const BRAND_NAME = graphql(`query McpBrandName { tenant { brandName } }`);

class BrandNames {
  private readonly names = new Map<number, { name: string; until: number }>();

  constructor(private readonly schema: GraphQLSchema) {}

  async of(ctx: Context): Promise<string> {
    const tenantId = ctx.principal!.tenantId;
    const known = this.names.get(tenantId);
    if (known && known.until > Date.now()) return known.name;
    const data = await runOperation(this.schema, ctx, BRAND_NAME, {});
    if (this.names.size >= 10_000) this.names.clear();
    this.names.set(tenantId, { name: data.tenant.brandName, until: Date.now() + 60_000 });
    return data.tenant.brandName;
  }
}
