import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { TenantRow } from './owned';

export const INBOUND_OUTCOMES = ['accepted', 'duplicate', 'skipped', 'ignored'] as const;
export type InboundOutcome = (typeof INBOUND_OUTCOMES)[number];

/** Every POST the inbound webhook accepted for processing: the stored record re-dispatch works from. */
@Table({ tableName: 'inbound_submissions', timestamps: false })
export class InboundSubmission extends TenantRow<InboundSubmission> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare connectionId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;

  /** SHA-256 hex of the raw body (double-fire window). */
  @Column({ type: DataType.CHAR(64), allowNull: false })
  declare payloadHash: string;

  /**
   * `X-Webhook-Timestamp` (Unix seconds) when the signature covered it (a connection with a secret), else null: the
   * same timestamp and body again while that timestamp is valid is a replay (`duplicate`).
   */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare signedTimestamp: CreationOptional<number | null>;

  @Column({ type: DataType.ENUM(...INBOUND_OUTCOMES), allowNull: false })
  declare outcome: InboundOutcome;

  @Column({ type: DataType.STRING(255), allowNull: true })
  declare reason: string | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare contactId: number | null;

  @Column({ type: DataType.BIGINT.UNSIGNED, allowNull: true })
  declare inviteId: number | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare sendAt: Date | null;

  @Column({ type: DataType.DATE(3), allowNull: false })
  declare receivedAt: Date;
}
