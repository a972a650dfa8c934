import { Column, DataType, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';

export const INTEGRATION_TYPES = ['synced', 'testimonials', 'custom'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

/** The catalogue of review platforms (global, seeded by a data migration). */
@Table({ tableName: 'review_sources' })
export class ReviewSource extends Model<InferAttrs<ReviewSource>, InferCreationAttrs<ReviewSource>> {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.STRING(64), allowNull: false })
  declare slug: string;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column({ type: DataType.STRING(2048), allowNull: false })
  declare url: string;

  @Column({ type: DataType.ENUM(...INTEGRATION_TYPES), allowNull: false })
  declare kind: IntegrationType;

  @Column({ type: DataType.BOOLEAN, allowNull: false })
  declare available: boolean;

  @Column({ type: DataType.BOOLEAN, allowNull: false })
  declare canCollectReviews: boolean;

  @Column({ type: DataType.BOOLEAN, allowNull: false })
  declare deepLinkingSupported: boolean;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
