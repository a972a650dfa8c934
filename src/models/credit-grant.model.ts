import { Column, DataType, type Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { CustomerRow } from './owned';

export const CREDIT_TYPES = ['email', 'sms'] as const;
export type CreditType = (typeof CREDIT_TYPES)[number];

/** The columns a grant and a consumption share: a number of credits of one type for one customer account. */
export abstract class CreditRow<M extends Model> extends CustomerRow<M> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.ENUM(...CREDIT_TYPES), allowNull: false })
  declare type: CreditType;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare credits: number;
}

/** Credits granted to a customer account (`add-credits`); `remaining` is what consumptions have left of it. */
@Table({ tableName: 'credit_grants' })
export class CreditGrant extends CreditRow<CreditGrant> {
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare remaining: number;

  /** The instant the unused part lapses (null: never). */
  @Column({ type: DataType.DATE(3), allowNull: true })
  declare expiresAt: Date | null;

  /** Visible to the customer. */
  @Column({ type: DataType.TEXT, allowNull: true })
  declare notes: string | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
