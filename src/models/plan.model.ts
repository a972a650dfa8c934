import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { TenantRow } from './owned';
import { jsonColumn } from './json-column';

/** A custom plan of the agency: limits (0 = unlimited), features and payment-provider price ids. */
@Table({ tableName: 'plans' })
export class Plan extends TenantRow<Plan> {
  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column({ type: DataType.STRING(255), allowNull: false, defaultValue: '' })
  declare billingMonthlyId: CreationOptional<string>;

  @Column({ type: DataType.STRING(255), allowNull: false, defaultValue: '' })
  declare billingYearlyId: CreationOptional<string>;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare isDefault: CreationOptional<boolean>;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare isHidden: CreationOptional<boolean>;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare isFree: CreationOptional<boolean>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false, defaultValue: 0 })
  declare locationLimit: CreationOptional<number>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false, defaultValue: 0 })
  declare memberLimit: CreationOptional<number>;

  @Column(jsonColumn<string[]>('features', [], true))
  declare features: CreationOptional<string[]>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
