import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { OrganizationRow } from './owned';
import { jsonColumn } from './json-column';

export const KEYWORD_MATCHES = ['any', 'none'] as const;
export type KeywordMatch = (typeof KEYWORD_MATCHES)[number];

/**
 * An auto-respond rule of an organisation (a location's only when `locationId` is set). A new review matches
 * when its rating is in `ratings`, its source name in `sourceNames` (empty: any source) and its text passes the
 * keyword condition (`keywordMatch` any: contains one of `keywords`; none: contains none of them; no keywords:
 * always). The reply is `template` with placeholders filled in, or an AI reply when `useAi`.
 */
@Table({ tableName: 'auto_respond_rules' })
export class AutoRespondRule extends OrganizationRow<AutoRespondRule> {
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare locationId: number | null;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column(jsonColumn<number[]>('ratings', []))
  declare ratings: number[];

  @Column(jsonColumn<string[]>('sourceNames', []))
  declare sourceNames: string[];

  @Column(jsonColumn<string[]>('keywords', []))
  declare keywords: string[];

  @Column({ type: DataType.ENUM(...KEYWORD_MATCHES), allowNull: false, defaultValue: 'any' })
  declare keywordMatch: CreationOptional<KeywordMatch>;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare useAi: CreationOptional<boolean>;

  @Column({ type: DataType.TEXT, allowNull: true })
  declare template: string | null;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare paused: CreationOptional<boolean>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false, defaultValue: 0 })
  declare priority: CreationOptional<number>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
