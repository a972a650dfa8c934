import type { Migration } from '../umzug';

/**
 * AI labels (issue 19, item 1): where a review's sentiment, language and aspects come from (`local`: the analyser of
 * src/analytics/sentiment.ts; `ai`: the chat model, src/analytics/ai-labels.ts), and when the model last gave its
 * verdict on the review's current text (accepted or refused; NULL: not asked yet), so a review the model's answer was
 * refused for is not asked again until its text changes. The index lets the labelling workflow find the reviews still
 * to ask in id order without reading the table. Existing rows are `local` and not asked: columns only, no backfill.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`ALTER TABLE reviews
    ADD COLUMN sentiment_source ENUM('local', 'ai') NOT NULL DEFAULT 'local' AFTER sentiment_version,
    ADD COLUMN sentiment_ai_checked_at DATETIME(3) NULL AFTER sentiment_source,
    ADD INDEX reviews_sentiment_source (sentiment_source, sentiment_ai_checked_at, id)`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE reviews DROP INDEX reviews_sentiment_source, DROP COLUMN sentiment_ai_checked_at, DROP COLUMN sentiment_source');
};
