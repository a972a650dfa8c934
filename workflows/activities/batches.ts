/** How a dispatcher's activity keeps working: for how long, and how it waits for more. */
export interface BatchLoopSettings {
  /** One activity runs batch after batch for at most this long, */
  budgetMs: number;
  /** and returns once its batches found nothing this long, looking every `pollMs`. */
  lingerMs: number;
  pollMs: number;
}

export interface BatchLoopDeps {
  /** Tells Temporal the activity is alive (every second). */
  heartbeat(): void;
  /** The activity was asked to stop (its worker is shutting down). */
  stopping(): boolean;
  now(): number;
  /** Waits for work the batches left going (a pipelined batch's tail) before the activity ends, still beating. */
  settle?(): Promise<void>;
  /**
   * Work the batches left is still waiting to start (the invites' send slots): the activity does not end for finding
   * nothing meanwhile, it keeps looking (other work may be due that need not wait for it), until its budget.
   */
  busy?(): boolean;
  /**
   * Resolves once work the last batch held back may be claimed (the invites: an account left out for its send backlog
   * has room again), ending the poll's wait early; undefined: nothing was held back.
   */
  wake?(): Promise<void> | undefined;
}

/**
 * The work of a dispatcher's activity (the outbox's and the invites'): `batch` after batch while there is work, and a
 * little after, polling, so neither a burst nor a steady stream waits for the workflow's round trip between batches.
 * Returns how much was handled; out of time with work left it answers at least `limit`, so the workflow starts the
 * next activity at once. A worker shutting down ends it after the batch in hand: the shutdown does not wait out the
 * budget, and the next round starts at once elsewhere.
 */
export async function runBatches(limit: number, settings: BatchLoopSettings, deps: BatchLoopDeps, batch: () => Promise<number>): Promise<number> {
  const beat = setInterval(() => deps.heartbeat(), 1_000);
  try {
    const started = deps.now();
    let handled = 0;
    let idleSince: number | null = null;
    for (;;) {
      if (deps.stopping()) return handled;
      const n = await batch();
      handled += n;
      if (n > 0) idleSince = null;
      else idleSince ??= deps.now();
      if (idleSince !== null && deps.now() - idleSince >= settings.lingerMs && !deps.busy?.()) return handled;
      if (deps.now() - started >= settings.budgetMs) return n > 0 ? Math.max(handled, limit) : handled;
      if (n === 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([new Promise((r) => (timer = setTimeout(r, settings.pollMs))), deps.wake?.()].filter(Boolean));
        clearTimeout(timer);
      }
    }
  } finally {
    try {
      await deps.settle?.();
    } finally {
      clearInterval(beat);
    }
  }
}
