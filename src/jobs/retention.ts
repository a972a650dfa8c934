import { QueryTypes } from 'sequelize';
import type { Config } from '../config';
import { OutboxEvent } from '../models';
import { type RetentionKind, type RetentionPurgeResult } from '../../workflows/retention/kinds';

/**
 * Data retention: rows of the pure log tables older than their kind's age setting are deleted, in bounded batches
 * (select up to `batchSize` keys without locking, then delete exactly those rows by primary key with the rule checked
 * again), so a purge never holds more than one batch of row locks and never blocks the writers of a table for long.
 *
 * What counts as old, per kind (business data - reviews, contacts and their activity timeline, invites and their
 * messages, credits, scans, auto-respond runs - is never purged; docs/decisions/operations.md, "Data retention"):
 * - `outbox`: events dispatched before the cutoff. An undispatched event is never touched.
 * - `webhookDeliveries`: finished deliveries (`succeeded`, or `failed` for good) whose last change is before the
 *   cutoff, with their attempts (FK cascade). A `pending` one may still have a retry workflow running and stays; so
 *   does one whose outbox event is still undispatched (the dispatcher would claim it again and send a duplicate).
 * - `mcpAudit`: MCP audit entries written before the cutoff.
 * - `inboundSubmissions`: inbound webhook submissions received before the cutoff, unless their send time is later.
 *
 * The cutoff is `now - days`; `now` is always passed in (the purge workflow's Temporal time, or a test's clock).
 */

export type RetentionDays = Record<RetentionKind, number>;

export interface PurgeOptions {
  /** The time the ages are measured from. */
  now: Date;
  /** Age in whole days; 0 keeps the kind forever. */
  days: number;
  /** Rows per DELETE statement (default 1,000). */
  batchSize?: number;
  /** Stop after this many batches and report `more` (the workflow calls again); default: until done. */
  maxBatches?: number;
  /** Called after every batch (the activity heartbeats). */
  onBatch?: (deletedSoFar: number) => void;
}

export const DEFAULT_RETENTION_BATCH_SIZE = 1_000;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Rule {
  table: string;
  key: string;
  /** Rows to purge (`:cutoff` is bound); may be costlier than `recheck`, it runs without locks. */
  candidates: string;
  /** Checked again in the DELETE, so a row that changed since it was selected (a redelivery) stays. */
  recheck: string;
}

const FINISHED = "status IN ('succeeded', 'failed') AND updated_at < :cutoff";

const RULES: Record<RetentionKind, Rule> = {
  outbox: {
    table: 'outbox_events',
    key: 'id',
    candidates: 'dispatched_at IS NOT NULL AND dispatched_at < :cutoff',
    recheck: 'dispatched_at IS NOT NULL AND dispatched_at < :cutoff',
  },
  webhookDeliveries: {
    table: 'webhook_deliveries',
    key: 'id',
    candidates: `${FINISHED} AND NOT EXISTS (SELECT 1 FROM outbox_events o WHERE o.id = webhook_deliveries.outbox_event_id AND o.dispatched_at IS NULL)`,
    // An event never goes back to undispatched, so the outbox half needs no second look (and takes no locks there).
    recheck: FINISHED,
  },
  mcpAudit: {
    table: 'mcp_audit_log',
    key: 'id',
    candidates: 'created_at < :cutoff',
    recheck: 'created_at < :cutoff',
  },
  inboundSubmissions: {
    table: 'inbound_submissions',
    key: 'id',
    candidates: 'received_at < :cutoff AND (send_at IS NULL OR send_at < :cutoff)',
    recheck: 'received_at < :cutoff AND (send_at IS NULL OR send_at < :cutoff)',
  },
};

/** The age settings of every kind, from the configuration. */
export function retentionDays(
  config: Pick<Config, 'RETENTION_OUTBOX_DAYS' | 'RETENTION_WEBHOOK_DELIVERIES_DAYS' | 'RETENTION_MCP_AUDIT_DAYS' | 'RETENTION_INBOUND_SUBMISSIONS_DAYS'>,
): RetentionDays {
  return {
    outbox: config.RETENTION_OUTBOX_DAYS,
    webhookDeliveries: config.RETENTION_WEBHOOK_DELIVERIES_DAYS,
    mcpAudit: config.RETENTION_MCP_AUDIT_DAYS,
    inboundSubmissions: config.RETENTION_INBOUND_SUBMISSIONS_DAYS,
  };
}

/** Rows older than this go; null: keep forever. */
export function retentionCutoff(now: Date, days: number): Date | null {
  return days > 0 ? new Date(now.getTime() - days * DAY_MS) : null;
}

/** Purges one kind in batches of `batchSize` until nothing old is left (or `maxBatches` is reached). */
export async function purgeExpired(kind: RetentionKind, opts: PurgeOptions): Promise<RetentionPurgeResult> {
  const cutoff = retentionCutoff(opts.now, opts.days);
  if (!cutoff) return { kind, cutoff: null, deleted: 0, batches: 0, more: false };
  const rule = RULES[kind];
  const batchSize = Math.max(1, Math.trunc(opts.batchSize ?? DEFAULT_RETENTION_BATCH_SIZE));
  const maxBatches = opts.maxBatches ?? Number.POSITIVE_INFINITY;
  const sequelize = OutboxEvent.sequelize!;
  let deleted = 0;
  let batches = 0;
  let more = false;
  while (batches < maxBatches) {
    const rows = await sequelize.query<{ id: string | number }>(
      `SELECT ${rule.key} AS id FROM ${rule.table} WHERE ${rule.candidates} LIMIT ${batchSize}`,
      { replacements: { cutoff }, type: QueryTypes.SELECT },
    );
    if (rows.length === 0) {
      more = false;
      break;
    }
    const gone = await sequelize.query(`DELETE FROM ${rule.table} WHERE ${rule.key} IN (:ids) AND ${rule.recheck}`, {
      replacements: { ids: rows.map((r) => r.id), cutoff },
      type: QueryTypes.BULKDELETE,
    });
    deleted += Number(gone);
    batches += 1;
    opts.onBatch?.(deleted);
    // A short batch was the last one; a full one may have company.
    more = rows.length === batchSize;
    if (!more) break;
  }
  return { kind, cutoff: cutoff.toISOString(), deleted, batches, more };
}

