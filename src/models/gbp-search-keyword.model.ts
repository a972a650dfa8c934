import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { LocationRow } from './owned';

/** A search keyword of a location in one month: its impressions, or the threshold Google masked them below. */
@Table({ tableName: 'gbp_search_keywords' })
export class GbpSearchKeyword extends LocationRow<GbpSearchKeyword> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.SMALLINT.UNSIGNED, allowNull: false })
  declare year: number;

  @Column({ type: DataType.TINYINT.UNSIGNED, allowNull: false })
  declare month: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare keyword: string;

  @Column({ type: DataType.BIGINT.UNSIGNED, allowNull: true })
  declare impressions: number | null;

  @Column({ type: DataType.BIGINT.UNSIGNED, allowNull: true })
  declare threshold: number | null;

  @Column({ type: DataType.BOOLEAN, allowNull: false })
  declare belowThreshold: boolean;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
