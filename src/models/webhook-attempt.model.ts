import { Column, DataType, ForeignKey, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { TenantRow } from './owned';
import type { LoggedHeaders } from '../webhooks/delivery-log';
import { jsonColumn } from './json-column';
import { WebhookDelivery } from './webhook-delivery.model';

/** One POST of a delivery and what the receiver answered. */
@Table({ tableName: 'webhook_attempts', updatedAt: false })
export class WebhookAttempt extends TenantRow<WebhookAttempt> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

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

  /** The first KB (1024 bytes, cut on a UTF-8 character) of the answer. */
  @Column({ type: DataType.STRING(1024), allowNull: true })
  declare responseExcerpt: string | null;

  /** The headers sent; null when no POST was made (or logged before headers were kept). */
  @Column({ ...jsonColumn<LoggedHeaders | null>('requestHeaders', null, true), type: DataType.TEXT('medium') })
  declare requestHeaders: LoggedHeaders | null;

  /** The receiver's answer headers, bounded (src/webhooks/delivery-log.ts); null when no answer came. */
  @Column({ ...jsonColumn<LoggedHeaders | null>('responseHeaders', null, true), type: DataType.TEXT('medium') })
  declare responseHeaders: LoggedHeaders | null;

  declare createdAt: CreationOptional<Date>;
}
