import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import { Tenant } from './tenant.model';
import { jsonColumn } from './json-column';

/** A custom plan of the agency: limits (0 = unlimited), features and payment-provider price ids. */
@Table({ tableName: 'plans' })
export class Plan extends Model {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: number;

  @ForeignKey(() => Tenant)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column({ type: DataType.STRING(255), allowNull: false, defaultValue: '' })
  declare billingMonthlyId: string;

  @Column({ type: DataType.STRING(255), allowNull: false, defaultValue: '' })
  declare billingYearlyId: string;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare isDefault: boolean;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare isHidden: boolean;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare isFree: boolean;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false, defaultValue: 0 })
  declare locationLimit: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false, defaultValue: 0 })
  declare memberLimit: number;

  @Column(jsonColumn<string[]>('features', [], true))
  declare features: string[];

  declare createdAt: Date;
  declare updatedAt: Date;
}
