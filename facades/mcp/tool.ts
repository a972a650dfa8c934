import type { Operation } from '../shared/execute';
import type { ToolPermission } from './permissions';
import type { JsonSchema } from './schema';
import type { ToolTask } from './tasks';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** True when the tool reaches a third party (ranking providers, review platforms). */
  openWorldHint: boolean;
}

export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * One MCP tool: what `tools/list` publishes (name, title, description, schemas, annotations), who may call it,
 * and the ONE GraphQL operation it runs with the caller's principal plus how its answer becomes `structuredContent`.
 * A tool is a file in `facades/mcp/tools/` and a line in `tools/index.ts`.
 */
export interface ToolDef<A, D> {
  name: string;
  title: string;
  /** Written for a model: what the tool is for, what it returns, when to use another tool. */
  description: string;
  /** Validated as published: an unknown, missing or out-of-bounds argument is -32602. Defaults are applied. */
  inputSchema: JsonSchema;
  /** `structuredContent` satisfies it (the SDK client checks). */
  outputSchema: JsonSchema;
  annotations: ToolAnnotations;
  /** The spec's tool permission (see permissions.ts), or null when only tenant ownership matters. */
  permission: ToolPermission | null;
  /** Needs the `mcp:writes` ability. */
  writes?: boolean;
  /** Local Search Grid tools: tenant owners only; other callers never see them. */
  tenantOwnerOnly?: boolean;
  /** The MCP Apps View (a `ui://` resource, facades/mcp/apps) that renders this tool's results in hosts that support it. */
  view?: string;
  /**
   * Long-running work (the MCP Tasks extension, facades/mcp/tasks.ts): a call from a 2026-07-28 request that declares
   * the extension is answered with a task handle for the work the operation started; other calls as before.
   */
  task?: ToolTask<D, A>;
  /**
   * Tools with an `include_pii` argument: blanks name, email and phone in the structured result unless the call
   * unlocked personal data (`include_pii: true` on a token with `reviews:pii`).
   */
  redact?: (result: Record<string, unknown>) => Record<string, unknown>;
  /** The operation, a typed document of `graphql()`: its result type is `result`'s data. */
  document: Operation<D>;
  /** Arguments (validated, defaults applied) to GraphQL variables. May throw an McpError for cross-field rules. */
  variables(args: A): Record<string, unknown>;
  result(data: D, args: A): Record<string, unknown>;
}

export type AnyTool = ToolDef<Record<string, unknown>, unknown>;

/**
 * Keeps each tool file fully typed while the registry holds them side by side: the data type comes from the document,
 * the arguments' from `variables`' parameter.
 */
export function defineTool<A, D>(def: ToolDef<A, D>): AnyTool {
  return def as unknown as AnyTool;
}

export const REDACTED = '[redacted]';

/** A copy of `row` with the named fields replaced by `[redacted]` where they hold a value. */
export function redactFields<T extends Record<string, unknown>>(row: T, fields: readonly string[] = ['name', 'email', 'phone']): T {
  const out: Record<string, unknown> = { ...row };
  for (const f of fields) if (out[f] !== null && out[f] !== undefined) out[f] = REDACTED;
  return out as T;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// No class takes `@`: a run of them (a provider's text is the contact's mail server's to write) cannot backtrack. A
// match starts only where a word starts (after a separator or an `@`, as the leftmost match always did): tried from
// every position, a long run without an `@` (a feedback message of 5,000 letters) cost time in its square, 60 ms a row.
const EMAIL = /(?<![^\s<>"'(),;:@])[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+\.[^\s<>"'(),;:@]+/g;

/**
 * Free text about a person (an activity's detail quoting a provider's refusal, say "550 <jane@example.com>: no such
 * user") with that person's data replaced by `[redacted]`: any email address, the person's phone number however its
 * digits are spaced, and their names as words, in any case.
 */
export function redactText(text: string, person: { names?: Array<unknown>; phone?: unknown }): string {
  let out = text.replace(EMAIL, REDACTED);
  const digits = typeof person.phone === 'string' ? person.phone.replace(/\D/g, '') : '';
  // The number as stored (E.164) or without its country code, digits separated by spaces, dots, dashes or brackets.
  for (const d of new Set([digits, digits.slice(-10)])) {
    if (d.length >= 7) out = out.replace(new RegExp(`\\+?${d.split('').join('[\\s().-]*')}`, 'g'), REDACTED);
  }
  for (const name of person.names ?? []) {
    if (typeof name === 'string' && name.trim().length >= 2) out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(name.trim())}(?![\\p{L}\\p{N}])`, 'giu'), REDACTED);
  }
  return out;
}

/** The `redact` of a list tool: every row of `data` through redactFields. */
export const redactRows =
  (fields?: readonly string[]) =>
  (result: Record<string, unknown>): Record<string, unknown> => ({ ...result, data: (result.data as Array<Record<string, unknown>>).map((row) => redactFields(row, fields)) });
