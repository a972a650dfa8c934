import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { TenantRow } from './owned';
import { jsonColumn } from './json-column';

export interface StoredPlace {
  place_id: string;
  name: string;
  rank: number;
}

/** The provider's top 20 at one pin for one snapshot; unique per (snapshot, pin). */
@Table({ tableName: 'scan_results' })
export class ScanResult extends TenantRow<ScanResult> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare snapshotId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare pinId: number;

  @Column({ type: DataType.DOUBLE, allowNull: false })
  declare lat: number;

  @Column({ type: DataType.DOUBLE, allowNull: false })
  declare lng: number;

  @Column({ type: DataType.TINYINT.UNSIGNED, allowNull: true })
  declare targetRank: number | null;

  @Column(jsonColumn<StoredPlace[]>('topResults', []))
  declare topResults: StoredPlace[];

  @Column({ type: DataType.STRING(16), allowNull: false, defaultValue: 'complete' })
  declare status: CreationOptional<string>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
