/** How many POSTs one receiver gets at once from a worker process, and how long an attempt waits for one. */
export interface ReceiverGateSettings {
  /** POSTs to one receiver in flight at once (the others wait for a slot). */
  maxInFlight: number;
  /**
   * How long an attempt waits for a slot; also, a receiver whose slots are all held by POSTs older than this is not
   * answering, and an attempt to it is not sent without waiting.
   */
  staleMs: number;
}

/** Ends one POST's hold on its receiver's slot. */
export type ReleaseSlot = () => void;

/**
 * The receivers' slots of one worker process, shared by every attempt it makes (first attempts in bulk, retry rounds,
 * redeliveries). A receiver gets `maxInFlight` POSTs at once; more wait for a slot, in order, at most `staleMs`. A
 * receiver that hangs would otherwise hold a socket and a pending attempt for every delivery it is sent (thousands at
 * 30 s each under a steady stream), and the worker's memory and CPU with them. An attempt that gets no slot (`enter`
 * answers null: every slot held longer than `staleMs`, or none freed within it) is not sent, and is retried on the
 * schedule like a timeout; so no attempt, and no retry round, waits here longer than `staleMs`.
 */
export function receiverGate(settings: ReceiverGateSettings, now: () => number = Date.now) {
  interface Hold {
    since: number;
  }
  interface Lane {
    holding: Set<Hold>;
    /** Attempts waiting, first come first served: each is handed a slot, or gives up after `staleMs`. */
    waiting: Set<(release: ReleaseSlot) => void>;
  }
  const lanes = new Map<string, Lane>();

  function take(key: string, lane: Lane): ReleaseSlot {
    const hold: Hold = { since: now() };
    lane.holding.add(hold);
    return () => {
      if (!lane.holding.delete(hold)) return;
      // The slot goes straight to the first waiting attempt, so a newcomer cannot take it from under it.
      const [next] = lane.waiting;
      if (next) {
        lane.waiting.delete(next);
        next(take(key, lane));
      } else if (lane.holding.size === 0 && lanes.get(key) === lane) {
        lanes.delete(key);
      }
    };
  }

  return {
    /** One of the receiver's slots (`key`: its URL), or null when it gets none (see above). */
    enter(key: string): Promise<ReleaseSlot | null> {
      let lane = lanes.get(key);
      if (!lane) lanes.set(key, (lane = { holding: new Set(), waiting: new Set() }));
      if (lane.holding.size < settings.maxInFlight) return Promise.resolve(take(key, lane));
      let oldest = Infinity;
      for (const h of lane.holding) oldest = Math.min(oldest, h.since);
      if (now() - oldest >= settings.staleMs) return Promise.resolve(null);
      const waiting = lane.waiting;
      return new Promise((resolve) => {
        const handed = (release: ReleaseSlot) => {
          clearTimeout(timer);
          resolve(release);
        };
        const timer = setTimeout(() => {
          waiting.delete(handed);
          resolve(null);
        }, settings.staleMs);
        waiting.add(handed);
      });
    },
    /** POSTs in flight to the receiver (for tests and metrics). */
    inFlight(key: string): number {
      return lanes.get(key)?.holding.size ?? 0;
    },
  };
}

export type ReceiverGate = ReturnType<typeof receiverGate>;
