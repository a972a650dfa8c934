import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { CreditRow } from './credit-grant.model';

/** Credits spent by a customer account (an email or SMS sent); drawn from the grants that expire first. */
@Table({ tableName: 'credit_consumptions', updatedAt: false })
export class CreditConsumption extends CreditRow<CreditConsumption> {
  /** What the credits paid for (an invite id, for example). */
  @Column({ type: DataType.STRING(255), allowNull: true })
  declare reference: string | null;

  declare createdAt: CreationOptional<Date>;
}
