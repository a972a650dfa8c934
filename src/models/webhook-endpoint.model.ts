import { Column, DataType, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import { CustomerRow } from './owned';
import { decryptSecret, encryptSecret, isEncrypted } from '../crypto/secrets';
import { jsonColumn } from './json-column';

/** Encrypted on write (an already sealed value, as a re-encryption writes it, is kept); null stays null. */
function sealSecret<T extends string | null>(value: T): T {
  return (value === null || isEncrypted(value) ? value : encryptSecret(value)) as T;
}

function openSecret<T extends string | null>(stored: T): T {
  return (stored === null || stored === undefined || !isEncrypted(stored) ? stored : decryptSecret(stored)) as T;
}

/**
 * A receiver URL of an account's outbound webhooks. The signing secret is stored encrypted under the keyring
 * (`src/crypto/secrets.ts`) and read in plain through the attribute (an HMAC needs it; it is never logged and is
 * shown only to account owners). After a rotation the previous secret still signs until `previousSecretExpiresAt`,
 * so the receiver can switch without losing deliveries.
 */
@Table({ tableName: 'webhook_endpoints' })
export class WebhookEndpoint extends CustomerRow<WebhookEndpoint> {
  @Column({ type: DataType.STRING(2048), allowNull: false })
  declare url: string;

  @Column({ type: DataType.STRING(255), allowNull: true })
  declare description: string | null;

  @Column({
    type: DataType.STRING(255),
    allowNull: false,
    get(this: WebhookEndpoint) {
      return openSecret(this.getDataValue('secret'));
    },
    set(this: WebhookEndpoint, value: string) {
      this.setDataValue('secret', sealSecret(value));
    },
  })
  declare secret: string;

  @Column({
    type: DataType.STRING(255),
    allowNull: true,
    get(this: WebhookEndpoint) {
      return openSecret(this.getDataValue('previousSecret'));
    },
    set(this: WebhookEndpoint, value: string | null) {
      this.setDataValue('previousSecret', sealSecret(value));
    },
  })
  declare previousSecret: string | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare previousSecretExpiresAt: Date | null;

  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: true })
  declare enabled: CreationOptional<boolean>;

  /** The events this receiver gets; null: every event. */
  @Column(jsonColumn<string[] | null>('events', null, true))
  declare events: string[] | null;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
