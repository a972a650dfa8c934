import { reviewSentiment } from '../../analytics/sentiment';
import type { Migration } from '../umzug';

/** Rows per round trip: one SELECT and one UPDATE of this many reviews. */
export const BACKFILL_BATCH = 500;

/**
 * Data backfill (kept apart from the schema change): computes the sentiment of every review that has none, in
 * id order and in batches, each batch one UPDATE with CASE. Safe to re-run: it only touches rows still NULL.
 */
export const up: Migration = async ({ context: sql }) => {
  let after = 0;
  for (;;) {
    const rows = (await sql(
      `SELECT id, title, message, rating FROM reviews WHERE sentiment IS NULL AND id > ? ORDER BY id LIMIT ${BACKFILL_BATCH}`,
      [after],
    )) as [{ id: number; title: string | null; message: string; rating: number }[], unknown];
    const batch = rows[0];
    if (batch.length === 0) return;
    const ids: number[] = [];
    const classes: unknown[] = [];
    const scores: unknown[] = [];
    for (const r of batch) {
      const { sentiment, score } = reviewSentiment(r);
      ids.push(r.id);
      classes.push(r.id, sentiment);
      scores.push(r.id, score);
    }
    const cases = batch.map(() => 'WHEN ? THEN ?').join(' ');
    await sql(
      `UPDATE reviews SET sentiment = CASE id ${cases} END, sentiment_score = CASE id ${cases} END
        WHERE id IN (${ids.map(() => '?').join(', ')})`,
      [...classes, ...scores, ...ids],
    );
    after = batch[batch.length - 1].id;
  }
};

/** The schema migration's down drops the columns; nothing to undo here. */
export const down: Migration = async () => {};
