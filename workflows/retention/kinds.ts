/**
 * The log tables data retention purges, one age setting each (src/config.ts `RETENTION_*_DAYS`). Plain data with no
 * imports: the purge workflow iterates it and the service maps each kind to its table and rule.
 */
export const RETENTION_KINDS = ['outbox', 'webhookDeliveries', 'mcpAudit', 'inboundSubmissions'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

/** What one purge activity did for one kind. */
export interface RetentionPurgeResult {
  kind: RetentionKind;
  /** Rows older than this went; null: the kind is kept forever (its setting is 0). */
  cutoff: string | null;
  deleted: number;
  batches: number;
  /** True when the activity stopped at its batch cap with rows left: the workflow calls it again. */
  more: boolean;
}
