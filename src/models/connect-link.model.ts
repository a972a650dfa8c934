import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';
import { SIGN_IN_PROVIDERS, type SignInProvider } from '../providers/types';
import { Location } from './location.model';

/**
 * A single-use link to the customer-facing connect page. The lifecycle is told by timestamps only; the
 * status is derived (`connectLinkStatus` in the service) because `expired` depends on the clock.
 */
@Table({ tableName: 'connect_links' })
export class ConnectLink extends Model<InferAttrs<ConnectLink>, InferCreationAttrs<ConnectLink>> {
  @Column({ type: DataType.CHAR(36), primaryKey: true })
  declare token: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;

  @ForeignKey(() => Location)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare locationId: number;

  @Column({ type: DataType.ENUM(...SIGN_IN_PROVIDERS), allowNull: false })
  declare provider: SignInProvider;

  @Column({ type: DataType.DATE(3), allowNull: false })
  declare expiresAt: Date;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare lastStartedAt: Date | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare completedOauthAt: Date | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare usedAt: Date | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare revokedAt: Date | null;

  /** OAuth `state` of the latest sign-in attempt (unique; bound to this link). */
  @Column({ type: DataType.STRING(128), allowNull: true })
  declare oauthState: string | null;

  @Column({ type: DataType.STRING(128), allowNull: true })
  declare pkceVerifier: string | null;

  /** CSRF token of the business selection form, set when the sign-in completes. */
  @Column({ type: DataType.STRING(128), allowNull: true })
  declare selectionNonce: string | null;

  /** Encrypted provider tokens between the callback and the selection (cleared when used). */
  @Column({ type: DataType.TEXT, allowNull: true })
  declare pendingCredentials: string | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare integrationId: number | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
