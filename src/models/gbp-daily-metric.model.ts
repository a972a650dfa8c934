import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';
import { Location } from './location.model';

/** One Google Business Profile daily metric of a location on one day (`date` is `Y-m-d`). */
@Table({ tableName: 'gbp_daily_metrics' })
export class GbpDailyMetric extends Model<InferAttrs<GbpDailyMetric>, InferCreationAttrs<GbpDailyMetric>> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare organizationId: number;

  @ForeignKey(() => Location)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare locationId: number;

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
