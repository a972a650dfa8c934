import { Column, DataType, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';

/** A tag on a review (normalised: trimmed, single spaces, lower case; at most 64 characters). */
@Table({ tableName: 'review_tags', updatedAt: false })
export class ReviewTag extends Model<InferAttrs<ReviewTag>, InferCreationAttrs<ReviewTag>> {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true })
  declare reviewId: number;

  @Column({ type: DataType.STRING(64), primaryKey: true })
  declare tag: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;

  declare createdAt: CreationOptional<Date>;
}
