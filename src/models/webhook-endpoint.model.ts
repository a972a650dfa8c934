import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import { Customer } from './customer.model';

/**
 * A receiver URL of an account's outbound webhooks. The signing secret is kept in plain: an HMAC needs it
 * (it is never logged and is shown only to account owners). After a rotation the previous secret still signs
 * until `previousSecretExpiresAt`, so the receiver can switch without losing deliveries.
 */
@Table({ tableName: 'webhook_endpoints' })
export class WebhookEndpoint extends Model {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @ForeignKey(() => Customer)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;

  @Column({ type: DataType.STRING(2048), allowNull: false })
  declare url: string;

  @Column({ type: DataType.STRING(255), allowNull: true })
  declare description: string | null;

  @Column({ type: DataType.STRING(128), allowNull: false })
  declare secret: string;

  @Column({ type: DataType.STRING(128), allowNull: true })
  declare previousSecret: string | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare previousSecretExpiresAt: Date | null;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: true })
  declare enabled: boolean;

  declare createdAt: Date;
  declare updatedAt: Date;
}
