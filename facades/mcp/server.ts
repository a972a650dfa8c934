import { performance } from 'node:perf_hooks';
import type { Request, Response } from 'express';
import type { GraphQLSchema } from 'graphql';
import { ProtocolError, Server, type CallToolResult, type ListResourcesResult, type ListToolsResult, type ReadResourceResult } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Context } from '../../src/context';
import { DomainError } from '../../src/domain/errors';
import { setRouteLabel } from '../../src/observability/http-metrics';
import { loggable } from '../shared/errors';
import { executeResult, failureOf, unwrap, type Operation } from '../shared/execute';
import { listResources, readResource, viewMeta, type AppsOptions } from './apps';
import { mcpOutcome } from './errors';
import { refusal, REVIEWS_PII } from './permissions';
import { ErrorCodes, McpError, PROTOCOL_VERSIONS } from './protocol';
import { gate, type ToolRegistry } from './registry';
import { SCOPE_CHECK } from './scope';
import { missingTasksCapability, TASKS_EXTENSION, TaskKinds, taskFields, type TaskContext } from './tasks';
import type { AnyTool } from './tool';

/**
 * One HTTP exchange with the MCP endpoint: what the front layer (index.ts) learnt before the SDK saw the message, and
 * what the tool handlers below leave for the answer and the audit log.
 */
export interface Call {
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
  /** The tools/call was answered with a task handle (CreateTaskResult). */
  taskCreated?: boolean;
  /** A 2026-07-28 request (the per-request envelope), not a 2025-era one. */
  modern: boolean;
  /** The request declares the Tasks extension (facades/mcp/tasks.ts): task-capable tools answer with a task. */
  tasks: boolean;
  /**
   * The error a handler of ours ended the call with. The answer carries it exactly as thrown: the SDK's error
   * encoding re-codes -32002 (its old "resource not found") as -32602 on every revision and answers every handler
   * error with HTTP 200, where the spec's table wants -32002 for "not found" and 500 for -32603.
   */
  failure?: McpError;
  /** A business refusal answered as a tool result with `isError` (audited as result code 1 with this reason). */
  toolError?: string;
}

export interface ServerDeps {
  schema: GraphQLSchema;
  registry: ToolRegistry;
  version: string;
  /** MCP Apps Views (facades/mcp/apps): map tiles or none. */
  apps: AppsOptions;
  /** The task kinds of the catalogue's task-capable tools (the Tasks extension on 2026-07-28). */
  tasks: TaskKinds;
}

const TaskParams = z.object({ taskId: z.string() }).passthrough();

/**
 * The official SDK's low-level `Server` for one request (stateless: a fresh instance per HTTP exchange, as
 * `createMcpHandler` wants). The SDK answers `initialize` (2025 era), `server/discover` and the 2026-07-28 envelope,
 * `ping`, unknown methods (-32601) and encodes each era's wire shape; our two handlers answer `tools/list` and
 * `tools/call`. `McpServer` is not used: it answers an unknown tool with -32602 and turns invalid arguments and every
 * error a tool throws into `isError` tool results (mcp.ts, `setToolRequestHandlers`), where our contract has -32601,
 * -32602 naming each argument, -32001 and -32002.
 */
