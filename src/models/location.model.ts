import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import { Organization } from './organization.model';
import { Tenant } from './tenant.model';

@Table({ tableName: 'locations' })
export class Location extends Model {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: number;

  @ForeignKey(() => Tenant)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  /** Denormalised owner account: scope filters need no join. */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;

  @ForeignKey(() => Organization)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare organizationId: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  declare createdAt: Date;
  declare updatedAt: Date;
}
