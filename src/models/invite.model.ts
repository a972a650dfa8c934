import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { CustomerRow } from './owned';

export const INVITE_STATUSES = ['scheduled', 'sent', 'failed', 'ignored', 'canceled'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];
export const INVITE_SOURCES = ['api', 'inbound', 'dashboard'] as const;
export type InviteSource = (typeof INVITE_SOURCES)[number];

/**
 * One request to review for a (campaign, contact). At most one `scheduled` invite exists per pair; a
 * resubmission moves its `sendAt`. Its durable workflow id is `invite:<campaign uuid>:<contact uuid>`.
 */
@Table({ tableName: 'invites' })
export class Invite extends CustomerRow<Invite> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.CHAR(36), allowNull: false })
  declare uuid: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare campaignId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare contactId: number;

  @Column({ type: DataType.ENUM(...INVITE_STATUSES), allowNull: false })
  declare status: InviteStatus;

  @Column({ type: DataType.ENUM(...INVITE_SOURCES), allowNull: false, defaultValue: 'api' })
  declare source: CreationOptional<InviteSource>;

  /** The latest request for this invite (a resubmission while waiting moves it). */
  @Column({ type: DataType.DATE(3), allowNull: false })
  declare requestedAt: Date;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare sendAt: Date | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare sentAt: Date | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare failedAt: Date | null;

  /** Why it failed, was ignored or canceled (safe to display). */
  @Column({ type: DataType.STRING(500), allowNull: true })
  declare reason: string | null;

  @Column({ type: DataType.BIGINT.UNSIGNED, allowNull: true })
  declare inboundSubmissionId: number | null;

  /** First visit of the review link. */
  @Column({ type: DataType.DATE(3), allowNull: true })
  declare clickedAt: Date | null;

  /** The campaign step this (sent) invite sends next, and when; NULL: none left (the send queue's follow-ups). */
  @Column({ type: DataType.INTEGER, allowNull: true })
  declare nextStepIndex: number | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare nextStepAt: Date | null;

  /** A step the provider could not take waits until then (the send queue skips it before). */
  @Column({ type: DataType.DATE(3), allowNull: true })
  declare retryAt: Date | null;

  /** Attempts of the current step that found the provider unavailable. */
  @Column({ type: DataType.INTEGER, allowNull: false, defaultValue: 0 })
  declare sendAttempts: CreationOptional<number>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
