import { BeforeBulkCreate, BeforeSave, Column, DataType, ForeignKey, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { LocationRow } from './owned';
import {
  ASPECTS, reviewSentiment, SENTIMENT_VERSION, SENTIMENTS, type AspectSentiments, type Sentiment, type SentimentReason, type SentimentResult,
} from '../analytics/sentiment';
import { Integration } from './integration.model';
import { jsonColumn } from './json-column';

/** Where a review's sentiment comes from: the local analyser, or the chat model (src/analytics/ai-labels.ts). */
export const SENTIMENT_SOURCES = ['local', 'ai'] as const;
export type SentimentSource = (typeof SENTIMENT_SOURCES)[number];

@Table({ tableName: 'reviews' })
export class Review extends LocationRow<Review> {
  @ForeignKey(() => Integration)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare integrationId: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare author: string;

  @Column({ type: DataType.TINYINT.UNSIGNED, allowNull: false })
  declare rating: number;

  @Column({ type: DataType.TINYINT.UNSIGNED, allowNull: false })
  declare originalRating: number;

  @Column({ type: DataType.STRING(255), allowNull: true })
  declare title: string | null;

  @Column({ type: DataType.TEXT, allowNull: false })
  declare message: string;

  @Column({ type: DataType.DATE(3), allowNull: false })
  declare publishedAt: Date;

  @Column({ type: DataType.CHAR(36), allowNull: true })
  declare avatarFileId: string | null;

  /** Avatar URL given by a synced platform. */
  @Column({ type: DataType.STRING(2048), allowNull: true })
  declare avatarUrl: string | null;

  @Column({ type: DataType.TEXT, allowNull: true })
  declare reply: string | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare replyDate: Date | null;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare hidden: CreationOptional<boolean>;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare verified: CreationOptional<boolean>;

  /** Id of the review at its source. */
  @Column({ type: DataType.STRING(255), allowNull: true })
  declare identifier: string | null;

  @Column({ type: DataType.STRING(2048), allowNull: true })
  declare url: string | null;

  @Column(jsonColumn<Record<string, unknown>>('meta', {}, true))
  declare meta: CreationOptional<Record<string, unknown>>;

  /**
   * Synced reviews the platform no longer lists (two complete listings in a row without it, src/jobs/review-sync.ts):
   * the row stays, hidden from every list, detail, count and figure; null again once the platform lists it again.
   */
  @Column({ type: DataType.DATE(3), allowNull: true })
  declare removedAt: CreationOptional<Date | null>;

  /** The listing time of the last review sync run that saw the review on its platform (null: none yet). */
  @Column({ type: DataType.DATE(3), allowNull: true })
  declare platformSeenAt: CreationOptional<Date | null>;

  /** Sentiment of the title and message (src/analytics/sentiment.ts), set by the hooks below on every write. */
  @Column({ type: DataType.ENUM(...SENTIMENTS), allowNull: true })
  declare sentiment: Sentiment | null;

  /** The analyser's score in -1..1 that `sentiment` was classified from. */
  @Column({
    type: DataType.DECIMAL(4, 3),
    allowNull: true,
    get(this: Review) {
      const v = this.getDataValue('sentimentScore') as unknown;
      return v === null || v === undefined ? null : Number(v);
    },
  })
  declare sentimentScore: number | null;

  /** ISO 639-1 code of the text's language as detected (any language; read in English when not one of the six). */
  @Column({ type: DataType.STRING(8), allowNull: true })
  declare language: string | null;

  /** Why the review has its sentiment (src/analytics/sentiment.ts, SentimentReason). */
  @Column({ type: DataType.STRING(24), allowNull: true })
  declare sentimentReason: SentimentReason | null;

  /** The analyser version that scored the review (SENTIMENT_VERSION); older rows are re-scored by a workflow. */
  @Column({ type: DataType.SMALLINT.UNSIGNED, allowNull: true })
  declare sentimentVersion: number | null;

  /**
   * Where the sentiment, language and aspects come from: `local` (the analyser) or `ai` (the chat model's labels,
   * written by the `labelSentimentWithAi` workflow). Every re-scoring by the hooks below sets it back to `local`.
   */
  @Column({ type: DataType.ENUM(...SENTIMENT_SOURCES), allowNull: false, defaultValue: 'local' })
  declare sentimentSource: CreationOptional<SentimentSource>;

  /** When the model last gave its verdict on the current text (accepted or refused); null: not asked yet. */
  @Column({ type: DataType.DATE(3), allowNull: true })
  declare sentimentAiCheckedAt: Date | null;

  @Column({ type: DataType.ENUM(...SENTIMENTS), allowNull: true })
  declare aspectStaff: Sentiment | null;

  @Column({ type: DataType.ENUM(...SENTIMENTS), allowNull: true })
  declare aspectPrice: Sentiment | null;

  @Column({ type: DataType.ENUM(...SENTIMENTS), allowNull: true })
  declare aspectWaitTime: Sentiment | null;

  @Column({ type: DataType.ENUM(...SENTIMENTS), allowNull: true })
  declare aspectCleanliness: Sentiment | null;

  @Column({ type: DataType.ENUM(...SENTIMENTS), allowNull: true })
  declare aspectQuality: Sentiment | null;

  @Column({ type: DataType.ENUM(...SENTIMENTS), allowNull: true })
  declare aspectCommunication: Sentiment | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  /**
   * Every write through the model (API, sync, imports) keeps the sentiment current, the way triggers keep
   * `review_counts`: no write path can forget it. Recomputed when the text or the rating changes, or when the row
   * was scored by an older analyser; a recomputed review is `local` again and not yet asked, so an edited review never
   * keeps a model's label of its old text (the labelling workflow asks about the new one).
   */
  @BeforeSave
  static computeSentiment(review: Review): void {
    if (
      review.isNewRecord || review.sentiment == null || review.sentimentVersion !== SENTIMENT_VERSION ||
      review.changed('title') || review.changed('message') || review.changed('rating')
    ) {
      review.set(sentimentColumns(reviewSentiment(review)));
    }
  }

  @BeforeBulkCreate
  static computeSentiments(reviews: Review[]): void {
    for (const review of reviews) Review.computeSentiment(review);
  }
}

/** The model attribute of each aspect's column. */
export const ASPECT_ATTRIBUTES = {
  staff: 'aspectStaff', price: 'aspectPrice', wait_time: 'aspectWaitTime', cleanliness: 'aspectCleanliness',
  quality: 'aspectQuality', communication: 'aspectCommunication',
} as const satisfies Record<(typeof ASPECTS)[number], keyof Review>;

/** The column of each aspect (snake case of its attribute). */
export const ASPECT_COLUMNS = {
  staff: 'aspect_staff', price: 'aspect_price', wait_time: 'aspect_wait_time', cleanliness: 'aspect_cleanliness',
  quality: 'aspect_quality', communication: 'aspect_communication',
} as const satisfies Record<(typeof ASPECTS)[number], string>;

/**
 * The stored form of a local analysis: the attributes the hooks, the demo seed and the re-scoring workflow write. It
 * is `local` and not yet asked of the model, so the AI labelling (when configured) reads the new text too.
 */
export function sentimentColumns(result: SentimentResult): Pick<
  Review,
  | 'sentiment' | 'sentimentScore' | 'language' | 'sentimentReason' | 'sentimentVersion' | 'sentimentSource'
  | 'sentimentAiCheckedAt' | (typeof ASPECT_ATTRIBUTES)[keyof typeof ASPECT_ATTRIBUTES]
> {
  const aspect = (a: (typeof ASPECTS)[number]): Sentiment | null => result.aspects[a] ?? null;
  return {
    sentiment: result.sentiment,
    sentimentScore: result.score,
    language: result.language,
    sentimentReason: result.reason,
    sentimentVersion: SENTIMENT_VERSION,
    sentimentSource: 'local',
    sentimentAiCheckedAt: null,
    aspectStaff: aspect('staff'),
    aspectPrice: aspect('price'),
    aspectWaitTime: aspect('wait_time'),
    aspectCleanliness: aspect('cleanliness'),
    aspectQuality: aspect('quality'),
    aspectCommunication: aspect('communication'),
  };
}

/** The aspects of a stored review, from its columns. */
export function aspectsOfRow(row: Partial<Record<(typeof ASPECT_ATTRIBUTES)[keyof typeof ASPECT_ATTRIBUTES], Sentiment | null>>): AspectSentiments {
  const out: AspectSentiments = {};
  for (const aspect of ASPECTS) {
    const v = row[ASPECT_ATTRIBUTES[aspect]];
    if (v) out[aspect] = v;
  }
  return out;
}
