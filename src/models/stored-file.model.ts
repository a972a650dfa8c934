import { Column, DataType, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';

/**
 * Uploaded avatars and logos. Kept in the database (at most 250 KB each) so that every API instance
 * serves them without a shared disk.
 */
@Table({ tableName: 'stored_files', updatedAt: false })
export class StoredFile extends Model<InferAttrs<StoredFile>, InferCreationAttrs<StoredFile>> {
  @Column({ type: DataType.CHAR(36), primaryKey: true })
  declare id: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column({ type: DataType.STRING(32), allowNull: false })
  declare purpose: string;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare filename: string;

  @Column({ type: DataType.STRING(64), allowNull: false })
  declare contentType: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare size: number;

  @Column({ type: DataType.CHAR(64), allowNull: false })
  declare sha256: string;

  @Column({ type: DataType.BLOB('medium'), allowNull: false })
  declare content: Buffer;

  declare createdAt: CreationOptional<Date>;
}
