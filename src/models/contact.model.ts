import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { CustomerRow } from './owned';

/** A person in a contact list, matched by email or phone (E.164) within the list. */
@Table({ tableName: 'contacts' })
export class Contact extends CustomerRow<Contact> {
  @Column({ type: DataType.CHAR(36), allowNull: false })
  declare uuid: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare contactListId: number;

  @Column({ type: DataType.STRING(255), allowNull: true })
  declare firstName: string | null;

  @Column({ type: DataType.STRING(255), allowNull: true })
  declare lastName: string | null;

  /** Lower-cased. */
  @Column({ type: DataType.STRING(255), allowNull: true })
  declare email: string | null;

  /** E.164. */
  @Column({ type: DataType.STRING(32), allowNull: true })
  declare phone: string | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare unsubscribedAt: Date | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
