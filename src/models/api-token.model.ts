import { BelongsTo, Column, DataType, ForeignKey, Table } from 'sequelize-typescript';
import type { CreationOptional, NonAttribute } from 'sequelize';
import { TenantRow } from './owned';
import { TOKEN_KINDS, type TokenKind } from '../domain/principal';
import { jsonColumn } from './json-column';
import { User } from './user.model';

/** The secret itself is never stored: only its SHA-256 and a short prefix to recognise it by. */
@Table({ tableName: 'api_tokens' })
export class ApiToken extends TenantRow<ApiToken> {
  @ForeignKey(() => User)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare userId: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column({ type: DataType.ENUM(...TOKEN_KINDS), allowNull: false })
  declare kind: TokenKind;

  @Column({ type: DataType.CHAR(64), allowNull: false })
  declare tokenHash: string;

  @Column({ type: DataType.STRING(16), allowNull: false })
  declare tokenPrefix: string;

  @Column(jsonColumn<string[]>('permissions', []))
  declare permissions: string[];

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare expiresAt: Date | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare revokedAt: Date | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare lastUsedAt: Date | null;

  @BelongsTo(() => User)
  declare user?: NonAttribute<User>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
