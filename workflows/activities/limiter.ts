/** At most `n` tasks at once. */
export function limiter(n: number) {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    // A slot freed goes straight to the next in line, so a newcomer can never slip in between.
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** The share of `n` send slots one account may hold at once: all but a quarter (at least one slot) kept for the others. */
export function accountShare(n: number): number {
  return n > 1 ? n - Math.max(1, Math.floor(n / 4)) : 1;
}

/** Tasks of no account: bounded by the total only. */
const NO_ACCOUNT = Symbol('no account');
type Key = number | typeof NO_ACCOUNT;

interface Queued {
  start(): void;
  fail(reason: unknown): void;
}

/**
 * At most `n` tasks at once, and at most `perAccount` of one account: a task of an account is started only while its
 * account holds fewer slots, so the slots left over are always there for other accounts (one slow mail server cannot
 * take them all). A freed slot goes to the accounts with tasks waiting in turn (round robin), not to the oldest task:
 * an account with a long queue does not make another's one task wait behind all of it. Tasks given no account are
 * bounded by the total only, and take their turn as one more account. `close(reason)` fails every task that has not
 * started with `reason` (and any task run later); started ones finish.
 */
export function fairLimiter(n: number, perAccount: number = n) {
  let active = 0;
  let closed: { reason: unknown } | null = null;
  const running = new Map<Key, number>();
  /** Waiting tasks by account, in turn order (an account that was served goes to the back). */
  const queues = new Map<Key, Queued[]>();
  let watchers: Array<() => void> = [];
  const notify = () => {
    const w = watchers;
    watchers = [];
    for (const f of w) f();
  };
  const keyOf = (account: number | null | undefined): Key => (account === null || account === undefined ? NO_ACCOUNT : account);
  const capOf = (key: Key) => (key === NO_ACCOUNT ? n : perAccount);
  const runningOf = (key: Key) => running.get(key) ?? 0;

  function pump(): void {
    while (active < n) {
      let picked: Key | null = null;
      for (const key of queues.keys()) {
        if (runningOf(key) < capOf(key)) {
          picked = key;
          break;
        }
      }
      if (picked === null) return;
      const queue = queues.get(picked)!;
      const next = queue.shift()!;
      queues.delete(picked);
      if (queue.length > 0) queues.set(picked, queue);
      active++;
      running.set(picked, runningOf(picked) + 1);
      next.start();
    }
  }

  const run = <T>(task: () => Promise<T>, account?: number | null): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (closed) {
        reject(closed.reason);
        return;
      }
      const key = keyOf(account);
      const entry: Queued = {
        start: () => {
          const finish = () => {
            active--;
            const left = runningOf(key) - 1;
            if (left > 0) running.set(key, left);
            else running.delete(key);
            pump();
            notify();
          };
          let work: Promise<T>;
          try {
            work = task();
          } catch (e) {
            work = Promise.reject(e);
          }
          // The slot is free before the caller hears the answer (as `limiter`'s).
          work.then(
            (value) => {
              finish();
              resolve(value);
            },
            (reason: unknown) => {
              finish();
              reject(reason);
            },
          );
        },
        fail: reject,
      };
      const queue = queues.get(key);
      if (queue) queue.push(entry);
      else queues.set(key, [entry]);
      pump();
      notify();
    });

  return Object.assign(run, {
    /** Tasks started and not finished, of one account or (without one) of all. */
    running: (account?: number | null): number => (account === undefined ? active : runningOf(keyOf(account))),
    /** Tasks waiting for a slot, of one account or (without one) of all. */
    waiting: (account?: number | null): number => {
      if (account !== undefined) return queues.get(keyOf(account))?.length ?? 0;
      let total = 0;
      for (const q of queues.values()) total += q.length;
      return total;
    },
    /** The accounts with tasks waiting, and how many each. */
    backlog: (): Map<number, number> => new Map([...queues].filter((e): e is [number, Queued[]] => e[0] !== NO_ACCOUNT).map(([key, q]) => [key, q.length])),
    /** The account holds its whole share: its waiting tasks wait for one of its own to finish. */
    full: (account: number | null): boolean => account !== null && runningOf(account) >= perAccount,
    /** Settles at the next change: a task queued, started or finished, or the limiter closed. */
    changed: (): Promise<void> => new Promise<void>((resolve) => watchers.push(resolve)),
    close: (reason: unknown): void => {
      closed ??= { reason };
      const waiting = [...queues.values()].flat();
      queues.clear();
      for (const q of waiting) q.fail(reason);
      notify();
    },
  });
}

export type FairLimiter = ReturnType<typeof fairLimiter>;
