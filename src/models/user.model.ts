import { BelongsTo, Column, DataType, ForeignKey, Table } from 'sequelize-typescript';
import type { CreationOptional, NonAttribute } from 'sequelize';
import { TenantRow } from './owned';
import { ROLES, type Role } from '../domain/principal';
import { Customer } from './customer.model';

@Table({ tableName: 'users' })
export class User extends TenantRow<User> {
  @ForeignKey(() => Customer)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare customerId: number | null;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare email: string;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column({ type: DataType.STRING(255), allowNull: true })
  declare passwordHash: string | null;

  @Column({ type: DataType.ENUM(...ROLES), allowNull: false })
  declare role: Role;

  /** The location the user's dashboard opens on. */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare dashboardLocationId: number | null;

  @BelongsTo(() => Customer)
  declare customer?: NonAttribute<Customer | null>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
