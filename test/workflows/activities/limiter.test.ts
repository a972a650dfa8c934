import { accountShare, fairLimiter } from '../../../workflows/activities/limiter';

/**
 * The invite dispatcher's send slots (`fairLimiter`): at most `n` at once, one account at most its share, a freed
 * slot to the accounts in turn, tasks not started refused once closed. No I/O: tasks are promises settled by the test.
 */
describe('fairLimiter', () => {
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  function gate() {
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    return { opened, open };
  }

  it("keeps a quarter of the slots (at least one) from any one account's share", () => {
    expect([1, 2, 3, 4, 8, 32].map(accountShare)).toEqual([1, 1, 2, 3, 6, 24]);
  });

  it("starts another account's task at once while one account's tasks hold its whole share, and queues the rest", async () => {
    const slots = fairLimiter(4, 3);
    const started: string[] = [];
    const a = gate();
    const tasks = Array.from({ length: 10 }, (_, i) =>
      slots(async () => {
        started.push(`a${i}`);
        await a.opened;
      }, 1),
    );
    await turn();
    expect(started).toEqual(['a0', 'a1', 'a2']);
    expect([slots.running(1), slots.waiting(1), slots.full(1)]).toEqual([3, 7, true]);
    expect(slots.backlog()).toEqual(new Map([[1, 7]]));
    await slots(async () => void started.push('b'), 2);
    expect(started).toEqual(['a0', 'a1', 'a2', 'b']);
    a.open();
    await Promise.all(tasks);
    expect(started).toHaveLength(11);
  });

  it('gives a freed slot to the accounts waiting in turn, not to the oldest task', async () => {
    const slots = fairLimiter(1);
    const order: string[] = [];
    const first = gate();
    const running = slots(() => first.opened, 9);
    const queued = [
      ...[0, 1, 2].map((i) => slots(async () => void order.push(`a${i}`), 1)),
      ...[0, 1].map((i) => slots(async () => void order.push(`b${i}`), 2)),
      slots(async () => void order.push('c0'), 3),
    ];
    first.open();
    await Promise.all([running, ...queued]);
    expect(order).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2']);
  });

  it('bounds tasks of no account by the total only, as one more account in turn', async () => {
    const slots = fairLimiter(3, 1);
    const hold = gate();
    const tasks = [0, 1, 2, 3].map(() => slots(() => hold.opened));
    await turn();
    expect([slots.running(), slots.waiting()]).toEqual([3, 1]);
    expect(slots.full(null)).toBe(false);
    hold.open();
    await Promise.all(tasks);
  });

  it('refuses the tasks that have not started once closed (and later ones), and lets the started ones finish', async () => {
    const slots = fairLimiter(2);
    const hold = gate();
    const started = [slots(() => hold.opened.then(() => 'done'), 1), slots(() => hold.opened.then(() => 'done'), 2)];
    const waiting = slots(async () => 'never', 1);
    const changed = slots.changed();
    const reason = new Error('closed');
    slots.close(reason);
    await changed;
    await expect(waiting).rejects.toBe(reason);
    await expect(slots(async () => 'later', 3)).rejects.toBe(reason);
    hold.open();
    expect(await Promise.all(started)).toEqual(['done', 'done']);
    expect([slots.running(), slots.waiting()]).toEqual([0, 0]);
  });

  it('frees the slot of a task that throws, even at once', async () => {
    const slots = fairLimiter(1);
    await expect(
      slots(() => {
        throw new Error('boom');
      }, 1),
    ).rejects.toThrow('boom');
    expect(await slots(async () => 'next', 1)).toBe('next');
  });
});
