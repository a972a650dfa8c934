import { QueryTypes } from 'sequelize';
import { ASPECTS, reviewSentiment, SENTIMENT_VERSION } from '../analytics/sentiment';
import { Review } from '../models';
import { ASPECT_ATTRIBUTES, ASPECT_COLUMNS, sentimentColumns } from '../models/review.model';

/**
 * Re-scoring after an analyser upgrade (worker side; the `rescoreSentiment` workflow calls it through its activity):
 * reviews scored by an older SENTIMENT_VERSION, or never, are read in id order and rewritten batch by batch, each
 * batch one SELECT and one UPDATE. A review saved meanwhile through the model already carries the current version
 * and is left as it is (the UPDATE re-checks the version), so an edit is never overwritten by an older reading.
 */

export interface RescoreOptions {
  /** Reviews after this id (the previous call's `after`). */
  after: number;
  batchSize: number;
  maxBatches: number;
  onBatch?: (rescored: number) => void;
}

export interface RescoreResult {
  /** The last id read: where the next call starts. */
  after: number;
  rescored: number;
  batches: number;
  /** Whether reviews after `after` may still be stale. */
  more: boolean;
}

/** Columns written, in order: each is `reviews.<column> = v.<column>` (the AI labelling writes the same ones). */
export const SENTIMENT_COLUMNS: [column: string, attribute: keyof ReturnType<typeof sentimentColumns>][] = [
  ['sentiment', 'sentiment'],
  ['sentiment_score', 'sentimentScore'],
  ['language', 'language'],
  ['sentiment_reason', 'sentimentReason'],
  ['sentiment_version', 'sentimentVersion'],
  // A model's label is of the old reading's row: the review is `local` again, and asked again when AI is configured.
  ['sentiment_source', 'sentimentSource'],
  ['sentiment_ai_checked_at', 'sentimentAiCheckedAt'],
  ...ASPECTS.map((a): [string, (typeof ASPECT_ATTRIBUTES)[typeof a]] => [ASPECT_COLUMNS[a], ASPECT_ATTRIBUTES[a]]),
];


export async function rescoreStaleReviews(opts: RescoreOptions): Promise<RescoreResult> {
  const sequelize = Review.sequelize!;
  const batchSize = Math.max(1, Math.trunc(opts.batchSize));
  let { after } = opts;
  let rescored = 0;
  let batches = 0;
  let more = true;
  while (batches < opts.maxBatches) {
    const rows = await sequelize.query<{ id: number; title: string | null; message: string; rating: number }>(
      `SELECT id, title, message, rating FROM reviews
        WHERE id > :after AND (sentiment_version IS NULL OR sentiment_version < :version) ORDER BY id LIMIT ${batchSize}`,
      { replacements: { after, version: SENTIMENT_VERSION }, type: QueryTypes.SELECT },
    );
    if (rows.length === 0) {
      more = false;
      break;
    }
    const values: unknown[] = [];
    const selects = rows.map((r, i) => {
      const columns = sentimentColumns(reviewSentiment(r));
      values.push(r.id, ...SENTIMENT_COLUMNS.map(([, attribute]) => columns[attribute]));
      return i === 0
        ? `SELECT ? AS id, ${SENTIMENT_COLUMNS.map(([column]) => `? AS ${column}`).join(', ')}`
        : `SELECT ?, ${SENTIMENT_COLUMNS.map(() => '?').join(', ')}`;
    });
    const [, changed] = await sequelize.query(
      `UPDATE reviews r JOIN (${selects.join(' UNION ALL ')}) v ON v.id = r.id
          SET ${SENTIMENT_COLUMNS.map(([column]) => `r.${column} = v.${column}`).join(', ')}
        WHERE r.sentiment_version IS NULL OR r.sentiment_version < ?`,
      { replacements: [...values, SENTIMENT_VERSION], type: QueryTypes.RAW },
    );
    rescored += typeof changed === 'number' ? changed : Number((changed as { affectedRows?: number })?.affectedRows ?? rows.length);
    after = rows[rows.length - 1].id;
    batches += 1;
    opts.onBatch?.(rescored);
    if (rows.length < batchSize) {
      more = false;
      break;
    }
  }
  return { after, rescored, batches, more };
}
