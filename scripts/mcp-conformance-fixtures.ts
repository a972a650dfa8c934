import { randomUUID } from 'node:crypto';
import { input, int, num, object, str } from '../facades/mcp/schema';
import type { TaskContext, TaskKind, TaskState, TaskToolResult } from '../facades/mcp/tasks';
import { defineTool, READ_ONLY, type AnyTool } from '../facades/mcp/tool';
import { parse } from 'graphql';
import type { Operation } from '../facades/shared/execute';

/**
 * The fixture tools the conformance suite's `tasks-*` scenarios call by fixed name (greet, slow_compute, failing_job,
 * protocol_error_job), for the conformance run only (scripts/mcp-conformance.ts serves them from a second app; the
 * production catalogue never has them). They go through the same task layer as create_scan and run_scan
 * (facades/mcp/tasks.ts: the gate, the CreateTaskResult, tasks/get, tasks/cancel): only their work is in memory here,
 * where a scan run's is a Temporal workflow and its rows.
 */
interface Job {
  state: TaskState;
  timer?: NodeJS.Timeout;
}

const jobs = new Map<string, Job>();
const text = (value: unknown): TaskToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> });

/** Starts a job that settles after `ms` as `settle` says; the task id is the job's. */
function start(ms: number, settle: () => Pick<TaskState, 'status' | 'result' | 'error'>): string {
  const id = randomUUID();
  const now = new Date();
  const job: Job = { state: { status: 'working', createdAt: now, lastUpdatedAt: now, ttlMs: 600_000, pollIntervalMs: 200 } };
  job.timer = setTimeout(() => {
    if (job.state.status === 'working') job.state = { ...job.state, ...settle(), lastUpdatedAt: new Date() };
  }, ms);
  job.timer.unref();
  jobs.set(id, job);
  return id;
}

/** One conformance token calls them all: the jobs are not scoped to a caller as scan runs are (to their tenant). */
const mine = (_ctx: TaskContext, id: string): Job | null => jobs.get(id) ?? null;

export const fixtureTasks: TaskKind = {
  name: 'fixture',
  async get(ctx, id) {
    return mine(ctx, id)?.state ?? null;
  },
  async cancel(ctx, id) {
    const job = mine(ctx, id);
    if (!job) return false;
    if (job.state.status === 'working') {
      clearTimeout(job.timer);
      job.state = { ...job.state, status: 'cancelled', lastUpdatedAt: new Date() };
    }
    return true;
  },
};

/** Every fixture runs a trivial operation: the tool machinery (gate, validation, audit) is the real one. */
const TRIVIAL = parse('query { __typename }') as Operation<unknown>;
const fixture = { annotations: READ_ONLY, permission: null, document: TRIVIAL, variables: () => ({}) } as const;

const greet = defineTool<{ name: string }, unknown>({
  ...fixture,
  name: 'greet',
  title: 'Greet (conformance fixture)',
  description: 'Answers Hello, {name}! at once.',
  inputSchema: input({ name: str() }, ['name']),
  outputSchema: object({ greeting: str() }),
  result: (_d, a) => ({ greeting: `Hello, ${a.name}!` }),
});

const slowCompute = defineTool<{ seconds: number; label?: string }, unknown>({
  ...fixture,
  name: 'slow_compute',
  title: 'Slow compute (conformance fixture)',
  description: 'Works for `seconds`, then answers; a task with the Tasks extension.',
  inputSchema: input({ seconds: num({ minimum: 0, maximum: 120 }), label: str() }, ['seconds']),
  outputSchema: object({ label: str(), seconds: num() }),
  result: (_d, a) => ({ label: a.label ?? '', seconds: a.seconds }),
  task: {
    kind: fixtureTasks,
    support: 'optional',
    idOf: (_d, a) => start(a.seconds * 1000, () => ({ status: 'completed', result: text({ label: a.label ?? '', seconds: a.seconds }) })),
  },
});

const failingJob = defineTool<Record<string, never>, unknown>({
  ...fixture,
  name: 'failing_job',
  title: 'Failing job (conformance fixture)',
  description: 'A task that ends with a tool error after about a second; needs the Tasks extension.',
  inputSchema: input({}),
  outputSchema: object({ failed: int() }),
  result: () => ({ failed: 1 }),
  task: {
    kind: fixtureTasks,
    support: 'required',
    idOf: () => start(1000, () => ({ status: 'completed', result: { content: [{ type: 'text', text: JSON.stringify({ error: { reason: 'job_failed', message: 'The job failed.' } }) }], isError: true } })),
  },
});

const protocolErrorJob = defineTool<Record<string, never>, unknown>({
  ...fixture,
  name: 'protocol_error_job',
  title: 'Protocol error job (conformance fixture)',
  description: 'A task that fails with a protocol-level error.',
  inputSchema: input({}),
  outputSchema: object({ failed: int() }),
  result: () => ({ failed: 1 }),
  task: { kind: fixtureTasks, support: 'optional', idOf: () => start(500, () => ({ status: 'failed', error: { code: -32603, message: 'The job crashed.' } })) },
});

export const FIXTURE_TOOLS: AnyTool[] = [greet, slowCompute, failingJob, protocolErrorJob];
