import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import { Integration } from './integration.model';
import { jsonColumn } from './json-column';

@Table({ tableName: 'reviews' })
export class Review extends Model {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare organizationId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare locationId: number;

  @ForeignKey(() => Integration)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare integrationId: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare author: string;

  @Column({ type: DataType.TINYINT.UNSIGNED, allowNull: false })
  declare rating: number;

  @Column({ type: DataType.TINYINT.UNSIGNED, allowNull: false })
  declare originalRating: number;

  @Column({ type: DataType.STRING(255), allowNull: true })
  declare title: string | null;

  @Column({ type: DataType.TEXT, allowNull: false })
  declare message: string;

  @Column({ type: DataType.DATE(3), allowNull: false })
  declare publishedAt: Date;

  @Column({ type: DataType.CHAR(36), allowNull: true })
  declare avatarFileId: string | null;

  /** Avatar URL given by a synced platform. */
  @Column({ type: DataType.STRING(2048), allowNull: true })
  declare avatarUrl: string | null;

  @Column({ type: DataType.TEXT, allowNull: true })
  declare reply: string | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare replyDate: Date | null;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare hidden: boolean;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare verified: boolean;

  /** Id of the review at its source. */
  @Column({ type: DataType.STRING(255), allowNull: true })
  declare identifier: string | null;

  @Column({ type: DataType.STRING(2048), allowNull: true })
  declare url: string | null;

  @Column(jsonColumn<Record<string, unknown>>('meta', {}, true))
  declare meta: Record<string, unknown>;

  declare createdAt: Date;
  declare updatedAt: Date;
}
