import { Column, DataType, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';

/** An agency: runs the platform under its own brand and domains. */
@Table({ tableName: 'tenants' })
export class Tenant extends Model<InferAttrs<Tenant>, InferCreationAttrs<Tenant>> {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare brandName: string;

  @Column({ type: DataType.STRING(2048), allowNull: true })
  declare logoUrl: string | null;

  /** The brand colour (`#rrggbb`) reports are drawn in; null: the neutral palette. */
  @Column({ type: DataType.CHAR(7), allowNull: true })
  declare brandColor: string | null;

  /**
   * One of the agency's domains (`tenant_domains`) that the links its customers' customers get are on (review
   * requests, unsubscribe, connect and report links); null: PUBLIC_URL. Set by the operator (`tenant:link-domain`).
   */
  @Column({ type: DataType.STRING(255), allowNull: true, defaultValue: null })
  declare linkDomain: CreationOptional<string | null>;

  /** The agency's language (ISO 639-1): new customer accounts take it unless given one. */
  @Column({ type: DataType.STRING(8), allowNull: false, defaultValue: 'en' })
  declare language: CreationOptional<string>;

  /** The agency calculates sales tax: new customers then need a country (and a postal code in US/CA). */
  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false })
  declare taxCalculationEnabled: CreationOptional<boolean>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
