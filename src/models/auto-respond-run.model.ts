import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { CustomerRow } from './owned';

export const AUTO_RESPOND_RUN_STATES = ['pending', 'replied', 'skipped', 'failed'] as const;
export type AutoRespondRunState = (typeof AUTO_RESPOND_RUN_STATES)[number];

/**
 * One review a rule matched when it arrived: the durable to-do of the `autoRespond` workflow
 * (`auto-respond:<review id>`), and afterwards the record of what happened (`reason` for skipped and failed).
 */
@Table({ tableName: 'auto_respond_runs' })
export class AutoRespondRun extends CustomerRow<AutoRespondRun> {
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare reviewId: number;

  /** Null once the rule was deleted. */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare ruleId: number | null;

  @Column({ type: DataType.ENUM(...AUTO_RESPOND_RUN_STATES), allowNull: false, defaultValue: 'pending' })
  declare status: CreationOptional<AutoRespondRunState>;

  @Column({ type: DataType.STRING(1000), allowNull: true })
  declare reason: string | null;

  /** The text published (replied) or that was tried (failed). */
  @Column({ type: DataType.TEXT, allowNull: true })
  declare reply: string | null;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare usedAi: CreationOptional<boolean>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
