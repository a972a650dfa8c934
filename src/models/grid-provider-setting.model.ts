import { Column, DataType, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';

export const GRID_PROVIDER_MODES = ['simulator', 'live'] as const;
export type GridProviderMode = (typeof GRID_PROVIDER_MODES)[number];

/** A tenant's Local Search Grid providers; secrets are stored encrypted (src/crypto/secrets.ts). */
@Table({ tableName: 'grid_provider_settings' })
export class GridProviderSetting extends Model<InferAttrs<GridProviderSetting>, InferCreationAttrs<GridProviderSetting>> {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true })
  declare tenantId: number;

  @Column({ type: DataType.ENUM(...GRID_PROVIDER_MODES), allowNull: false })
  declare mode: GridProviderMode;

  @Column({ type: DataType.STRING(255), allowNull: true, field: 'dataforseo_login' })
  declare dataforseoLogin: string | null;

  /** Encrypted. */
  @Column({ type: DataType.TEXT, allowNull: true, field: 'dataforseo_password' })
  declare dataforseoPassword: string | null;

  /** Encrypted. */
  @Column({ type: DataType.TEXT, allowNull: true })
  declare googleMapsKey: string | null;

  @Column({ type: DataType.STRING(500), allowNull: true, field: 'dataforseo_base_url' })
  declare dataforseoBaseUrl: string | null;

  @Column({ type: DataType.STRING(500), allowNull: true })
  declare googleMapsBaseUrl: string | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
