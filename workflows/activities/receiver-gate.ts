/** How many POSTs one receiver gets at once from a worker process, and when it counts as not answering. */
export interface ReceiverGateSettings {
  /** POSTs to one receiver in flight at once (the others wait for a slot). */
  maxInFlight: number;
  /** A receiver whose slots are all held by POSTs older than this is not answering: attempts are not sent. */
  staleMs: number;
}

/** Ends one POST's hold on its receiver's slot. */
export type ReleaseSlot = () => void;

/**
 * The receivers' slots of one worker process, shared by every attempt it makes (first attempts in bulk, retry rounds,
 * redeliveries). A receiver gets `maxInFlight` POSTs at once; more wait for a slot. A receiver that hangs would
 * otherwise hold a socket and a pending attempt for every delivery it is sent (thousands at 30 s each under a steady
 * stream), and the worker's memory and CPU with them: once all its slots have been held longer than `staleMs`, an
 * attempt to it is not sent at all (`enter` answers null) and is retried on the schedule like a timeout.
 */
export function receiverGate(settings: ReceiverGateSettings, now: () => number = Date.now) {
  interface Lane {
    /** Start times of the POSTs in flight. */
    holding: Set<{ since: number }>;
    waiting: Set<() => void>;
  }
  const lanes = new Map<string, Lane>();

  function release(key: string, lane: Lane, hold: { since: number }): void {
    if (!lane.holding.delete(hold)) return;
    const [next] = lane.waiting;
    if (next) next();
    else if (lane.holding.size === 0) lanes.delete(key);
  }

  return {
    /**
     * Waits for one of the receiver's slots (`key`: its URL); null when every slot has been held longer than
     * `staleMs`, now or while waiting.
     */
    async enter(key: string): Promise<ReleaseSlot | null> {
      let lane = lanes.get(key);
      if (!lane) lanes.set(key, (lane = { holding: new Set(), waiting: new Set() }));
      for (;;) {
        if (lane.holding.size < settings.maxInFlight) {
          const hold = { since: now() };
          lane.holding.add(hold);
          const held = lane;
          return () => release(key, held, hold);
        }
        let oldest = Infinity;
        for (const h of lane.holding) oldest = Math.min(oldest, h.since);
        const staleIn = oldest + settings.staleMs - now();
        if (staleIn <= 0) return null;
        const waiting = lane.waiting;
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiting.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, staleIn);
          waiting.add(wake);
        });
      }
    },
    /** POSTs in flight to the receiver (for tests and metrics). */
    inFlight(key: string): number {
      return lanes.get(key)?.holding.size ?? 0;
    },
  };
}

export type ReceiverGate = ReturnType<typeof receiverGate>;
