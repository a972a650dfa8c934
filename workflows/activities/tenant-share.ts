/**
 * The retry worker's slots one tenant's rounds may hold at once in a worker process (`WEBHOOK_RETRY_TENANT_SLOTS`), and
 * how long a round over that share waits, in Temporal and not in a slot, before it is tried again.
 */
export interface TenantShareSettings {
  slots: number;
  deferMs: number;
}

/** Ends one round's place in its tenant's share. */
export type LeaveShare = () => void;

/**
 * One tenant's share of the webhook retry worker: its receivers' retry rounds running at once in this process. A round
 * over the share POSTs nothing and leaves its slot at once (`attemptWebhookDeliveryRound` fails it with a short
 * `nextRetryDelay`, so Temporal offers it again after the rounds queued meanwhile, other tenants' among them); no
 * attempt is used up. Without it, a tenant whose receivers hang could hold every slot, and other tenants' retries waited
 * in the queue for one (one per round of each receiver's run of each window).
 */
export function tenantShare(settings: TenantShareSettings, random: () => number = Math.random) {
  const running = new Map<number, number>();
  return {
    /** A place for one round of the tenant, or null when its rounds hold the whole share already. */
    enter(tenantId: number): LeaveShare | null {
      const n = running.get(tenantId) ?? 0;
      if (n >= settings.slots) return null;
      running.set(tenantId, n + 1);
      let left = false;
      return () => {
        if (left) return;
        left = true;
        const now = (running.get(tenantId) ?? 1) - 1;
        if (now > 0) running.set(tenantId, now);
        else running.delete(tenantId);
      };
    },
    /** The wait before a round over the share is offered again: `deferMs` and up to half of it more (spread out). */
    deferMs: (): number => Math.round(settings.deferMs * (1 + random() / 2)),
    /** Rounds of the tenant running now (tests, metrics). */
    running: (tenantId: number): number => running.get(tenantId) ?? 0,
  };
}

export type TenantShare = ReturnType<typeof tenantShare>;
