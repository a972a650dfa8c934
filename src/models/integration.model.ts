import { BelongsTo, Column, DataType, ForeignKey, Table } from 'sequelize-typescript';
import type { CreationOptional, NonAttribute } from 'sequelize';
import { LocationRow } from './owned';
import { INTEGRATION_TYPES, type IntegrationType, ReviewSource } from './review-source.model';

/** A review source attached to a location: synced from a platform, or written (testimonials, custom). */
@Table({ tableName: 'integrations' })
export class Integration extends LocationRow<Integration> {
  @ForeignKey(() => ReviewSource)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare sourceId: number;

  @Column({ type: DataType.ENUM(...INTEGRATION_TYPES), allowNull: false })
  declare type: IntegrationType;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column({ type: DataType.STRING(255), allowNull: true })
  declare externalId: string | null;

  /** Synced integrations: the end of the last successful review sync, and the reason the last one failed. */
  @Column({ type: DataType.DATE(3), allowNull: true })
  declare lastSyncedAt: Date | null;

  @Column({ type: DataType.STRING(1000), allowNull: true })
  declare lastSyncError: string | null;

  /** Synced integrations: the listing time of the last review sync run that read the platform's whole list. */
  @Column({ type: DataType.DATE(3), allowNull: true })
  declare lastFullListingAt: CreationOptional<Date | null>;

  @BelongsTo(() => ReviewSource)
  declare source?: NonAttribute<ReviewSource>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
