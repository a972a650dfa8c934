import { condition, defineSignal, patched, setHandler, workflowInfo } from '@temporalio/workflow';

/** Wakes a dispatcher waiting between rounds (sent after a commit: `nudgeDispatcher`, `nudgeInviteDispatcher`). */
export const nudgeSignal = defineSignal('nudge');

export interface DispatchRoundsInput {
  /** How long the workflow waits between rounds when nobody nudges it. */
  pollMs: number;
  /** What a round claims at most; a round that handled that many is followed by the next at once. */
  batchSize: number;
}

/** A dispatcher's run ends (the caller continues as new) at its first quiet moment once its history has this many events. */
export const DISPATCH_HISTORY_EVENTS = 1_000;

/** ... and at the latest at this many, busy or not (a steady stream may leave no quiet moment for long). */
export const DISPATCH_HISTORY_EVENTS_MAX = 10_000;

/**
 * The rounds of a dispatcher workflow (the outbox's and the invites'): `round` is one activity that works while there
 * is work and answers how much it handled; between rounds the workflow waits for a nudge or its poll. After 200
 * rounds, or once the history reaches DISPATCH_HISTORY_EVENTS and a round found the work done, the caller continues as
 * new to keep the history short: a worker that takes the dispatcher over (a restart, a deploy) replays that history
 * before its first round (bench:invites: 6,700 events, 670 KB, took 6 s). Not while the work goes on: a continue-as-new
 * under a steady stream of events once took 3.2 s between one round and the next (bench:webhooks, every event of those
 * seconds late), so a busy run goes on to DISPATCH_HISTORY_EVENTS_MAX. Runs started before this (no
 * `dispatch-cap-when-quiet` marker) keep their rule: at DISPATCH_HISTORY_EVENTS before any round.
 */
export async function dispatchRounds(input: DispatchRoundsInput, round: () => Promise<number>): Promise<void> {
  let nudged = false;
  setHandler(nudgeSignal, () => {
    nudged = true;
  });
  const whenQuiet = patched('dispatch-cap-when-quiet');
  for (let r = 0; r < 200; r++) {
    const history = workflowInfo().historyLength;
    if (whenQuiet ? history >= DISPATCH_HISTORY_EVENTS_MAX : patched('dispatch-history-cap') && history >= DISPATCH_HISTORY_EVENTS) return;
    nudged = false;
    const handled = await round();
    if (handled >= input.batchSize) continue;
    if (whenQuiet && workflowInfo().historyLength >= DISPATCH_HISTORY_EVENTS) return;
    await condition(() => nudged, input.pollMs);
  }
}
