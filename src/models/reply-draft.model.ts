import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { LocationRow } from './owned';
import { TOKEN_KINDS, type TokenKind } from '../domain/principal';

export const REPLY_DRAFT_STATES = ['pending', 'approved', 'rejected'] as const;
export type ReplyDraftState = (typeof REPLY_DRAFT_STATES)[number];

/** A reply held in the approvals queue: never sent until a person approves it (spec: draft_review_response). */
@Table({ tableName: 'reply_drafts' })
export class ReplyDraft extends LocationRow<ReplyDraft> {
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare reviewId: number;

  @Column({ type: DataType.TEXT, allowNull: false })
  declare message: string;

  @Column({ type: DataType.ENUM(...REPLY_DRAFT_STATES), allowNull: false, defaultValue: 'pending' })
  declare status: CreationOptional<ReplyDraftState>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare createdByUserId: number | null;

  /** The kind of token that drafted it (`ai` for an assistant over MCP). */
  @Column({ type: DataType.ENUM(...TOKEN_KINDS), allowNull: false })
  declare createdVia: TokenKind;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare decidedByUserId: number | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare decidedAt: Date | null;

  @Column({ type: DataType.STRING(1000), allowNull: true })
  declare rejectionReason: string | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
