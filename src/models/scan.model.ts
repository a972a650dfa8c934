import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { TenantRow } from './owned';
import { jsonColumn } from './json-column';

export const SCAN_TYPES = ['business', 'sab'] as const;
export type ScanType = (typeof SCAN_TYPES)[number];

/** A Local Search Grid scan (spec: Scan); pins, snapshots and results hang off it. */
@Table({ tableName: 'scans' })
export class Scan extends TenantRow<Scan> {
  @Column({ type: DataType.CHAR(36), allowNull: false })
  declare uuid: string;

  /** The tenant owner's own account: its webhook receivers get the scan events. */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare ownerCustomerId: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare customerId: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare locationId: number | null;

  /** Display name of the scanned business/location. */
  @Column({ type: DataType.STRING(255), allowNull: false })
  declare location: string;

  @Column({ type: DataType.STRING(500), allowNull: true })
  declare address: string | null;

  @Column(jsonColumn<string[]>('keywords', []))
  declare keywords: string[];

  @Column({ type: DataType.TINYINT.UNSIGNED, allowNull: false })
  declare gridSize: number;

  @Column({ type: DataType.DOUBLE, allowNull: false })
  declare distance: number;

  @Column({ type: DataType.ENUM('km', 'miles'), allowNull: false })
  declare distanceUnit: 'km' | 'miles';

  @Column({ type: DataType.ENUM(...SCAN_TYPES), allowNull: false, defaultValue: 'business' })
  declare type: CreationOptional<ScanType>;

  @Column({ type: DataType.STRING(255), allowNull: true })
  declare targetPlaceId: string | null;

  @Column({ type: DataType.DOUBLE, allowNull: false })
  declare lat: number;

  @Column({ type: DataType.DOUBLE, allowNull: false })
  declare lng: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false, defaultValue: 1 })
  declare pinVersion: CreationOptional<number>;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare isRunning: CreationOptional<boolean>;

  @Column({ type: DataType.CHAR(36), allowNull: true })
  declare currentRunId: string | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare lastRunAt: Date | null;

  /**
   * When the current run got one of its tenant's turns (SCAN_MAX_RUNNING_PER_TENANT runs query the provider at once);
   * null while it waits for one, and while the scan is idle.
   */
  @Column({ type: DataType.DATE(3), allowNull: true })
  declare runTurnAt: CreationOptional<Date | null>;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare lastRunFailed: CreationOptional<boolean>;

  @Column({ type: DataType.STRING(500), allowNull: true })
  declare lastError: string | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare nextRunAt: Date | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare archivedAt: Date | null;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare isScheduled: CreationOptional<boolean>;

  @Column({ type: DataType.ENUM('weekly', 'bi-weekly', 'monthly'), allowNull: true })
  declare frequency: 'weekly' | 'bi-weekly' | 'monthly' | null;

  @Column({ type: DataType.CHAR(5), allowNull: true })
  declare scheduledFrom: string | null;

  @Column({ type: DataType.CHAR(5), allowNull: true })
  declare scheduledTo: string | null;

  @Column(jsonColumn<number[]>('scheduledDays', [], true))
  declare scheduledDays: CreationOptional<number[]>;

  @Column({ type: DataType.STRING(64), allowNull: true })
  declare timezone: string | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
