import type { Client } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';

const DAY_SECONDS = 86_400;
/** gRPC status codes (the SDK surfaces them as `code`). */
const NOT_FOUND = 5;
const ALREADY_EXISTS = 6;

/**
 * Makes sure the namespace exists on a Temporal cluster (a fresh `temporalio/server` has none but the system one;
 * the dev server creates its own). Idempotent; retries while the frontend is up but not yet serving, as a freshly
 * started server answers "unavailable" for a few seconds. Retention: how long closed workflow histories are kept.
 */
export async function ensureNamespace(client: Client, namespace: string, opts: { retentionDays?: number; waitMs?: number } = {}): Promise<'created' | 'exists'> {
  const deadline = Date.now() + (opts.waitMs ?? 60_000);
  for (;;) {
    try {
      await client.workflowService.describeNamespace({ namespace });
      return 'exists';
    } catch (e) {
      const code = (e as { code?: number }).code;
      if (code !== NOT_FOUND) {
        if (Date.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 1_000));
        continue;
      }
    }
    try {
      await client.workflowService.registerNamespace({
        namespace,
        workflowExecutionRetentionPeriod: msToTs((opts.retentionDays ?? 7) * DAY_SECONDS * 1000),
        description: 'Reviewgrid workflows',
      });
      return 'created';
    } catch (e) {
      if ((e as { code?: number }).code === ALREADY_EXISTS) return 'exists';
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}
