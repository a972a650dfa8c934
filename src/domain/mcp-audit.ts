/**
 * One answered MCP call of an identified token (spec: issue 8 "Audit log"): what the MCP facade hands over after the
 * answer is sent (facades/mcp/index.ts) and the audit writer stores (src/services/mcp-audit.service.ts). Here, below
 * both, so the two sides share one shape.
 */
export interface McpAuditRecord {
  tenantId: number;
  tokenId: number;
  userId: number;
  /** The JSON-RPC method as sent (cut to 64 characters), or `-` when the message could not be read. */
  method: string;
  tool: string | null;
  /** Tool arguments as sent, personal data replaced (facades/mcp/audit.ts, scrubArguments). */
  arguments: Record<string, unknown> | null;
  piiUnlocked: boolean;
  /** 0: a result; 1: a tool result with isError (a business refusal); otherwise the JSON-RPC error code. */
  resultCode: number;
  /** The error's `data.reason` (`missing_permission`, `rate_limited`, `scan_running`, ...), else null. */
  errorReason: string | null;
  durationMs: number;
  correlationId: string;
  requestId: string | null;
  createdAt: Date;
}

/** Where the facade puts records: an array push, the writing happens behind the answers. */
export interface McpAuditSink {
  record(entry: McpAuditRecord): void;
}
