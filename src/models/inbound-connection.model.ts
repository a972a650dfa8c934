import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { CustomerRow } from './owned';
import { jsonColumn } from './json-column';

/** Payload paths (dot notation) of the fields the inbound webhook reads. */
export interface InboundMapping {
  firstName?: string | null;
  lastName?: string | null;
  /** Split into first and last name when first/last are not mapped. */
  fullName?: string | null;
  email?: string | null;
  phone?: string | null;
  /** Appointment or order date: the timing anchor (arrival time when unmapped or missing). */
  anchorDate?: string | null;
}

/**
 * When to send: at once, `delayMinutes` (15 min to 7 days) after the anchor, or the next morning at `time`. A delay's
 * optional `timezone` is the zone anchor dates without an offset are read in (UTC when absent).
 */
export type InboundTiming =
  | { mode: 'immediate' }
  | { mode: 'delay'; delayMinutes: number; timezone?: string }
  | { mode: 'next_morning'; time: string; timezone: string };

/** An inbound contact webhook of a campaign (spec: Inbound contact webhook). */
@Table({ tableName: 'inbound_connections' })
export class InboundConnection extends CustomerRow<InboundConnection> {
  @Column({ type: DataType.CHAR(36), allowNull: false })
  declare uuid: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare campaignId: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column({ type: DataType.CHAR(64), allowNull: false })
  declare endpointToken: string;

  @Column({ type: DataType.TEXT, allowNull: true })
  declare signingSecretEncrypted: string | null;

  @Column(jsonColumn<InboundMapping>('mapping', {}))
  declare mapping: InboundMapping;

  @Column(jsonColumn<InboundTiming>('timing', { mode: 'immediate' }))
  declare timing: InboundTiming;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
