import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { LocationRow } from './owned';
import { jsonColumn } from './json-column';

export const CHANNELS = ['email', 'sms', 'messaging'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * One step of a campaign: which channel sends what, `delayHours` after the invite's send time (0 for the
 * first message). Templates may use {first_name}, {last_name}, {business_name}, {review_link} and
 * {unsubscribe_link}; `subject` is for email only.
 */
export interface CampaignStep {
  channel: Channel;
  delayHours: number;
  subject?: string | null;
  body: string;
}

/** A review-request campaign (spec: Campaign). `id` is internal; the API's `id` is `uuid`. */
@Table({ tableName: 'campaigns' })
export class Campaign extends LocationRow<Campaign> {
  @Column({ type: DataType.CHAR(36), allowNull: false })
  declare uuid: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare contactListId: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  /** Send window start, `HH:MM` UTC (null with `sendWindowEnd` null: any time). */
  @Column({ type: DataType.CHAR(5), allowNull: true })
  declare sendWindowStart: string | null;

  /** Send window end, `HH:MM` UTC, exclusive; an end before the start wraps past midnight. */
  @Column({ type: DataType.CHAR(5), allowNull: true })
  declare sendWindowEnd: string | null;

  /** Default delay between the request and the send, in hours (an invite's `send_after_hours: null`). */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false, defaultValue: 0 })
  declare sendAfterHours: CreationOptional<number>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false, defaultValue: 14 })
  declare duplicateWindowDays: CreationOptional<number>;

  @Column(jsonColumn<CampaignStep[]>('steps', []))
  declare steps: CampaignStep[];

  /** Where a happy customer is sent to leave a public review (e.g. the Google review link). */
  @Column({ type: DataType.STRING(2048), allowNull: true })
  declare reviewUrl: string | null;

  /** Ratings at or below this go to the private feedback form instead of the review site. */
  @Column({ type: DataType.TINYINT.UNSIGNED, allowNull: false, defaultValue: 3 })
  declare feedbackThreshold: CreationOptional<number>;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare pausedAt: Date | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
