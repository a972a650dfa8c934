import { DomainError } from '../../src/domain/errors';
import type { Principal } from '../../src/domain/principal';
import { ErrorCodes, McpError } from './protocol';
import type { Operation } from '../shared/execute';

/**
 * The MCP Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on protocol 2026-07-28: a `tools/call` of a
 * task-capable tool from a request that declares the extension is answered with a task handle (`resultType: "task"`)
 * instead of waiting; the client polls `tasks/get` until the task is terminal, the final tool result inlined. Tasks are
 * server-directed (the client sends no hint), polled (no `tasks/result`, no `tasks/list`), and this server keeps no
 * task state of its own: a task id names work the product already tracks (a scan run), so any API process answers
 * for any task and a task lives as long as that work's record. 2025-era requests and requests without the extension
 * get the synchronous result as before. docs/decisions/mcp.md "MCP Tasks".
 */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A tool result as a completed task inlines it (`CallToolResult`). */
export interface TaskToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What a task kind knows about one of its tasks: SEP-2663's Task fields plus the terminal result or error. */
export interface TaskState {
  status: TaskStatus;
  statusMessage?: string;
  createdAt: Date;
  lastUpdatedAt: Date;
  /** How long the task stays readable after creation, in ms; null: as long as the work's record exists. */
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** `completed` only: the tool's result (a tool-level failure is `completed` with `isError`). */
  result?: TaskToolResult;
  /** `failed` only: a protocol-level error. */
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** The caller of a Tasks method: its principal and the one door to data a facade has (a GraphQL operation). */
export interface TaskContext {
  principal: Principal;
  run<T>(document: Operation<T>, variables: Record<string, unknown>): Promise<T>;
}

/** A family of tasks (scan runs, ...): its ids are `<name>.<id>`. */
export interface TaskKind {
  name: string;
  /** The task as this caller may see it; null when there is none or it is not the caller's. */
  get(ctx: TaskContext, id: string): Promise<TaskState | null>;
  /**
   * Cooperative cancellation (SEP-2663: the server acknowledges and decides whether to stop). True when the task
   * exists for this caller; whether the work stops is the kind's to say in its docs.
   */
  cancel(ctx: TaskContext, id: string): Promise<boolean>;
}

/** A tool's task support: the kind its tasks belong to and the task id of the work one call started. */
export interface ToolTask<D, A = Record<string, unknown>> {
  kind: TaskKind;
  /** `required`: a client without the extension gets -32021 rather than a synchronous result. */
  support: 'optional' | 'required';
  /** The task of the work this call started, from the operation's answer (and the call's arguments). */
  idOf(data: D, args: A): string;
}

/** Whether this request declares the Tasks extension in its per-request client capabilities (2026-07-28 `_meta`). */
export function declaresTasks(params: Record<string, unknown> | undefined): boolean {
  const meta = params?._meta as Record<string, unknown> | undefined;
  const caps = meta?.[CLIENT_CAPABILITIES] as { extensions?: Record<string, unknown> } | undefined;
  const ext = caps?.extensions?.[TASKS_EXTENSION];
  return ext !== undefined && ext !== null && typeof ext === 'object';
}

export function missingTasksCapability(what: string): McpError {
  return new McpError(ErrorCodes.MISSING_CLIENT_CAPABILITY, `${what} needs the ${TASKS_EXTENSION} extension declared in the request's client capabilities.`, {
    reason: 'missing_client_capability',
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}

const unknownTask = () => new McpError(ErrorCodes.INVALID_PARAMS, 'Unknown task: no task of this caller has that taskId.', { reason: 'unknown_task' });

/** The task kinds of one server, by name; task ids are `<kind>.<id>`. */
export class TaskKinds {
  private readonly kinds = new Map<string, TaskKind>();

  constructor(kinds: Iterable<TaskKind>) {
    for (const k of kinds) {
      if (this.kinds.has(k.name) && this.kinds.get(k.name) !== k) throw new Error(`Two MCP task kinds are named ${k.name}`);
      this.kinds.set(k.name, k);
    }
  }

  get size(): number {
    return this.kinds.size;
  }

  static taskId(kind: TaskKind, id: string): string {
    return `${kind.name}.${id}`;
  }

  private resolve(taskId: string): { kind: TaskKind; id: string } | null {
    const dot = taskId.indexOf('.');
    const kind = dot > 0 ? this.kinds.get(taskId.slice(0, dot)) : undefined;
    return kind ? { kind, id: taskId.slice(dot + 1) } : null;
  }

  /** `tasks/get`: the DetailedTask, or -32602 for a task this caller has not got. */
  async get(ctx: TaskContext, taskId: string): Promise<Record<string, unknown>> {
    const found = this.resolve(taskId);
    const state = found ? await hidden(() => found.kind.get(ctx, found.id)) : null;
    if (!state) throw unknownTask();
    return detailed(taskId, state);
  }

  /** `tasks/cancel`: an empty acknowledgement for any task of this caller, terminal or not. */
  async cancel(ctx: TaskContext, taskId: string): Promise<Record<string, never>> {
    const found = this.resolve(taskId);
    if (!found || !(await hidden(() => found.kind.cancel(ctx, found.id)))) throw unknownTask();
    return {};
  }

  /** `tasks/update`: no task of this server ever asks for input, so responses are acknowledged and ignored. */
  async update(ctx: TaskContext, taskId: string): Promise<Record<string, never>> {
    const found = this.resolve(taskId);
    if (!found || !(await hidden(() => found.kind.get(ctx, found.id)))) throw unknownTask();
    return {};
  }
}

/** Not found and not allowed look the same: a task id says nothing about work the caller may not see. */
async function hidden<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof DomainError && (err.code === 'NOT_FOUND' || err.code === 'FORBIDDEN')) return null;
    throw err;
  }
}

/** The Task fields every answer about a task carries (CreateTaskResult, tasks/get). */
export function taskFields(taskId: string, s: TaskState): Record<string, unknown> {
  return {
    taskId,
    status: s.status,
    ...(s.statusMessage ? { statusMessage: s.statusMessage } : {}),
    createdAt: s.createdAt.toISOString(),
    lastUpdatedAt: s.lastUpdatedAt.toISOString(),
    ttlMs: s.ttlMs,
    ...(s.pollIntervalMs ? { pollIntervalMs: s.pollIntervalMs } : {}),
  };
}

/** `tasks/get`'s DetailedTask: the Task fields, with the result inlined when completed and the error when failed. */
function detailed(taskId: string, s: TaskState): Record<string, unknown> {
  return {
    ...taskFields(taskId, s),
    // The inlined tool result is a 2026-07-28 result of its own: it carries its resultType.
    ...(s.status === 'completed' && s.result ? { result: { ...s.result, resultType: 'complete' } } : {}),
    ...(s.status === 'failed' && s.error ? { error: s.error } : {}),
  };
}
