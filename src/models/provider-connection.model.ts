import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';
import { SIGN_IN_PROVIDERS, type SignInProvider } from '../providers/types';
import { Integration } from './integration.model';

/** Provider tokens of a synced integration, encrypted at rest (src/crypto/secrets.ts). */
@Table({ tableName: 'provider_connections' })
export class ProviderConnection extends Model<InferAttrs<ProviderConnection>, InferCreationAttrs<ProviderConnection>> {
  @ForeignKey(() => Integration)
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true })
  declare integrationId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column({ type: DataType.ENUM(...SIGN_IN_PROVIDERS), allowNull: false })
  declare provider: SignInProvider;

  @Column({ type: DataType.TEXT, allowNull: false })
  declare accessTokenEnc: string;

  @Column({ type: DataType.TEXT, allowNull: true })
  declare refreshTokenEnc: string | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare expiresAt: Date | null;

  @Column({ type: DataType.STRING(1024), allowNull: true })
  declare scope: string | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
