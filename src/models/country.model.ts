import { Column, DataType, Model, Table } from 'sequelize-typescript';

@Table({ tableName: 'countries', timestamps: false })
export class Country extends Model {
  /** ISO 3166-1 alpha-2 code. */
  @Column({ type: DataType.CHAR(2), primaryKey: true })
  declare id: string;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;
}
