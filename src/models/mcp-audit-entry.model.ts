import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { TenantRow } from './owned';
import { jsonColumn } from './json-column';

/** One answered MCP call (see the migration `create-mcp-audit-log`). */
@Table({ tableName: 'mcp_audit_log', updatedAt: false })
export class McpAuditEntry extends TenantRow<McpAuditEntry> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tokenId: number;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare userId: number;

  @Column({ type: DataType.STRING(64), allowNull: false })
  declare method: string;

  @Column({ type: DataType.STRING(64), allowNull: true })
  declare tool: string | null;

  @Column(jsonColumn<Record<string, unknown> | null>('arguments', null, true))
  declare arguments: Record<string, unknown> | null;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare piiUnlocked: CreationOptional<boolean>;

  /** 0: a result; 1: a tool result with isError; otherwise the JSON-RPC error code. */
  @Column({ type: DataType.INTEGER, allowNull: false })
  declare resultCode: number;

  @Column({ type: DataType.STRING(64), allowNull: true })
  declare errorReason: string | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare durationMs: number;

  @Column({ type: DataType.STRING(64), allowNull: false })
  declare correlationId: string;

  @Column({ type: DataType.STRING(64), allowNull: true })
  declare requestId: string | null;

  declare createdAt: CreationOptional<Date>;
}
