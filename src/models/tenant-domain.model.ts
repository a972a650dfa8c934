import { BelongsTo, Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import type { CreationOptional, NonAttribute } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';
import { Tenant } from './tenant.model';

@Table({ tableName: 'tenant_domains', updatedAt: false })
export class TenantDomain extends Model<InferAttrs<TenantDomain>, InferCreationAttrs<TenantDomain>> {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @ForeignKey(() => Tenant)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare domain: string;

  @BelongsTo(() => Tenant)
  declare tenant?: NonAttribute<Tenant>;

  declare createdAt: CreationOptional<Date>;
}
