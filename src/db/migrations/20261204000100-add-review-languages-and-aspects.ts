import type { Migration } from '../umzug';

/**
 * Sentiment version 2 (src/analytics/sentiment.ts): each review's detected language, why it has its sentiment, the
 * analyser version that scored it, and the tone of each aspect it talks about (NULL: not mentioned). Rows scored
 * by version 1 keep their sentiment until the `rescoreSentiment` workflow reaches them (it starts with the worker);
 * nothing here rewrites data, so the migration is instant on a large table.
 */
const ASPECT_COLUMNS = ['aspect_staff', 'aspect_price', 'aspect_wait_time', 'aspect_cleanliness', 'aspect_quality', 'aspect_communication'];

export const up: Migration = async ({ context: sql }) => {
  await sql(`ALTER TABLE reviews
    ADD COLUMN language VARCHAR(8) NULL AFTER sentiment_score,
    ADD COLUMN sentiment_reason VARCHAR(24) NULL AFTER language,
    ADD COLUMN sentiment_version SMALLINT UNSIGNED NULL AFTER sentiment_reason,
    ${ASPECT_COLUMNS.map((c) => `ADD COLUMN ${c} ENUM('positive', 'neutral', 'negative') NULL`).join(',\n    ')}`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql(`ALTER TABLE reviews DROP COLUMN language, DROP COLUMN sentiment_reason, DROP COLUMN sentiment_version,
    ${ASPECT_COLUMNS.map((c) => `DROP COLUMN ${c}`).join(', ')}`);
};
