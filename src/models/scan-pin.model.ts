import { Column, DataType, Table } from 'sequelize-typescript';
import { TenantRow } from './owned';

/** One pin of one geometry version of a scan. */
@Table({ tableName: 'scan_pins', timestamps: false })
export class ScanPin extends TenantRow<ScanPin> {
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare scanId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare version: number;

  @Column({ type: DataType.TINYINT.UNSIGNED, allowNull: false })
  declare row: number;

  @Column({ type: DataType.TINYINT.UNSIGNED, allowNull: false })
  declare col: number;

  @Column({ type: DataType.DOUBLE, allowNull: false })
  declare lat: number;

  @Column({ type: DataType.DOUBLE, allowNull: false })
  declare lng: number;
}
