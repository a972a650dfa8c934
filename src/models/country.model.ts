import { Column, DataType, Model, Table } from 'sequelize-typescript';
import type { InferAttrs, InferCreationAttrs } from './attributes';

@Table({ tableName: 'countries', timestamps: false })
export class Country extends Model<InferAttrs<Country>, InferCreationAttrs<Country>> {
  /** ISO 3166-1 alpha-2 code. */
  @Column({ type: DataType.CHAR(2), primaryKey: true })
  declare id: string;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;
}
