import { Column, DataType, ForeignKey, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { CustomerRow } from './owned';
import { Organization } from './organization.model';

@Table({ tableName: 'locations' })
export class Location extends CustomerRow<Location> {
  @ForeignKey(() => Organization)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare organizationId: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
