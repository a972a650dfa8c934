import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';
import { WebhookEndpoint } from './webhook-endpoint.model';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event for one receiver. `id` is the Standard Webhooks `webhook-id` (stable across retries and
 * redelivery); `payload` is the exact JSON body sent, kept as text so every attempt signs the same bytes.
 */
@Table({ tableName: 'webhook_deliveries' })
export class WebhookDelivery extends Model<InferAttrs<WebhookDelivery>, InferCreationAttrs<WebhookDelivery>> {
  @Column({ type: DataType.CHAR(36), primaryKey: true })
  declare id: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;

  @ForeignKey(() => WebhookEndpoint)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare endpointId: number;

  @Column({ type: DataType.BIGINT.UNSIGNED, allowNull: false })
  declare outboxEventId: number;

  @Column({ type: DataType.STRING(64), allowNull: false })
  declare event: string;

  @Column({ type: DataType.TEXT('long'), allowNull: false })
  declare payload: string;

  @Column({ type: DataType.ENUM(...DELIVERY_STATUSES), allowNull: false, defaultValue: 'pending' })
  declare status: CreationOptional<DeliveryStatus>;

  /** Attempts made over every run (a redelivery adds to it). */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false, defaultValue: 0 })
  declare attempts: CreationOptional<number>;

  /**
   * The workflow id of the run that retries it: a receiver's retry run claims it at its first round, a redelivery
   * takes it over (`webhook:<id>`). Null until then (migration 20261216000100).
   */
  @Column({ type: DataType.STRING(128), allowNull: true })
  declare retryOwner: CreationOptional<string | null>;

  @Column({ type: DataType.SMALLINT, allowNull: true })
  declare lastStatusCode: number | null;

  @Column({ type: DataType.STRING(500), allowNull: true })
  declare lastError: string | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare deliveredAt: Date | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
