import { condition, defineSignal, setHandler } from '@temporalio/workflow';

/** Wakes a dispatcher waiting between rounds (sent after a commit: `nudgeDispatcher`, `nudgeInviteDispatcher`). */
export const nudgeSignal = defineSignal('nudge');

export interface DispatchRoundsInput {
  /** How long the workflow waits between rounds when nobody nudges it. */
  pollMs: number;
  /** What a round claims at most; a round that handled that many is followed by the next at once. */
  batchSize: number;
}

/**
 * The rounds of a dispatcher workflow (the outbox's and the invites'): `round` is one activity that works while there
 * is work and answers how much it handled; between rounds the workflow waits for a nudge or its poll. 200 rounds,
 * then the caller continues as new to keep its history short.
 */
export async function dispatchRounds(input: DispatchRoundsInput, round: () => Promise<number>): Promise<void> {
  let nudged = false;
  setHandler(nudgeSignal, () => {
    nudged = true;
  });
  for (let r = 0; r < 200; r++) {
    nudged = false;
    const handled = await round();
    if (handled >= input.batchSize) continue;
    await condition(() => nudged, input.pollMs);
  }
}
