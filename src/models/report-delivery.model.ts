import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { TenantRow } from './owned';

/**
 * A monthly report mailed to one owner: an organisation's to an owner of its account (src/jobs/report-mail.ts), or a
 * scan's to an owner of its agency (src/jobs/scan-report-mail.ts). Exactly one of `organizationId` and `scanId` is set.
 */
@Table({ tableName: 'report_deliveries' })
export class ReportDelivery extends TenantRow<ReportDelivery> {
  @Column({ type: DataType.BIGINT.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare organizationId: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare scanId: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare userId: number;

  /** `YYYY-MM`. */
  @Column({ type: DataType.CHAR(7), allowNull: false })
  declare month: string;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare messageId: string;

  /** `sending` from the claim until the SMTP server accepted the mail, then `sent`. */
  @Column({ type: DataType.ENUM('sending', 'sent'), allowNull: false, defaultValue: 'sending' })
  declare status: CreationOptional<'sending' | 'sent'>;

  /**
   * The claim's own token (a random UUID), set by the claim and replaced by a take-over: the attempt that holds it
   * releases or marks the row only while it is still there (src/jobs/report-deliveries.ts). Null on rows from before
   * tokens and on a `sent` row a late mark inserted.
   */
  @Column({ type: DataType.CHAR(36), allowNull: true })
  declare claimToken: CreationOptional<string | null>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
