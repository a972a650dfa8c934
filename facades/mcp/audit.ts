/**
 * Every answered call of an identified token is recorded (spec: issue 8 "Audit log"). The facade hands entries to
 * a sink after the answer is sent; the sink (src/services/mcp-audit.service.ts) writes them in batches, so the
 * audit costs a request an array push, not a database round trip. The entry's shape is src/domain/mcp-audit.ts.
 */
export type { McpAuditSink } from '../../src/domain/mcp-audit';

export const REDACTED_ARGUMENT = '[redacted]';

/**
 * The most a call's scrubbed arguments may take, serialised as JSON (bytes of UTF-8). Each string and list is cut
 * below, but 50 keys of 50 strings of 200 characters (or nested objects) still come to hundreds of KB, past the
 * column (`arguments` is a TEXT, 64 KB) and so past what one row of the writer's multi-row INSERT may carry. Larger
 * arguments are stored as TRUNCATED_ARGUMENTS says instead.
 */
export const MAX_AUDIT_ARGUMENTS_BYTES = 8 * 1024;

/** How many key names the stand-in for over-long arguments keeps (each at most 64 characters: well under the cap). */
const TRUNCATED_KEYS = 10;

/**
 * Argument names whose values can be personal data or free text about people: replaced before the arguments are
 * stored. Other strings are kept up to 200 characters.
 */
const PERSONAL_ARGUMENTS = new Set(['name', 'first_name', 'last_name', 'email', 'phone', 'author', 'query', 'message', 'address']);

/**
 * The arguments as the audit log keeps them: personal values replaced, strings and lists cut, and the whole no
 * larger than MAX_AUDIT_ARGUMENTS_BYTES: past it, `{"_truncated": true, "keys": [<the first key names>]}`.
 */
export function scrubArguments(args: unknown): Record<string, unknown> | null {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args as Record<string, unknown>).slice(0, 50)) {
    out[key.slice(0, 64)] = PERSONAL_ARGUMENTS.has(key) ? REDACTED_ARGUMENT : trim(value, 0);
  }
  if (Buffer.byteLength(JSON.stringify(out)) <= MAX_AUDIT_ARGUMENTS_BYTES) return out;
  return { _truncated: true, keys: Object.keys(out).slice(0, TRUNCATED_KEYS) };
}

function trim(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > 200 ? `${value.slice(0, 200)}...` : value;
  if (Array.isArray(value)) return depth > 2 ? '[...]' : value.slice(0, 50).map((v) => trim(v, depth + 1));
  if (value && typeof value === 'object') {
    if (depth > 2) return '{...}';
    return Object.fromEntries(Object.entries(value).slice(0, 50).map(([k, v]) => [k.slice(0, 64), PERSONAL_ARGUMENTS.has(k) ? REDACTED_ARGUMENT : trim(v, depth + 1)]));
  }
  return value;
}
