import { hasColumn, hasIndex } from '../schema-probe';
import type { Migration } from '../umzug';

/**
 * `scans.run_turn_at`: when the scan's current run got one of its tenant's turns (SCAN_MAX_RUNNING_PER_TENANT runs of
 * a tenant query the ranking provider at once; the others wait, running but NULL here, until a turn frees). Set by
 * the run's workflow (`claimScanRunTurn`), cleared with `is_running` when the run completes or fails and when a new
 * run is queued. The index serves the tenant's count of runs holding a turn and the look-up of its waiting runs
 * (docs/decisions/local-search-grid.md, "Local Search Grid: one tenant's scans and everyone else's work").
 *
 * Re-runnable both ways: each direction changes the table only when information_schema says it is still to do.
 */

export const up: Migration = async ({ context: sql }) => {
  if (!(await hasColumn(sql, 'scans', 'run_turn_at'))) await sql('ALTER TABLE scans ADD COLUMN run_turn_at DATETIME(3) NULL AFTER last_run_at');
  if (!(await hasIndex(sql, 'scans', 'scans_tenant_turns'))) await sql('ALTER TABLE scans ADD KEY scans_tenant_turns (tenant_id, is_running, run_turn_at)');
};

export const down: Migration = async ({ context: sql }) => {
  if (await hasIndex(sql, 'scans', 'scans_tenant_turns')) await sql('ALTER TABLE scans DROP KEY scans_tenant_turns');
  if (await hasColumn(sql, 'scans', 'run_turn_at')) await sql('ALTER TABLE scans DROP COLUMN run_turn_at');
};
