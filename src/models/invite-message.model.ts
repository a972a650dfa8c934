import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { TenantRow } from './owned';
import { CHANNELS, type Channel } from './campaign.model';

/** One campaign step sent (or failed) for an invite; unique per (invite, step) so a retry never sends twice. */
@Table({ tableName: 'invite_messages' })
export class InviteMessage extends TenantRow<InviteMessage> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.BIGINT.UNSIGNED, allowNull: false })
  declare inviteId: number;

  @Column({ type: DataType.TINYINT.UNSIGNED, allowNull: false })
  declare stepIndex: number;

  @Column({ type: DataType.ENUM(...CHANNELS), allowNull: false })
  declare channel: Channel;

  /** `sending`: claimed, the provider has not answered yet (migration 20261124000500). */
  @Column({ type: DataType.ENUM('sending', 'sent', 'failed'), allowNull: false })
  declare status: 'sending' | 'sent' | 'failed';

  /**
   * The claim's own token (a random UUID): set by the claim and replaced by a take-over of a stale claim; an attempt
   * undoes the row or records a refusal only while it is `sending` under its token (migration 20261212000100).
   */
  @Column({ type: DataType.CHAR(36), allowNull: true })
  declare claimToken: CreationOptional<string | null>;

  @Column({ type: DataType.STRING(255), allowNull: true })
  declare recipient: string | null;

  @Column({ type: DataType.STRING(255), allowNull: true })
  declare providerMessageId: string | null;

  @Column({ type: DataType.STRING(500), allowNull: true })
  declare error: string | null;

  @Column({ type: DataType.DATE(3), allowNull: false })
  declare sentAt: Date;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
