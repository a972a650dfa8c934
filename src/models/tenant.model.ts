import { Column, DataType, Model, Table } from 'sequelize-typescript';

/** An agency: runs the platform under its own brand and domains. */
@Table({ tableName: 'tenants' })
export class Tenant extends Model {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare brandName: string;

  @Column({ type: DataType.STRING(2048), allowNull: true })
  declare logoUrl: string | null;

  declare createdAt: Date;
  declare updatedAt: Date;
}
