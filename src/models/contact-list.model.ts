import { Column, DataType, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';

/** The people a campaign invites; several campaigns may share one list (and so one contact record). */
@Table({ tableName: 'contact_lists' })
export class ContactList extends Model<InferAttrs<ContactList>, InferCreationAttrs<ContactList>> {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.CHAR(36), allowNull: false })
  declare uuid: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare organizationId: number | null;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
