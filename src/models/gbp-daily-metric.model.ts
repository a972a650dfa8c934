import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { LocationRow } from './owned';

/** One Google Business Profile daily metric of a location on one day (`date` is `Y-m-d`). */
@Table({ tableName: 'gbp_daily_metrics' })
export class GbpDailyMetric extends LocationRow<GbpDailyMetric> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  /** Read through SQL (`DATE_FORMAT`), never as a JS Date: a calendar day has no time zone. */
  @Column({ type: DataType.DATEONLY, allowNull: false })
  declare date: string;

  @Column({ type: DataType.STRING(64), allowNull: false })
  declare metric: string;

  @Column({ type: DataType.BIGINT.UNSIGNED, allowNull: false })
  declare value: number;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
