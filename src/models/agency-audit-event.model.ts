import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { TenantRow } from './owned';
import { jsonColumn } from './json-column';

/** One change on the agency side (see the migration `create-agency-audit-events`); written once, never updated. */
@Table({ tableName: 'agency_audit_events', updatedAt: false })
export class AgencyAuditEvent extends TenantRow<AgencyAuditEvent> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  /** `token.created`, `customer.credits_added`, ... (AGENCY_AUDIT_ACTIONS). */
  @Column({ type: DataType.STRING(64), allowNull: false })
  declare action: string;

  @Column({ type: DataType.STRING(32), allowNull: false })
  declare subjectType: string;

  @Column({ type: DataType.STRING(64), allowNull: false })
  declare subjectId: string;

  /** The customer account the change concerns, when it concerns one. */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare customerId: number | null;

  /** `user` (a token of a user), `cli` (the operator CLI) or `system`. */
  @Column({ type: DataType.STRING(16), allowNull: false })
  declare actorType: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare actorUserId: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare actorTokenId: number | null;

  /** Who, in words: the user's email, or `reviewgrid CLI (<os user>)`. */
  @Column({ type: DataType.STRING(255), allowNull: false })
  declare actorLabel: string;

  @Column({ type: DataType.STRING(64), allowNull: true })
  declare requestId: string | null;

  @Column(jsonColumn<Record<string, unknown> | null>('beforeState', null, true))
  declare beforeState: Record<string, unknown> | null;

  @Column(jsonColumn<Record<string, unknown> | null>('afterState', null, true))
  declare afterState: Record<string, unknown> | null;

  declare createdAt: CreationOptional<Date>;
}
