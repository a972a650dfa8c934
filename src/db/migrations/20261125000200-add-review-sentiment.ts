import type { Migration } from '../umzug';

/**
 * Sentiment of each review's text (src/analytics/sentiment.ts): the class and the score it came from. NULL only
 * until the backfill (next migration) has run; every write through the Review model sets both.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`ALTER TABLE reviews
    ADD COLUMN sentiment ENUM('positive', 'neutral', 'negative') NULL AFTER meta,
    ADD COLUMN sentiment_score DECIMAL(4,3) NULL AFTER sentiment`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE reviews DROP COLUMN sentiment_score, DROP COLUMN sentiment');
};
