import { QueryTypes } from 'sequelize';
import { chatConfigured } from '../providers/ai/chat.client';
import { labelSplitting, type LabelReview } from '../analytics/ai-labels';
import { Review } from '../models';
import { sentimentColumns } from '../models/review.model';
import { SENTIMENT_COLUMNS } from './sentiment-rescore';

/**
 * AI labelling of stored reviews (worker side; the `labelSentimentWithAi` workflow calls it through its activity): the
 * reviews still `local` and not yet asked are read in id order, a batch per chat call (src/analytics/ai-labels.ts),
 * and written in one UPDATE: the model's labels (`ai`), or the local reading kept with the time the model was asked,
 * so a review whose label was refused is not asked again until its text changes. A failed call writes nothing: the
 * batch is asked again by a later run. The UPDATE re-checks that the review is still unasked and that its text and
 * rating are the ones sent (a digest computed by the database), so an edit made while the model was thinking keeps
 * the hook's fresh local reading.
 */

export interface LabelOptions {
  /** Reviews after this id (the previous call's `after`). */
  after: number;
  batchSize: number;
  now?: Date;
  signal?: AbortSignal;
}

export interface LabelResult {
  /** The last id read: where the next call starts. */
  after: number;
  /** Reviews sent to the model. */
  asked: number;
  /** Reviews given the model's labels. */
  labelled: number;
  /** Reviews whose label was refused (kept local, marked asked). */
  refused: number;
  /** Why the call gave nothing (nothing was written); null when the model answered or nothing was asked. */
  failed: string | null;
  /** Whether reviews after `after` may still be unasked. */
  more: boolean;
}

/** What the UPDATE compares: the text and rating as they were sent. */
const DIGEST = (alias: string) => `SHA2(CONCAT_WS(CHAR(31), ${alias}.rating, IFNULL(${alias}.title, ''), ${alias}.message), 256)`;

/** Labels one batch of unasked reviews after `opts.after` with the chat model; nothing at all when AI is unset. */
export async function labelUnaskedReviews(opts: LabelOptions): Promise<LabelResult> {
  const none: LabelResult = { after: opts.after, asked: 0, labelled: 0, refused: 0, failed: null, more: false };
  if (!chatConfigured()) return none;
  const sequelize = Review.sequelize!;
  const batchSize = Math.max(1, Math.trunc(opts.batchSize));
  // One tenant's reviews per call (the first unasked review's): a review's text never shares a prompt with another
  // agency's reviews, so it cannot steer their labels.
  const rows = await sequelize.query<LabelReview & { digest: string }>(
    `SELECT r.id, r.title, r.message, r.rating, ${DIGEST('r')} AS digest FROM reviews r
      WHERE r.sentiment_source = 'local' AND r.sentiment_ai_checked_at IS NULL AND r.id > :after
        AND r.tenant_id = (SELECT f.tenant_id FROM reviews f
                            WHERE f.sentiment_source = 'local' AND f.sentiment_ai_checked_at IS NULL AND f.id > :after ORDER BY f.id LIMIT 1)
      ORDER BY r.id LIMIT ${batchSize}`,
    { replacements: { after: opts.after }, type: QueryTypes.SELECT },
  );
  if (rows.length === 0) return none;
  const { failed, outcomes } = await labelSplitting(rows, { signal: opts.signal });
  // A short batch may be one tenant's last reviews with other tenants' after them: the next call says (asked 0 ends).
  const more = true;
  if (failed) return { ...none, asked: rows.length, failed: `${failed.kind}: ${failed.message}`, more };

  const now = opts.now ?? new Date();
  const digests = new Map(rows.map((r) => [r.id, r.digest]));
  const columns: [string, string][] = [...SENTIMENT_COLUMNS];
  const values: unknown[] = [];
  const selects = outcomes.map((o, i) => {
    const stored = { ...sentimentColumns(o.result), sentimentSource: o.source, sentimentAiCheckedAt: now };
    values.push(o.id, digests.get(o.id), ...columns.map(([, attribute]) => stored[attribute as keyof typeof stored]));
    return i === 0
      ? `SELECT ? AS id, ? AS digest, ${columns.map(([column]) => `? AS ${column}`).join(', ')}`
      : `SELECT ?, ?, ${columns.map(() => '?').join(', ')}`;
  });
  await sequelize.query(
    `UPDATE reviews r JOIN (${selects.join(' UNION ALL ')}) v ON v.id = r.id
        SET ${columns.map(([column]) => `r.${column} = v.${column}`).join(', ')}
      WHERE r.sentiment_source = 'local' AND r.sentiment_ai_checked_at IS NULL AND ${DIGEST('r')} = v.digest`,
    { replacements: values, type: QueryTypes.RAW },
  );
  const labelled = outcomes.filter((o) => o.source === 'ai').length;
  return { after: rows[rows.length - 1].id, asked: rows.length, labelled, refused: outcomes.length - labelled, failed: null, more };
}
