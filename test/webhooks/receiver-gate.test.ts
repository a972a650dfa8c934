import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { receiverGate } from '../../workflows/activities/receiver-gate';
import { createDeliveryAttempt, type AttemptRecord, type WebhookActivityDeps } from '../../workflows/activities/webhooks';
import { waitUntil } from '../support/wait';

/**
 * The worker's slots per receiver (docs/decisions/webhooks.md, "A receiver that does not answer"): at most
 * `maxInFlight` POSTs open to one receiver; more wait for a slot; once every slot has been held longer than `staleMs`,
 * attempts to that receiver are not sent. Time is a test clock; waits are real timers of a few milliseconds.
 */
describe('receiverGate', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('lets maxInFlight POSTs through per receiver, others receivers untouched', async () => {
    const gate = receiverGate({ maxInFlight: 2, staleMs: 5_000 }, now);
    const a = await gate.enter('https://a.example/hook');
    const b = await gate.enter('https://a.example/hook');
    const other = await gate.enter('https://b.example/hook');
    expect([a, b, other].every((r) => typeof r === 'function')).toBe(true);
    expect(gate.inFlight('https://a.example/hook')).toBe(2);
    expect(gate.inFlight('https://b.example/hook')).toBe(1);
  });

  it('gives a waiting attempt the slot a finished one releases', async () => {
    const gate = receiverGate({ maxInFlight: 1, staleMs: 5_000 }, now);
    const first = (await gate.enter('r'))!;
    let second: (() => void) | null | undefined;
    const waiting = gate.enter('r').then((r) => (second = r));
    await new Promise((r) => setImmediate(r));
    expect(second).toBeUndefined();
    first();
    await waiting;
    expect(typeof second).toBe('function');
    expect(gate.inFlight('r')).toBe(1);
    second!();
    // A release called twice frees nothing more.
    second!();
    expect(gate.inFlight('r')).toBe(0);
  });

  it('sends nothing to a receiver whose every slot has been held longer than staleMs', async () => {
    const gate = receiverGate({ maxInFlight: 2, staleMs: 5_000 }, now);
    await gate.enter('hang');
    clock += 1_000;
    await gate.enter('hang');
    clock += 4_000; // the oldest has waited 5 s, the newest 4 s
    expect(await gate.enter('hang')).toBeNull();
    expect(await gate.enter('fine')).not.toBeNull();
  });

  it('hands a released slot to the attempt that waited for it, not to a newcomer', async () => {
    const gate = receiverGate({ maxInFlight: 1, staleMs: 5_000 }, now);
    const first = (await gate.enter('r'))!;
    const waiting = gate.enter('r');
    first();
    // A newcomer in the same tick finds the slot taken by the waiter.
    let newcomer: (() => void) | null | undefined;
    const late = gate.enter('r').then((r) => (newcomer = r));
    const handed = await waiting;
    expect(typeof handed).toBe('function');
    expect(newcomer).toBeUndefined();
    expect(gate.inFlight('r')).toBe(1);
    handed!();
    expect(typeof (await late)).toBe('function');
  });

  it('lets an attempt wait at most staleMs for a slot, even while the holders are young', async () => {
    const gate = receiverGate({ maxInFlight: 1, staleMs: 30 }, () => Date.now());
    const holder = (await gate.enter('busy'))!;
    const started = Date.now();
    expect(await gate.enter('busy')).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    holder();
    expect(gate.inFlight('busy')).toBe(0);
  });

  it('answers null to an attempt that waited until the slots went stale', async () => {
    const gate = receiverGate({ maxInFlight: 1, staleMs: 30 }, () => Date.now());
    await gate.enter('hang');
    const started = Date.now();
    expect(await gate.enter('hang')).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });
});

describe('an attempt to a receiver that does not answer (createDeliveryAttempt with a gate)', () => {
  it('is logged as not sent and retried on the schedule, without a request, once the receiver holds every slot', async () => {
    const held: http.ServerResponse[] = [];
    const server = http.createServer((_req, res) => void held.push(res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const records: AttemptRecord[] = [];
    const attempt = createDeliveryAttempt({
      ...({} as WebhookActivityDeps),
      record: async (_id, r) => void records.push(r),
      checkUrl: async () => undefined,
      sign: () => ({ 'webhook-id': 'x' }),
      post: (to, init) => fetch(to, { method: 'POST', ...init }),
      refused: () => null,
      timeoutMs: 2_000,
      userAgent: 'test',
      now: () => new Date(),
      gate: receiverGate({ maxInFlight: 1, staleMs: 50 }),
    });
    try {
      const first = attempt({ id: 'd1', body: '{}', url, secrets: [] }, 1);
      await waitUntil(async () => held.length === 1);
      const second = await attempt({ id: 'd2', body: '{}', url, secrets: [] }, 1);
      expect(second).toEqual({ kind: 'retry', message: expect.stringMatching(/^Not sent/), delayMs: null });
      expect(held).toHaveLength(1); // no second request reached the receiver
      expect(records).toEqual([expect.objectContaining({ statusCode: null, requestHeaders: null, succeeded: false, error: expect.stringMatching(/^Not sent/) })]);
      held[0].writeHead(204).end();
      expect(await first).toEqual({ kind: 'succeeded' });
    } finally {
      for (const res of held) res.destroy();
      server.close();
    }
  });
});
