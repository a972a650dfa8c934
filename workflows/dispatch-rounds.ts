import { condition, defineSignal, patched, setHandler, workflowInfo } from '@temporalio/workflow';

/** Wakes a dispatcher waiting between rounds (sent after a commit: `nudgeDispatcher`, `nudgeInviteDispatcher`). */
export const nudgeSignal = defineSignal('nudge');

export interface DispatchRoundsInput {
  /** How long the workflow waits between rounds when nobody nudges it. */
  pollMs: number;
  /** What a round claims at most; a round that handled that many is followed by the next at once. */
  batchSize: number;
}

/** A dispatcher's run ends (the caller continues as new) once its history has this many events. */
export const DISPATCH_HISTORY_EVENTS = 1_000;

/**
 * The rounds of a dispatcher workflow (the outbox's and the invites'): `round` is one activity that works while there
 * is work and answers how much it handled; between rounds the workflow waits for a nudge or its poll. 200 rounds, or
 * fewer once the history reaches DISPATCH_HISTORY_EVENTS (every nudge is a signal in it: a burst of requests can add
 * thousands), then the caller continues as new to keep its history short: a worker that takes the dispatcher over
 * (a restart, a deploy) replays that history before its first round (bench:invites: 6,700 events, 670 KB, took 6 s).
 */
export async function dispatchRounds(input: DispatchRoundsInput, round: () => Promise<number>): Promise<void> {
  let nudged = false;
  setHandler(nudgeSignal, () => {
    nudged = true;
  });
  for (let r = 0; r < 200; r++) {
    if (patched('dispatch-history-cap') && workflowInfo().historyLength >= DISPATCH_HISTORY_EVENTS) return;
    nudged = false;
    const handled = await round();
    if (handled >= input.batchSize) continue;
    await condition(() => nudged, input.pollMs);
  }
}
