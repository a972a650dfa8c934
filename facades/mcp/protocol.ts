/**
 * JSON-RPC 2.0 as the MCP endpoint speaks it: the message shapes, the error codes of the spec's "MCP errors" table and
 * the HTTP status each one travels with (docs/decisions/mcp.md, "MCP endpoint"). The protocol itself (initialize,
 * server/discover, the per-request envelope of 2026-07-28) is the official SDK's (facades/mcp/server.ts).
 */

/** What `initialize` negotiates (the spec's "Versioning"): every 2025-era client is answered with this revision. */
export const LEGACY_PROTOCOL_VERSION = '2025-06-18';
/** The stateless revision, negotiated with `server/discover` and claimed by every request's `_meta` envelope. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** The revisions this server speaks, newest first: also the `MCP-Protocol-Version` header values it accepts. */
export const PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, LEGACY_PROTOCOL_VERSION];

export type JsonRpcId = string | number | null;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  /** Absent for notifications. */
  id?: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export const ErrorCodes = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /** Unauthenticated, missing permission, or access denied (the spec gives the one code three meanings). */
  UNAUTHORIZED: -32001,
  /** Not found, or rate limit exceeded (with `Retry-After`). */
  NOT_FOUND_OR_LIMITED: -32002,
  /** 2026-07-28 "Missing Required Client Capability": a Tasks method from a request that did not declare the extension. */
  MISSING_CLIENT_CAPABILITY: -32021,
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** Machine-readable detail in `error.data`: `reason` names the case, `errors` carries field messages. */
export interface ErrorData {
  reason?: string;
  errors?: Record<string, string[]>;
  retry_after?: number;
  /** An unsupported MCP-Protocol-Version: the revisions this server speaks and the one asked for (SEP-2575). */
  supported?: string[];
  requested?: string;
  /** resources/read of an unknown resource on 2026-07-28 (SEP-2164). */
  uri?: string;
  /** With -32021: the capabilities the request must declare, shaped like a client's `capabilities`. */
  requiredCapabilities?: Record<string, unknown>;
}

/**
 * Any failure of a JSON-RPC message. `status` is the HTTP status of the answer: transport-level failures (an
 * unreadable body, no usable token, the rate limit) use HTTP's own codes so that generic HTTP clients and the MCP
 * SDK react to them; failures of one method call are ordinary JSON-RPC answers on 200.
 */
export class McpError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data: ErrorData = {},
    readonly status: number = defaultStatus(code),
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'McpError';
  }
}

function defaultStatus(code: ErrorCode): number {
  switch (code) {
    case ErrorCodes.PARSE_ERROR:
    case ErrorCodes.INVALID_REQUEST:
      return 400;
    case ErrorCodes.INTERNAL_ERROR:
      return 500;
    case ErrorCodes.METHOD_NOT_FOUND:
    case ErrorCodes.INVALID_PARAMS:
    case ErrorCodes.UNAUTHORIZED:
    case ErrorCodes.NOT_FOUND_OR_LIMITED:
    case ErrorCodes.MISSING_CLIENT_CAPABILITY:
      return 200;
  }
}

export function errorEnvelope(id: JsonRpcId, err: McpError) {
  const error: { code: number; message: string; data?: ErrorData } = { code: err.code, message: err.message };
  if (Object.keys(err.data).length) error.data = err.data;
  return { jsonrpc: '2.0' as const, id, error };
}

const isId = (v: unknown): v is JsonRpcId => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** The id to answer with, as far as the message can be read (null when it cannot). */
export function idOf(message: unknown): JsonRpcId {
  if (message && typeof message === 'object' && !Array.isArray(message) && 'id' in message) {
    const id = (message as { id: unknown }).id;
    if (isId(id)) return id;
  }
  return null;
}

/** Checks the envelope (-32600 when malformed); a batch (JSON array) is refused, as 2025-06-18 has no batches. */
export function parseEnvelope(message: unknown): JsonRpcRequest {
  if (Array.isArray(message)) {
    throw new McpError(ErrorCodes.INVALID_REQUEST, 'Batch requests are not supported: send one JSON-RPC message per request.', { reason: 'batch_not_supported' });
  }
  if (!message || typeof message !== 'object') throw new McpError(ErrorCodes.INVALID_REQUEST, 'The request must be a JSON-RPC 2.0 object.');
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') throw new McpError(ErrorCodes.INVALID_REQUEST, 'The "jsonrpc" member must be exactly "2.0".');
  if (typeof m.method !== 'string' || m.method === '') throw new McpError(ErrorCodes.INVALID_REQUEST, 'The "method" member must be a non-empty string.');
  if ('id' in m && !isId(m.id)) throw new McpError(ErrorCodes.INVALID_REQUEST, 'The "id" member must be a string, a number or null.');
  if ('params' in m && m.params !== undefined && (m.params === null || typeof m.params !== 'object' || Array.isArray(m.params))) {
    throw new McpError(ErrorCodes.INVALID_REQUEST, 'The "params" member must be an object.');
  }
  // A response sent to the server (result/error without method) never gets here: it has no method.
  return m as unknown as JsonRpcRequest;
}
