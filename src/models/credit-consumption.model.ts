import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';
import { CREDIT_TYPES, type CreditType } from './credit-grant.model';
import { Customer } from './customer.model';

/** Credits spent by a customer account (an email or SMS sent); drawn from the grants that expire first. */
@Table({ tableName: 'credit_consumptions', updatedAt: false })
export class CreditConsumption extends Model<InferAttrs<CreditConsumption>, InferCreationAttrs<CreditConsumption>> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @ForeignKey(() => Customer)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;

  @Column({ type: DataType.ENUM(...CREDIT_TYPES), allowNull: false })
  declare type: CreditType;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare credits: number;

  /** What the credits paid for (an invite id, for example). */
  @Column({ type: DataType.STRING(255), allowNull: true })
  declare reference: string | null;

  declare createdAt: CreationOptional<Date>;
}
