import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { LocationRow } from './owned';
import { jsonColumn } from './json-column';

/** Private feedback from the public feedback form (spec: private-feedback-* events); `meta` mirrors the form. */
@Table({ tableName: 'private_feedback' })
export class PrivateFeedback extends LocationRow<PrivateFeedback> {
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare campaignId: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare contactId: number | null;

  @Column({ type: DataType.BIGINT.UNSIGNED, allowNull: true })
  declare inviteId: number | null;

  @Column({ type: DataType.TINYINT.UNSIGNED, allowNull: false })
  declare rating: number;

  @Column({ type: DataType.STRING(255), allowNull: false, defaultValue: '' })
  declare author: CreationOptional<string>;

  @Column({ type: DataType.STRING(255), allowNull: false, defaultValue: '' })
  declare email: CreationOptional<string>;

  @Column({ type: DataType.STRING(32), allowNull: false, defaultValue: '' })
  declare phone: CreationOptional<string>;

  @Column({ type: DataType.TEXT, allowNull: false })
  declare message: string;

  @Column({ type: DataType.TEXT, allowNull: true })
  declare reply: string | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare replyDate: Date | null;

  /** How the form was reached: the invite's channel (`email`, `sms`, `messaging`) or `link`. */
  @Column({ type: DataType.STRING(32), allowNull: false })
  declare source: string;

  /** The campaign's name, or the location's for the open form. */
  @Column({ type: DataType.STRING(255), allowNull: false })
  declare sourceName: string;

  @Column(jsonColumn<Record<string, unknown>>('meta', {}))
  declare meta: Record<string, unknown>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
