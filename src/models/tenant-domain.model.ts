import { BelongsTo, Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import { Tenant } from './tenant.model';

@Table({ tableName: 'tenant_domains', updatedAt: false })
export class TenantDomain extends Model {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: number;

  @ForeignKey(() => Tenant)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare domain: string;

  @BelongsTo(() => Tenant)
  declare tenant?: Tenant;

  declare createdAt: Date;
}