export function mcpServer(deps: ServerDeps, call: Call, brandName: string): Server {
  const server = new Server(
    { name: brandName, version: deps.version },
    {
      // resources: the MCP Apps Views (`ui://`) the Local Search Grid tools declare; no subscriptions, a fixed list.
      // extensions: the Tasks extension, on 2026-07-28 only (SEP-2663; 2025-06-18 has no tasks).
      capabilities: { tools: {}, resources: {}, ...(call.modern && deps.tasks.size ? { extensions: { [TASKS_EXTENSION]: {} } } : {}) },
      // initialize answers 2025-06-18 to every 2025-era client (the first legacy entry); 2026-07-28 via server/discover.
      supportedProtocolVersions: [...PROTOCOL_VERSIONS],
      // 2026-07-28 cacheable lists: the catalogue depends on the token only (abilities, permissions, role).
      cacheHints: {
        'tools/list': { ttlMs: 300_000, cacheScope: 'private' },
        'server/discover': { ttlMs: 300_000, cacheScope: 'private' },
        'resources/list': { ttlMs: 300_000, cacheScope: 'private' },
        // A View carries the agency's brand: private, and re-read within the hour when the brand changes.
        'resources/read': { ttlMs: 3_600_000, cacheScope: 'private' },
      },
    },
  );
  const tools = new ToolCalls(deps, call);
  server.setRequestHandler('tools/list', () => tools.list());
  server.setRequestHandler('tools/call', (request) => tools.invoke(request.params));
  server.setRequestHandler('resources/list', (): ListResourcesResult => ({ resources: listResources(call.ctx!.principal!) }));
  server.setRequestHandler('resources/read', async (request): Promise<ReadResourceResult> => {
    try {
      return await readResource(call.ctx!.principal!, request.params.uri, brandName, deps.apps);
    } catch (err) {
      // An unknown resource: -32002 not_found on 2025-06-18 (as thrown, like a tool's); on 2026-07-28 SEP-2164's -32602
      // with the uri.
      if (call.modern && err instanceof McpError && err.code === ErrorCodes.NOT_FOUND_OR_LIMITED) {
        throw failCall(call, new McpError(ErrorCodes.INVALID_PARAMS, err.message, { reason: 'not_found', uri: request.params.uri.slice(0, 2048) }));
      }
      throw failCall(call, err);
    }
  });
  if (call.modern && deps.tasks.size) {
    // Whether the request declared the extension and carries a taskId was checked in front (index.ts checkParams).
    const ctx = taskContext(deps, call);
    const guarded = <T>(answer: () => Promise<T>) => answer().catch((err: unknown) => Promise.reject(failCall(call, err)));
    server.setRequestHandler('tasks/get', { params: TaskParams }, (params) => guarded(() => deps.tasks.get(ctx, params.taskId)));
    server.setRequestHandler('tasks/cancel', { params: TaskParams }, (params) => guarded(() => deps.tasks.cancel(ctx, params.taskId)));
    server.setRequestHandler('tasks/update', { params: TaskParams }, (params) => guarded(() => deps.tasks.update(ctx, params.taskId)));
  }
  return server;
}

function taskContext(deps: ServerDeps, call: Call): TaskContext {
  return { principal: call.ctx!.principal!, run: (document, variables) => runOperation(deps.schema, call.ctx!, document, variables) };
}

class ToolCalls {
  constructor(
    private readonly deps: ServerDeps,
    private readonly call: Call,
  ) {}

  list(): ListToolsResult {
    return { tools: this.deps.registry.visibleTo(this.call.ctx!.principal!).map(describe) as ListToolsResult['tools'] };
  }

