import { DomainError, type ErrorCode as DomainCode } from '../../src/domain/errors';
import { ErrorCodes, McpError } from './protocol';

/**
 * How a domain error reaches the model. Failures the spec names become JSON-RPC errors; refusals of a valid,
 * permitted call by a business rule (a scan already running, a paused subscription, a platform that said no) are
 * tool results with `isError: true`, which MCP meant for errors the model can read and act on.
 */
export type DomainOutcome = { kind: 'error'; error: McpError } | { kind: 'tool_error'; reason: string; message: string };

/** The one exhaustive switch of this facade over the error table (src/domain/errors.ts). */
export function mcpOutcome(err: DomainError): DomainOutcome {
  const code: DomainCode = err.code;
  switch (code) {
    case 'UNAUTHENTICATED':
      return { kind: 'error', error: new McpError(ErrorCodes.UNAUTHORIZED, err.message, { reason: 'unauthenticated' }) };
    case 'FORBIDDEN':
      return { kind: 'error', error: new McpError(ErrorCodes.UNAUTHORIZED, err.message, { reason: forbiddenReason(err.reason) }) };
    case 'NOT_FOUND':
      return { kind: 'error', error: new McpError(ErrorCodes.NOT_FOUND_OR_LIMITED, err.message, { reason: 'not_found' }) };
    case 'VALIDATION': {
      const data: { reason?: string; errors?: Record<string, string[]> } = {};
      if (err.reason) data.reason = err.reason;
      if (err.fields && Object.keys(err.fields).length) data.errors = snakeFields(err.fields);
      return { kind: 'error', error: new McpError(ErrorCodes.INVALID_PARAMS, err.message, data) };
    }
    case 'RATE_LIMITED':
      return { kind: 'error', error: new McpError(ErrorCodes.NOT_FOUND_OR_LIMITED, err.message, { reason: 'rate_limited' }, 429) };
    case 'PLAN_LIMIT':
    case 'CONFLICT':
    case 'UPSTREAM':
      return { kind: 'tool_error', reason: err.reason ?? code.toLowerCase(), message: err.message };
  }
}

/** `missing_permission` and `access_denied` are the spec's other two meanings of -32001. */
function forbiddenReason(reason: string | undefined): string {
  if (!reason || reason === 'location_access_denied' || reason === 'organization_access_denied') return 'access_denied';
  return reason;
}

/** Field names in messages are the tool's parameter names (snake_case), not GraphQL's. */
function snakeFields(fields: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(fields)) out[k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()] = v;
  return out;
}
