import { randomUUID } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { reviewSentiment, SENTIMENT_VERSION } from '../../src/analytics/sentiment';
import { Review } from '../../src/models';
import { ASPECT_ATTRIBUTES } from '../../src/models/review.model';
import { ensureSentimentRescore, sentimentRescoreWorkflowId, temporal } from '../../workflows/client';
import type { RescoreSentimentResult } from '../../workflows/reviews/rescore.workflow';
import { useDatabase } from '../support/db';
import { makeReview, makeWorld, testimonialsOf } from '../support/factories';
import { recordHistory, useTemporalWorker } from '../support/temporal';

/** How many reviews are scored by an older analyser (or none): what the upgrade still has to do. */
async function staleSentimentCount(): Promise<number> {
  const [row] = await Review.sequelize!.query<{ n: number }>('SELECT COUNT(*) AS n FROM reviews WHERE sentiment_version IS NULL OR sentiment_version < :version', {
    replacements: { version: SENTIMENT_VERSION },
    type: QueryTypes.SELECT,
  });
  return Number(row?.n ?? 0);
}

/**
 * Issue 19, item 1: "existing reviews are re-scored by a workflow after an upgrade". Reviews left with an older
 * analyser's reading (version 1: English only, no language, no aspects) are brought to the current version by
 * `rescoreSentiment` on the real Temporal dev server, batch by batch; rows already current are not touched.
 */
jest.setTimeout(120_000);

describe('re-scoring reviews after a sentiment upgrade', () => {
  const db = useDatabase();
  const worker = useTemporalWorker();

  const TEXTS = [
    { rating: 2, message: 'El personal muy amable, pero esperamos más de una hora. Carísimo.' },
    { rating: 5, message: 'Équipe adorable et cabinet impeccable, je recommande !' },
    { rating: 1, message: 'Nie wieder. Unfreundliche Bedienung und dreckige Tische.' },
    { rating: 4, message: 'Great results and a fair price.' },
    { rating: 3, message: 'Servizio nella media, prezzi normali.' },
  ];

  /** Puts the rows back to what version 1 stored: a sentiment and score, nothing else. */
  async function makeStale(ids: number[]): Promise<void> {
    await db().query(
      `UPDATE reviews SET sentiment = 'neutral', sentiment_score = 0, language = NULL, sentiment_reason = NULL, sentiment_version = 1,
        aspect_staff = NULL, aspect_price = NULL, aspect_wait_time = NULL, aspect_cleanliness = NULL, aspect_quality = NULL,
        aspect_communication = NULL WHERE id IN (:ids)`,
      { replacements: { ids }, type: QueryTypes.UPDATE },
    );
  }

  async function storedReading(id: number) {
    const r = (await Review.findByPk(id))!;
    const aspects = Object.fromEntries(Object.entries(ASPECT_ATTRIBUTES).flatMap(([aspect, attr]) => (r[attr] ? [[aspect, r[attr]]] : [])));
    return { sentiment: r.sentiment, score: r.sentimentScore, language: r.language, reason: r.sentimentReason, aspects, version: r.sentimentVersion };
  }

  it('re-scores every stale review, in several batches and activity calls, and leaves current ones alone', async () => {
    const w = await makeWorld();
    const source = await testimonialsOf(w.home);
    const stale: Review[] = [];
    for (const t of TEXTS) stale.push(await makeReview(source, t));
    const current = await makeReview(source, { rating: 5, message: 'Wonderful dentist.' });
    await makeStale(stale.map((r) => r.id));
    // A marker on a current row: the workflow must not rewrite it.
    await db().query(`UPDATE reviews SET sentiment = 'neutral', sentiment_score = 0.01 WHERE id = ?`, { replacements: [current.id] });
    expect(await staleSentimentCount()).toBeGreaterThanOrEqual(TEXTS.length);

    const { client, settings } = temporal();
    const workflowId = `sentiment-rescore-test:${randomUUID()}`;
    // Two reviews per batch and two batches per activity call: several calls for five reviews.
    const result = (await client.workflow.execute('rescoreSentiment', {
      workflowId,
      taskQueue: settings.taskQueue,
      args: [{ version: SENTIMENT_VERSION, batchSize: 2, maxBatchesPerActivity: 2 }],
    })) as RescoreSentimentResult;
    await recordHistory(workflowId, 'sentiment-rescore-batches');

    expect(result.rescored).toBeGreaterThanOrEqual(TEXTS.length);
    expect(await staleSentimentCount()).toBe(0);
    for (const [i, r] of stale.entries()) {
      const expected = reviewSentiment(TEXTS[i]);
      expect(await storedReading(r.id)).toEqual({
        sentiment: expected.sentiment,
        score: expected.score,
        language: expected.language,
        reason: expected.reason,
        aspects: expected.aspects,
        version: SENTIMENT_VERSION,
      });
    }
    expect((await storedReading(stale[0].id)).language).toBe('es');
    expect(await storedReading(current.id)).toMatchObject({ sentiment: 'neutral', score: 0.01 });
  });

  it('starts from every process at boot as one workflow per task queue and version, which ends when nothing is stale', async () => {
    const w = await makeWorld();
    const r = await makeReview(await testimonialsOf(w.home), TEXTS[1]);
    await makeStale([r.id]);
    await ensureSentimentRescore(SENTIMENT_VERSION);
    await ensureSentimentRescore(SENTIMENT_VERSION); // a second process's boot: the same run
    const handle = temporal().client.workflow.getHandle(sentimentRescoreWorkflowId(worker.settings().taskQueue, SENTIMENT_VERSION));
    const result = (await handle.result()) as RescoreSentimentResult;
    expect(result.rescored).toBeGreaterThanOrEqual(1);
    expect(await storedReading(r.id)).toMatchObject({ language: 'fr', sentiment: 'positive', version: SENTIMENT_VERSION });
    // A later boot with nothing stale: a run that reads once and ends.
    await ensureSentimentRescore(SENTIMENT_VERSION);
    expect(((await handle.result()) as RescoreSentimentResult).rescored).toBe(0);
  });
});
