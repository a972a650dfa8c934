import type { Logger } from 'pino';
import { ConnectionError, Op, QueryTypes, type WhereOptions } from 'sequelize';
import { Forbidden } from '../domain/errors';
import type { McpAuditRecord, McpAuditSink } from '../domain/mcp-audit';
import { isTenantOwner } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { McpAuditEntry } from '../models';
import { offset, type Page, type ServiceOptions, tenantScoped } from './common';

export interface AuditWriter extends McpAuditSink {
  /** Writes what is buffered now. */
  flush(): Promise<void>;
  /** Flushes and stops the timer (app shutdown). */
  stop(): Promise<void>;
}

const COLUMNS = [
  'tenant_id',
  'token_id',
  'user_id',
  'method',
  'tool',
  'arguments',
  'pii_unlocked',
  'result_code',
  'error_reason',
  'duration_ms',
  'correlation_id',
  'request_id',
  'created_at',
];

/**
 * The audit log is written behind the answers: calls are buffered and inserted as one multi-row INSERT every
 * `flushMs` (default 200 ms) or every `maxBatch` rows, whichever comes first, so a call pays an array push and the
 * database sees one statement per batch instead of one per call. The price: rows of the last fraction of a second
 * are lost if the process dies without shutting down (a clean stop flushes). A batch the database refuses (one row
 * it will not take fails the whole statement: a value too long for its column in STRICT mode, a tenant deleted
 * meanwhile) is written again row by row, so a bad row loses only itself; what still fails is logged and dropped
 * (the audit never takes the endpoint down). A database that cannot be reached is not asked once per row.
 */
export function createAuditWriter(opts: { logger: Logger; flushMs?: number; maxBatch?: number }): AuditWriter {
  const flushMs = opts.flushMs ?? 200;
  const maxBatch = opts.maxBatch ?? 200;
  let buffer: McpAuditRecord[] = [];
  let timer: NodeJS.Timeout | null = null;
  let inFlight: Promise<void> = Promise.resolve();

  const insert = async (rows: McpAuditRecord[]): Promise<void> => {
    const sequelize = McpAuditEntry.sequelize;
    if (!sequelize || !rows.length) return;
    const values: unknown[] = [];
    for (const r of rows) {
      values.push(
        r.tenantId,
        r.tokenId,
        r.userId,
        r.method,
        r.tool,
        r.arguments === null ? null : JSON.stringify(r.arguments),
        r.piiUnlocked ? 1 : 0,
        r.resultCode,
        r.errorReason,
        r.durationMs,
        r.correlationId,
        r.requestId,
        r.createdAt,
      );
    }
    const row = `(${COLUMNS.map(() => '?').join(', ')})`;
    await sequelize.query(`INSERT INTO mcp_audit_log (${COLUMNS.join(', ')}) VALUES ${rows.map(() => row).join(', ')}`, {
      replacements: values,
      type: QueryTypes.INSERT,
      logging: false,
    });
  };

  /** Rows given up on: logged with the first one's call (never its arguments), and dropped. */
  const lost = (err: unknown, rows: McpAuditRecord[]): void => {
    const [r] = rows;
    opts.logger.error(
      { err: { message: (err as Error).message }, rows: rows.length, tenantId: r.tenantId, tokenId: r.tokenId, method: r.method, tool: r.tool, correlationId: r.correlationId },
      'MCP audit rows not written',
    );
  };

  const write = async (rows: McpAuditRecord[]): Promise<void> => {
    try {
      await insert(rows);
      return;
    } catch (err) {
      if (rows.length === 1 || err instanceof ConnectionError) return lost(err, rows);
      opts.logger.warn({ err: { message: (err as Error).message }, rows: rows.length }, 'MCP audit batch refused; writing its rows one by one');
    }
    for (const [i, row] of rows.entries()) {
      try {
        await insert([row]);
      } catch (err) {
        if (err instanceof ConnectionError) return lost(err, rows.slice(i));
        lost(err, [row]);
      }
    }
  };

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = null;
    const rows = buffer;
    buffer = [];
    // Batches are written one after another, so a flush waits for everything recorded before it.
    inFlight = inFlight.then(() =>
      write(rows).catch((err: unknown) => opts.logger.error({ err: { message: (err as Error).message }, rows: rows.length }, 'MCP audit rows not written')),
    );
    return inFlight;
  };

  return {
    record(entry) {
      buffer.push(entry);
      if (buffer.length >= maxBatch) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), flushMs);
        timer.unref();
      }
    },
    flush,
    stop: flush,
  };
}

export interface AuditFilter {
  page: number;
  perPage: number;
  tokenId?: number | null;
  tool?: string | null;
  correlationId?: string | null;
  /** Only calls that ended in an error (result code not 0). */
  failedOnly?: boolean | null;
}

/** The tenant's MCP calls, newest first: the agency (tenant owner) reads the log of every account. */
export async function listAuditLog(p: Principal, f: AuditFilter, _opts: ServiceOptions = {}): Promise<Page<McpAuditEntry>> {
  if (!isTenantOwner(p)) throw new Forbidden('Only the agency (tenant owner) can read the MCP audit log.', 'tenant_owner_required');
  const where: WhereOptions = tenantScoped(p);
  if (f.tokenId != null) Object.assign(where, { tokenId: f.tokenId });
  if (f.tool) Object.assign(where, { tool: f.tool });
  if (f.correlationId) Object.assign(where, { correlationId: f.correlationId });
  if (f.failedOnly) Object.assign(where, { resultCode: { [Op.ne]: 0 } });
  const { rows, count } = await McpAuditEntry.findAndCountAll({ where, order: [['id', 'DESC']], ...offset(f) });
  return { items: rows, total: count, page: f.page, perPage: f.perPage };
}
