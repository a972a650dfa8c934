import { Column, DataType, ForeignKey, HasMany, Model, Table } from 'sequelize-typescript';
import type { CreationOptional, NonAttribute } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';
import { Customer } from './customer.model';
import { Location } from './location.model';
import { Tenant } from './tenant.model';

@Table({ tableName: 'organizations' })
export class Organization extends Model<InferAttrs<Organization>, InferCreationAttrs<Organization>> {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @ForeignKey(() => Tenant)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @ForeignKey(() => Customer)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column({ type: DataType.CHAR(36), allowNull: true })
  declare logoFileId: string | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare defaultLocationId: number | null;

  @HasMany(() => Location)
  declare locations?: NonAttribute<Location[]>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
