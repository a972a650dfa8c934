import type { Migration } from '../umzug';

/**
 * Full-text index over a review's author, message and reply: the `query` filter of the reviews list (MCP
 * list_reviews). InnoDB FULLTEXT on MySQL 8 and MariaDB alike. The first FULLTEXT index of a table adds InnoDB's
 * hidden FTS_DOC_ID column, so this rebuilds `reviews` once. The column list must stay exactly the one
 * `MATCH (r.author, r.message, r.reply)` names in src/services/review-search.ts.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE reviews ADD FULLTEXT INDEX reviews_fulltext (author, message, reply)');
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE reviews DROP INDEX reviews_fulltext');
};
