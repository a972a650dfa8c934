import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { TenantRow } from './owned';

export const SNAPSHOT_STATUSES = ['running', 'completed', 'failed'] as const;
export type SnapshotStatus = (typeof SNAPSHOT_STATUSES)[number];

/** One run's snapshot of one keyword; the summary columns are set when the run completes. */
@Table({ tableName: 'scan_snapshots' })
export class ScanSnapshot extends TenantRow<ScanSnapshot> {
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare scanId: number;

  @Column({ type: DataType.CHAR(36), allowNull: false })
  declare runId: string;

  @Column({ type: DataType.STRING(100), allowNull: false })
  declare keyword: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare pinVersion: number;

  @Column({ type: DataType.DATE(3), allowNull: false })
  declare snapshotAt: Date;

  @Column({ type: DataType.ENUM(...SNAPSHOT_STATUSES), allowNull: false, defaultValue: 'running' })
  declare status: CreationOptional<SnapshotStatus>;

  @Column({ type: DataType.DOUBLE, allowNull: true })
  declare avgRank: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true, field: 'top_3_count' })
  declare top3Count: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true, field: 'top_10_count' })
  declare top10Count: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true, field: 'below_top_10_count' })
  declare belowTop10Count: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare notRankingCount: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare totalPins: number | null;

  @Column({ type: DataType.DOUBLE, allowNull: true })
  declare visibilityScore: number | null;

  @Column({ type: DataType.DOUBLE, allowNull: true })
  declare changeFromPrevious: number | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare completedAt: Date | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
