import { Column, DataType, HasMany, Table } from 'sequelize-typescript';
import type { CreationOptional, NonAttribute } from 'sequelize';
import { CustomerRow } from './owned';
import { Location } from './location.model';

@Table({ tableName: 'organizations' })
export class Organization extends CustomerRow<Organization> {
  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column({ type: DataType.CHAR(36), allowNull: true })
  declare logoFileId: string | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare defaultLocationId: number | null;

  @HasMany(() => Location)
  declare locations?: NonAttribute<Location[]>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
