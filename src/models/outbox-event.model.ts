import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { TenantRow } from './owned';
import { jsonColumn } from './json-column';

/** An event written in the same transaction as the change it describes; dispatched later. */
@Table({ tableName: 'outbox_events', timestamps: false })
export class OutboxEvent extends TenantRow<OutboxEvent> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare customerId: number | null;

  @Column({ type: DataType.STRING(64), allowNull: false })
  declare event: string;

  @Column({ type: DataType.STRING(32), allowNull: false })
  declare aggregateType: string;

  @Column({ type: DataType.STRING(64), allowNull: false })
  declare aggregateId: string;

  @Column(jsonColumn<Record<string, unknown>>('payload', {}))
  declare payload: Record<string, unknown>;

  @Column({ type: DataType.DATE(3), allowNull: false })
  declare occurredAt: Date;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare dispatchedAt: Date | null;
}
