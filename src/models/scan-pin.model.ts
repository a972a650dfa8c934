import { Column, DataType, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';

/** One pin of one geometry version of a scan. */
@Table({ tableName: 'scan_pins', timestamps: false })
export class ScanPin extends Model<InferAttrs<ScanPin>, InferCreationAttrs<ScanPin>> {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  /** The tenant, as its parent row's (the scope filters need no join). */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

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
