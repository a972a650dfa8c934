import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import {
  connectTemporal,
  disconnectTemporal,
  dispatcherWorkflowId,
  ensureDispatcher,
  ensureInviteDispatcher,
  inviteDispatcherWorkflowId,
} from '../../../workflows/client';
import { DISPATCH_HISTORY_EVENTS, nudgeSignal } from '../../../workflows/dispatch-rounds';
import { HISTORIES_DIR } from '../../support/temporal';
import { testServerSettings } from '../../support/temporal-server';
import { waitUntil } from '../../support/wait';
import { testWorkflowOptions } from '../../support/workflow-bundle';
import { useWorkflowTestEnv } from './support';

/**
 * OUTBOX_POLL_MS and INVITE_POLL_MS reach the long-running dispatchers through `ensureDispatcher` /
 * `ensureInviteDispatcher`, which every process calls at boot: a process started with a changed value must change the
 * running dispatcher's poll (before, its first start's input stayed for good: a start of a running one was a no-op),
 * and the dispatcher must keep it when it continues as new. On the real dev server, with a mocked activity.
 */
jest.setTimeout(120_000);

const KINDS = [
  { name: 'outbox', ensure: ensureDispatcher, workflowId: dispatcherWorkflowId, setting: 'dispatcher' },
  { name: 'invite', ensure: ensureInviteDispatcher, workflowId: inviteDispatcherWorkflowId, setting: 'inviteDispatcher' },
] as const;

/** A protobuf duration in ms (its seconds a Long from the server, a number from JSON). */
const ms = (d: { seconds?: unknown; nanos?: number | null } | null | undefined): number => Number(d?.seconds ?? 0) * 1_000 + Math.round((d?.nanos ?? 0) / 1e6);

describe('dispatcher settings of the process that ensures the dispatcher', () => {
  const env = useWorkflowTestEnv();

  /** The poll timers the run has started, in ms, oldest first (the wait between rounds is a condition with the poll as its timeout). */
  const timers = async (handle: WorkflowHandle): Promise<number[]> =>
    ((await handle.fetchHistory()).events ?? []).flatMap((e) => (e.timerStartedEventAttributes ? [ms(e.timerStartedEventAttributes.startToFireTimeout)] : []));

  /** Connects the app's client as a process with this poll would, and ensures the dispatcher as it does at boot. */
  async function boot(kind: (typeof KINDS)[number], taskQueue: string, pollMs: number): Promise<void> {
    await disconnectTemporal();
    await connectTemporal(testServerSettings(taskQueue, { [kind.setting]: { pollMs, batchSize: 10 } }));
    await kind.ensure();
  }

  afterAll(async () => {
    await disconnectTemporal();
  });

  it.each(KINDS)('$name dispatcher: a process booted with another poll changes it in the running workflow, and the next run keeps it', async (kind) => {
    const round = async () => 0; // nothing to send: each round is followed by a poll wait
    await env.withWorker({ dispatchPendingEvents: round, sendDueInvites: round }, async (taskQueue) => {
      await boot(kind, taskQueue, 1_000);
      const handle = env.client().workflow.getHandle(kind.workflowId(taskQueue)); // the test's own client: the app's reconnects at each boot
      const { runId: firstRun } = await handle.describe();
      try {
        await waitUntil(async () => (await timers(handle)).includes(1_000), 20_000, 50);

        // A later process (a deploy with OUTBOX_POLL_MS / INVITE_POLL_MS changed) ensures it again.
        await boot(kind, taskQueue, 250);
        expect((await handle.describe()).runId).toBe(firstRun); // the same run: not restarted
        // From its next wait on, each wait is the new poll (the wait under way when the signal came ends at the old one).
        await waitUntil(async () => (await timers(handle)).filter((ms) => ms === 250).length >= 3, 20_000, 50);
        const polls = await timers(handle);
        expect(polls.slice(polls.indexOf(250))).toEqual(polls.slice(polls.indexOf(250)).map(() => 250));
        expect(polls.slice(0, polls.indexOf(250))).toEqual(polls.slice(0, polls.indexOf(250)).map(() => 1_000));

        // The run continues as new (nudges fill its history past DISPATCH_HISTORY_EVENTS), and the next run keeps the poll.
        for (let i = 0; i < DISPATCH_HISTORY_EVENTS; i += 50) await Promise.all(Array.from({ length: 50 }, () => handle.signal(nudgeSignal)));
        await waitUntil(async () => (await handle.describe()).runId !== firstRun, 60_000, 100);
        const started = (await handle.fetchHistory()).events![0].workflowExecutionStartedEventAttributes!;
        expect(defaultPayloadConverter.fromPayload(started.input!.payloads![0])).toEqual({ pollMs: 250, batchSize: 10 });
        await waitUntil(async () => (await timers(handle)).length >= 2, 20_000, 50);
        expect(new Set(await timers(handle))).toEqual(new Set([250]));

        // The run that took the settings replays against the current code (the patch marker is in its history).
        const first = await env.client().workflow.getHandle(kind.workflowId(taskQueue), firstRun).fetchHistory();
        expect(first.events!.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'configure')).toHaveLength(2);
        await Worker.runReplayHistory(testWorkflowOptions(), first, `${kind.name}-dispatcher-configured`);
      } finally {
        await handle.terminate('test finished').catch(() => undefined);
      }
    });
  });

  it('replays the outbox dispatcher history recorded before the configure signal', async () => {
    const history = historyFromJSON(JSON.parse(fs.readFileSync(path.join(HISTORIES_DIR, 'dispatch-outbox.json'), 'utf8')));
    await Worker.runReplayHistory(testWorkflowOptions(), history, 'dispatch-outbox');
  });

  it('replays a run of the code before it that got a configure signal (rolling upgrade: a new process, an old worker) as it ran', async () => {
    // Recorded from the dispatcher code before the signal: started with a 1 s poll, sent { pollMs: 250 } after its
    // first wait, which it ignored (every wait 1 s). The current code must not apply it on replay (the patch).
    const json = JSON.parse(fs.readFileSync(path.join(__dirname, 'fixtures', 'dispatch-outbox-configure-before-patch.json'), 'utf8'));
    const history = historyFromJSON(json);
    expect(history.events!.filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'configure')).toHaveLength(1);
    expect(new Set(history.events!.flatMap((e) => (e.timerStartedEventAttributes ? [ms(e.timerStartedEventAttributes.startToFireTimeout)] : [])))).toEqual(new Set([1_000]));
    await Worker.runReplayHistory(testWorkflowOptions(), history, 'dispatch-outbox-configure-before-patch');
  });
});
