import type { Migration, Sql } from '../umzug';

/**
 * The send queue's due indexes carry the account: `invites_due (status, send_at, customer_id)` and
 * `invites_next_step (status, next_step_at, customer_id)`. The invite dispatcher claims due steps in turns of accounts
 * and leaves out the accounts that already have a batch's worth waiting for a send slot (src/messaging/send-queue.ts,
 * review finding H1): it reads the soonest due rows of the other accounts past such an account's backlog, which it now
 * skips in the index instead of reading each of its rows. The indexes serve the queries on their first columns as before.
 *
 * Re-runnable both ways: each direction changes an index only when information_schema says it is still to do.
 */
const INDEXES = [
  { name: 'invites_due', time: 'send_at' },
  { name: 'invites_next_step', time: 'next_step_at' },
] as const;

async function hasAccount(sql: Sql, index: string): Promise<boolean> {
  const [found] = (await sql(
    "SELECT 1 FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'invites' AND index_name = ? AND column_name = 'customer_id'",
    [index],
  )) as [unknown[], unknown];
  return found.length > 0;
}

export const up: Migration = async ({ context: sql }) => {
  for (const { name, time } of INDEXES) {
    if (!(await hasAccount(sql, name))) await sql(`ALTER TABLE invites DROP KEY ${name}, ADD KEY ${name} (status, ${time}, customer_id)`);
  }
};

export const down: Migration = async ({ context: sql }) => {
  for (const { name, time } of INDEXES) {
    if (await hasAccount(sql, name)) await sql(`ALTER TABLE invites DROP KEY ${name}, ADD KEY ${name} (status, ${time})`);
  }
};
