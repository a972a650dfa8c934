import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { CustomerRow } from './owned';
import { CHANNELS, type Channel } from './campaign.model';
import { jsonColumn } from './json-column';

/** An account's own sending account for one channel; the secret is encrypted (src/crypto/secrets.ts). */
@Table({ tableName: 'messaging_settings' })
export class MessagingSetting extends CustomerRow<MessagingSetting> {
  @Column({ type: DataType.ENUM(...CHANNELS), allowNull: false })
  declare channel: Channel;

  @Column(jsonColumn<Record<string, unknown>>('config', {}))
  declare config: Record<string, unknown>;

  @Column({ type: DataType.TEXT, allowNull: true })
  declare secretEncrypted: string | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
