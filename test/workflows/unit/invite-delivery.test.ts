import { randomUUID } from 'node:crypto';
import type { InviteActivities } from '../../../workflows/activities/invites';
import type { InviteRescheduleSignal } from '../../../workflows/invites/client';
import { cancelSignal, rescheduleSignal, type inviteDelivery } from '../../../workflows/invites/delivery.workflow';
import type { InvitePlan, StepInput, StepResult } from '../../../src/messaging/delivery';
import { waitUntil } from '../../support/wait';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * The legacy `inviteDelivery` (one workflow per invite, kept so runs from before the invite dispatcher finish) with
 * mocked activities: the stored invite's plan decides when and what is sent, the first step at once and each
 * follow-up at its offset, a provider unavailable through every retry recorded as a failed step, the signals (cancel,
 * reschedule, a new invite of the pair) and the outcomes. Its replay tests (test/workflows/invite-delivery.replay.test.ts)
 * cover the histories of real runs.
 */
jest.setTimeout(90_000);

type Mocked = Pick<InviteActivities, 'planInviteDelivery' | 'sendInviteStep' | 'failInviteStep'>;

const SENT: StepResult = { outcome: 'sent', reason: null, sendAt: null };

describe('inviteDelivery (mocked activities)', () => {
  const temporal = useWorkflowTestEnv();
  const iso = (ms: number) => new Date(ms).toISOString();

  /** Activities answering `plans` one after the other (the last one again) and each step with `step`. */
  function invite(plans: InvitePlan[], step: (input: StepInput, call: number) => Promise<StepResult> | StepResult = () => SENT) {
    const planned: Array<{ inviteId: number; at: number }> = [];
    const steps: Array<StepInput & { at: number }> = [];
    const failed: Array<StepInput & { reason: string }> = [];
    const activities: Mocked = {
      async planInviteDelivery(inviteId) {
        planned.push({ inviteId, at: Date.now() });
        return plans[Math.min(planned.length, plans.length) - 1];
      },
      async sendInviteStep(input) {
        steps.push({ ...input, at: Date.now() });
        return step(input, steps.length);
      },
      async failInviteStep(input) {
        failed.push(input);
        return { outcome: 'failed', reason: input.reason, sendAt: null };
      },
    };
    return { activities, planned, steps, failed };
  }

  /** Starts a run with its `reschedule` signal, as `scheduleInviteDelivery` did (signal-with-start). */
  const start = (taskQueue: string, signal: InviteRescheduleSignal) =>
    temporal.client().workflow.signalWithStart<typeof inviteDelivery, [InviteRescheduleSignal]>('inviteDelivery', {
      taskQueue,
      workflowId: workflowId('invite'),
      args: [{ campaignUuid: randomUUID(), contactUuid: randomUUID() }],
      signal: rescheduleSignal,
      signalArgs: [signal],
    });

  const send = (inviteId: number, offsets: number[]): InvitePlan => ({
    action: 'send',
    inviteId,
    sendAt: iso(Date.now()),
    steps: offsets.map((offsetMs, index) => ({ index: index * 2, channel: 'email', offsetMs })),
  });

  it('sends the first step at once and each follow-up at its offset from it, and answers sent with each step', async () => {
    const i = invite([send(7, [0, 500])]);
    const result = await temporal.withWorker(i.activities, async (taskQueue) => (await start(taskQueue, { inviteId: 7, sendAt: iso(Date.now() - 1_000) })).result());
    expect(result).toEqual({
      inviteId: 7,
      outcome: 'sent',
      steps: [
        { index: 0, outcome: 'sent', reason: null },
        { index: 2, outcome: 'sent', reason: null },
      ],
    });
    expect(i.planned.map((p) => p.inviteId)).toEqual([7]);
    expect(i.steps.map(({ at: _at, ...s }) => s)).toEqual([
      { inviteId: 7, stepIndex: 0, first: true },
      { inviteId: 7, stepIndex: 2, first: false },
    ]);
    // The follow-up's timer starts once the plan is in: never earlier than its offset after the plan answered.
    expect(i.steps[1].at - i.planned[0].at).toBeGreaterThanOrEqual(500);
  });

  it('waits as the stored invite says (a later send time in the plan, a step not due yet), then asks again', async () => {
    const waitUntilMs = Date.now() + 1_000;
    const i = invite([{ action: 'wait', inviteId: 8, sendAt: iso(waitUntilMs) }, send(8, [0])], (_input, call) =>
      call === 1 ? { outcome: 'not_due', reason: null, sendAt: iso(Date.now() + 500) } : SENT,
    );
    const result = await temporal.withWorker(i.activities, async (taskQueue) => (await start(taskQueue, { inviteId: 8, sendAt: iso(Date.now()) })).result());
    expect(result).toEqual({
      inviteId: 8,
      outcome: 'sent',
      steps: [
        { index: 0, outcome: 'not_due', reason: null },
        { index: 0, outcome: 'sent', reason: null },
      ],
    });
    expect(i.planned).toHaveLength(3);
    expect(i.planned[1].at).toBeGreaterThanOrEqual(waitUntilMs);
    expect(i.planned[2].at - i.steps[0].at).toBeGreaterThanOrEqual(500);
  });

  it('records a step failed with the last error once its provider stayed unavailable through every retry', async () => {
    const i = invite([send(9, [0, 100])], (input) => {
      throw retryFailure(`SMTP 421 on step ${input.stepIndex}`);
    });
    const result = await temporal.withWorker(i.activities, async (taskQueue) => (await start(taskQueue, { inviteId: 9, sendAt: iso(Date.now()) })).result());
    // The policy's 12 attempts, then the record; a failed first step ends the invite.
    expect(i.steps).toHaveLength(12);
    expect(i.failed).toEqual([{ inviteId: 9, stepIndex: 0, first: true, reason: 'SMTP 421 on step 0' }]);
    expect(result).toEqual({ inviteId: 9, outcome: 'failed', steps: [{ index: 0, outcome: 'failed', reason: 'SMTP 421 on step 0' }] });
  });

  it('stops the follow-ups once one is stopped (the contact clicked), and ends as the first step says when that one is stopped', async () => {
    const clicked = invite([send(10, [0, 100, 200])], (input) => (input.stepIndex === 2 ? { outcome: 'stopped', reason: 'clicked', sendAt: null } : SENT));
    const first = (reason: string) => invite([send(11, [0, 100])], () => ({ outcome: 'stopped', reason, sendAt: null }));
    const paused = first('paused');
    const unsubscribed = first('unsubscribed');
    const removed = first('step_removed');
    const runs = [clicked, paused, unsubscribed, removed];
    const results = await Promise.all(
      runs.map((r) => temporal.withWorker(r.activities, async (taskQueue) => (await start(taskQueue, { inviteId: r === clicked ? 10 : 11, sendAt: iso(Date.now()) })).result())),
    );
    expect(results.map((r) => r.outcome)).toEqual(['sent', 'held', 'canceled', 'skipped']);
    expect(clicked.steps.map((s) => s.stepIndex)).toEqual([0, 2]);
    expect(results[0].steps).toEqual([
      { index: 0, outcome: 'sent', reason: null },
      { index: 2, outcome: 'stopped', reason: 'clicked' },
    ]);
    expect([paused, unsubscribed, removed].map((r) => r.steps.length)).toEqual([1, 1, 1]);
  });

  it('answers what the plan found when nothing is to be sent', async () => {
    const done = (outcome: Extract<InvitePlan, { action: 'done' }>['outcome']) => invite([{ action: 'done', inviteId: 12, outcome, detail: null }]);
    const runs = [done('held'), done('canceled'), done('failed'), done('missing'), done('not_scheduled')];
    const results = await Promise.all(runs.map((r) => temporal.withWorker(r.activities, async (taskQueue) => (await start(taskQueue, { inviteId: 12, sendAt: iso(Date.now()) })).result())));
    expect(results.map((r) => r.outcome)).toEqual(['held', 'canceled', 'failed', 'skipped', 'skipped']);
    expect(runs.every((r) => r.steps.length === 0)).toBe(true);
  });

  it('a cancel before the send time ends the run without asking for the plan', async () => {
    const i = invite([send(13, [0])]);
    const result = await temporal.withWorker(i.activities, async (taskQueue) => {
      const handle = await start(taskQueue, { inviteId: 13, sendAt: iso(Date.now() + 3_600_000) });
      await waitUntil(async () => ((await handle.fetchHistory()).events ?? []).some((e) => e.timerStartedEventAttributes), 20_000, 50);
      await handle.signal(cancelSignal, { inviteId: 13 });
      return handle.result();
    });
    expect(result).toEqual({ inviteId: 13, outcome: 'canceled', steps: [] });
    expect(i.planned).toEqual([]);
  });

  it('a reschedule of the invite moves its send time; a new invite of the pair supersedes it and is delivered by a fresh run', async () => {
    const moved = invite([send(14, [0])]);
    const movedResult = await temporal.withWorker(moved.activities, async (taskQueue) => {
      const handle = await start(taskQueue, { inviteId: 14, sendAt: iso(Date.now() + 3_600_000) });
      await waitUntil(async () => ((await handle.fetchHistory()).events ?? []).some((e) => e.timerStartedEventAttributes), 20_000, 50);
      await handle.signal(rescheduleSignal, { inviteId: 14, sendAt: iso(Date.now()) });
      return handle.result();
    });
    expect(movedResult).toMatchObject({ inviteId: 14, outcome: 'sent' });
    expect(moved.planned.map((p) => p.inviteId)).toEqual([14]);

    const superseded = invite([send(16, [0])]);
    const { result, firstRun } = await temporal.withWorker(superseded.activities, async (taskQueue) => {
      const handle = await start(taskQueue, { inviteId: 15, sendAt: iso(Date.now() + 3_600_000) });
      await waitUntil(async () => ((await handle.fetchHistory()).events ?? []).some((e) => e.timerStartedEventAttributes), 20_000, 50);
      await handle.signal(rescheduleSignal, { inviteId: 16, sendAt: iso(Date.now()) });
      const result = await handle.result();
      return { result, firstRun: await temporal.client().workflow.getHandle(handle.workflowId, handle.signaledRunId).describe() };
    });
    // The first run ended (invite 15 never planned) and handed invite 16 to a fresh run of the same id.
    expect(firstRun.status.name).toBe('CONTINUED_AS_NEW');
    expect(superseded.planned.map((p) => p.inviteId)).toEqual([16]);
    expect(result).toMatchObject({ inviteId: 16, outcome: 'sent' });
  });
});
