import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { CustomerRow } from './owned';

/** The people a campaign invites; several campaigns may share one list (and so one contact record). */
@Table({ tableName: 'contact_lists' })
export class ContactList extends CustomerRow<ContactList> {
  @Column({ type: DataType.CHAR(36), allowNull: false })
  declare uuid: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare organizationId: number | null;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
