import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import { WebhookDelivery } from './webhook-delivery.model';

/** One POST of a delivery and what the receiver answered. */
@Table({ tableName: 'webhook_attempts', updatedAt: false })
export class WebhookAttempt extends Model {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: number;

  @ForeignKey(() => WebhookDelivery)
  @Column({ type: DataType.CHAR(36), allowNull: false })
  declare deliveryId: string;

  /** The attempt's number within its delivery run, as the delivery workflow counts it. */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare attempt: number;

  @Column({ type: DataType.SMALLINT, allowNull: true })
  declare statusCode: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare latencyMs: number;

  @Column({ type: DataType.STRING(500), allowNull: true })
  declare error: string | null;

  @Column({ type: DataType.STRING(500), allowNull: true })
  declare responseExcerpt: string | null;

  declare createdAt: Date;
}
