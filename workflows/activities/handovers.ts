import type { DeliveryLabel } from '../client';
import type { RetryGroup } from './outbox';

/** What the pump needs: the signal-with-start of a group to its receiver's retry run, and a clock. */
export interface HandoverDeps {
  startRetryGroup(group: RetryGroup, opts: { label: DeliveryLabel }): Promise<string>;
  now(): number;
}

interface Waiting {
  deliveryIds: string[];
  resolve(workflowId: string): void;
  reject(err: unknown): void;
}

interface Lane {
  /** Groups waiting for the next hand-over of this receiver and schedule. */
  waiting: Waiting[];
  label: DeliveryLabel;
  /** When the last hand-over went (epoch ms), and whether one is still on its way. */
  lastAt: number;
  busy: boolean;
  timer: NodeJS.Timeout | null;
}

/**
 * Hands retry groups to their receivers' retry runs, at most one signal-with-start per receiver and schedule every
 * `spacingMs`: groups that come meanwhile wait and go together, as one cohort (the same receiver, attempts so far and
 * wait: what `retryReceiverDeliveries` keeps per delivery anyway). A receiver that fails or hangs under a steady stream
 * would otherwise get one signal per dispatcher batch (dozens a second, each a workflow task of its run and events in
 * its history); the wait this adds (at most `spacingMs`) is before retries that are at least a second away. Each
 * caller learns the run's workflow id, or the error of the hand-over its deliveries went in.
 */
export function handoverPump(deps: HandoverDeps, spacingMs: number) {
  const lanes = new Map<string, Lane>();
  const keyOf = (g: RetryGroup) => `${g.endpointId}:${g.after.attempts}:${g.after.delayMs}:${g.awaitingFirstAttempts === true}`;

  function send(key: string, template: RetryGroup): void {
    const lane = lanes.get(key)!;
    lane.timer = null;
    const batch = lane.waiting.splice(0);
    if (batch.length === 0) return;
    lane.busy = true;
    lane.lastAt = deps.now();
    const group: RetryGroup = { ...template, deliveryIds: batch.flatMap((w) => w.deliveryIds) };
    // A synchronous throw of the hand-over answers its groups like a rejection (the lane must not stay busy).
    Promise.resolve()
      .then(() => deps.startRetryGroup(group, { label: lane.label }))
      .then(
      (workflowId) => batch.forEach((w) => w.resolve(workflowId)),
      (err: unknown) => batch.forEach((w) => w.reject(err)),
    ).finally(() => {
      lane.busy = false;
      if (lane.waiting.length) schedule(key, template);
    });
  }

  function schedule(key: string, template: RetryGroup): void {
    const lane = lanes.get(key)!;
    if (lane.busy || lane.timer) return;
    const wait = lane.lastAt + spacingMs - deps.now();
    if (wait <= 0) send(key, template);
    else lane.timer = setTimeout(() => send(key, template), wait);
  }

  /** Forgets lanes with nothing waiting or on its way whose spacing is over (a long-lived worker sees many receivers). */
  function prune(): void {
    const now = deps.now();
    for (const [key, lane] of lanes) if (!lane.busy && !lane.timer && lane.waiting.length === 0 && now - lane.lastAt >= spacingMs) lanes.delete(key);
  }

  return {
    /** Hands `group` over (with the others of its receiver and schedule due now); answers the run's workflow id. */
    handOver(group: RetryGroup, label: DeliveryLabel): Promise<string> {
      const key = keyOf(group);
      if (lanes.size > 1_000) prune();
      let lane = lanes.get(key);
      if (!lane) lanes.set(key, (lane = { waiting: [], label, lastAt: -Infinity, busy: false, timer: null }));
      lane.label = label; // the receiver's latest URL and owner for the run's summary
      const answer = new Promise<string>((resolve, reject) => lane.waiting.push({ deliveryIds: group.deliveryIds, resolve, reject }));
      schedule(key, group);
      return answer;
    },
  };
}