  async invoke(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult> {
    try {
      return await this.run(params);
    } catch (err) {
      throw this.fail(err);
    }
  }

  private async run(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult> {
    const { call } = this;
    const principal = call.ctx!.principal!;
    const tool = toolFor(this.deps.registry, call, params.name);
    const args = this.deps.registry.validate(tool, params.arguments);
    if (args.include_pii === true) {
      if (!principal.permissions.has(REVIEWS_PII)) {
        throw new McpError(ErrorCodes.UNAUTHORIZED, 'include_pii needs the reviews.pii permission (token ability reviews:pii).', { reason: 'missing_permission' });
      }
      call.piiUnlocked = true;
    }
    if (tool.task?.support === 'required' && !call.tasks) throw missingTasksCapability(`The ${tool.name} tool`);
    let data: unknown;
    try {
      data = await runOperation(this.deps.schema, call.ctx!, tool.document, tool.variables(args));
    } catch (err) {
      if (err instanceof DomainError) {
        const outcome = mcpOutcome(err);
        if (outcome.kind === 'error') throw outcome.error;
        call.toolError = outcome.reason;
        return { content: [{ type: 'text', text: JSON.stringify({ error: { reason: outcome.reason, message: outcome.message } }) }], isError: true };
      }
      throw err;
    }
    if (tool.task && call.tasks) {
      // A task handle for the work the operation started, answered once the task is readable (SEP-2663: durable create).
      const id = tool.task.idOf(data, args);
      const state = await tool.task.kind.get(taskContext(this.deps, call), id);
      if (!state) throw new Error(`The ${tool.name} task ${id} cannot be read back.`);
      call.taskCreated = true;
      return { resultType: 'task', ...taskFields(TaskKinds.taskId(tool.task.kind, id), state) } as unknown as CallToolResult;
    }
    let structured = tool.result(data, args);
    if (tool.redact && !call.piiUnlocked) structured = tool.redact(structured);
    return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
  }

  private fail(err: unknown): ProtocolError {
    return failCall(this.call, err);
  }
}

/** Records the failure for the answer (see Call.failure) and hands the SDK an error to end the request with. */
function failCall(call: Call, err: unknown): ProtocolError {
  const error = toMcpError(call, err);
  call.failure = error;
  return new ProtocolError(error.code, error.message, error.data);
}

/** The tool `name` names, if this caller may call it: -32601 for an unknown tool, -32001 for one it may not use. */
export function toolFor(registry: ToolRegistry, call: Call, name: string): AnyTool {
  const tool = registry.get(name);
  call.tool = name.slice(0, 64);
  if (!tool) throw new McpError(ErrorCodes.METHOD_NOT_FOUND, `Unknown tool: ${call.tool}. Call tools/list for the tools this token can use.`, { reason: 'unknown_tool' });
  setRouteLabel(call.res, `mcp:${tool.name}`);
  const refused = refusal(call.ctx!.principal!, gate(tool));
  if (refused) throw new McpError(ErrorCodes.UNAUTHORIZED, refused.message, { reason: refused.reason });
  return tool;
}

/** Any failure of a call as the spec's JSON-RPC error; an unexpected one is logged and answered without detail. */
export function toMcpError(call: Call, err: unknown): McpError {
  if (err instanceof McpError) return err;
  if (err instanceof DomainError) {
    const outcome = mcpOutcome(err);
    return outcome.kind === 'error' ? outcome.error : new McpError(ErrorCodes.INVALID_PARAMS, outcome.message, { reason: outcome.reason });
  }
  call.log.error({ err: loggable(failureOf(err)) }, 'MCP internal error');
  return new McpError(ErrorCodes.INTERNAL_ERROR, 'Internal error.', {}, 500);
}

/**
 * One GraphQL operation with the caller's context; a scope check's refusal outranks the query's own errors. The
 * check runs first on its own: root fields resolve in parallel and a failing non-null field ends the operation with
 * whichever error came first, so within one operation the answer for an id outside scope would depend on timing.
 */
export async function runOperation<T>(schema: GraphQLSchema, ctx: Context, document: Operation<T>, variables: Record<string, unknown>): Promise<T> {
  if (variables.checkScope === true) {
    const scope = await executeResult(schema, SCOPE_CHECK, { organizationId: variables.organizationId ?? null, locationId: variables.locationId ?? null }, ctx);
    if (scope.errors?.length) throw unwrap(scope.errors);
  }
  const result = await executeResult(schema, document, variables, ctx);
  if (result.errors?.length) {
    const scope = result.errors.find((e) => e.path?.[0] === 'accessScope' && e.originalError instanceof DomainError);
    throw scope ? scope.originalError : unwrap(result.errors);
  }
  return result.data as T;
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
    ...(t.view ? { _meta: viewMeta(t.view) } : {}),
  };
}

export const elapsedMs = (call: Call) => Math.round(performance.now() - call.started);
