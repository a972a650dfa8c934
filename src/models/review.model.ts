import { BeforeBulkCreate, BeforeSave, Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import { reviewSentiment, SENTIMENTS, type Sentiment } from '../analytics/sentiment';
import { Integration } from './integration.model';
import { jsonColumn } from './json-column';

@Table({ tableName: 'reviews' })
export class Review extends Model {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare organizationId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare locationId: number;

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
  declare hidden: boolean;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare verified: boolean;

  /** Id of the review at its source. */
  @Column({ type: DataType.STRING(255), allowNull: true })
  declare identifier: string | null;

  @Column({ type: DataType.STRING(2048), allowNull: true })
  declare url: string | null;

  @Column(jsonColumn<Record<string, unknown>>('meta', {}, true))
  declare meta: Record<string, unknown>;

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

  declare createdAt: Date;
  declare updatedAt: Date;

  /**
   * Every write through the model (API, sync, imports) keeps the sentiment current, the way triggers keep
   * `review_counts`: no write path can forget it. Recomputed only when the text (or, for a review without
   * words, the rating) changes.
   */
  @BeforeSave
  static computeSentiment(review: Review): void {
    if (review.isNewRecord || review.sentiment == null || review.changed('title') || review.changed('message') || review.changed('rating')) {
      const { sentiment, score } = reviewSentiment(review);
      review.sentiment = sentiment;
      review.sentimentScore = score;
    }
  }

  @BeforeBulkCreate
  static computeSentiments(reviews: Review[]): void {
    for (const review of reviews) Review.computeSentiment(review);
  }
}
