import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { CustomerRow } from './owned';
import { CHANNELS, type Channel } from './campaign.model';

export const ACTIVITY_TYPES = ['scheduled', 'rescheduled', 'sent', 'failed', 'ignored', 'unsubscribed', 'skipped', 'clicked', 'feedback'] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** The table's columns but its id, in the order raw multi-row inserts (src/db/write.ts `insertRows`) give them. */
export const ACTIVITY_COLUMNS = ['tenant_id', 'customer_id', 'contact_id', 'campaign_id', 'invite_id', 'inbound_connection_id', 'type', 'channel', 'detail', 'occurred_at'] as const;

/** The contact's timeline; `skipped` inbound submissions have no contact (they name the connection). */
@Table({ tableName: 'contact_activities', timestamps: false })
export class ContactActivity extends CustomerRow<ContactActivity> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare contactId: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare campaignId: number | null;

  @Column({ type: DataType.BIGINT.UNSIGNED, allowNull: true })
  declare inviteId: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare inboundConnectionId: number | null;

  @Column({ type: DataType.ENUM(...ACTIVITY_TYPES), allowNull: false })
  declare type: ActivityType;

  @Column({ type: DataType.ENUM(...CHANNELS), allowNull: true })
  declare channel: Channel | null;

  @Column({ type: DataType.STRING(500), allowNull: true })
  declare detail: string | null;

  @Column({ type: DataType.DATE(3), allowNull: false })
  declare occurredAt: Date;
}
