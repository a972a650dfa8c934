import { Column, DataType, ForeignKey, HasMany, Model, Table } from 'sequelize-typescript';
import type { CreationOptional, NonAttribute } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';
import { TenantRow } from './owned';
import { Customer } from './customer.model';
import { jsonColumn } from './json-column';

export const NFC_ORDER_STATUSES = ['pending', 'shipped', 'completed', 'canceled'] as const;
export type NfcOrderStatus = (typeof NFC_ORDER_STATUSES)[number];

/** One product line of an NFC order, with the URLs written to its tags. */
@Table({ tableName: 'nfc_order_items', timestamps: false })
export class NfcOrderItem extends TenantRow<NfcOrderItem> {
  @ForeignKey(() => NfcOrder)
  @Column({ type: DataType.CHAR(36), allowNull: false })
  declare orderId: string;

  @Column({ type: DataType.SMALLINT.UNSIGNED, allowNull: false })
  declare position: number;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare productName: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare quantity: number;

  @Column({ type: DataType.BIGINT, allowNull: false })
  declare unitPriceMinor: number;

  @Column(jsonColumn<string[]>('nfcUrls', []))
  declare nfcUrls: string[];
}

/** An NFC product order from the agency's storefront (spec: NFC order); money in minor units. */
@Table({ tableName: 'nfc_orders' })
export class NfcOrder extends Model<InferAttrs<NfcOrder>, InferCreationAttrs<NfcOrder>> {
  @Column({ type: DataType.CHAR(36), primaryKey: true })
  declare id: string;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @ForeignKey(() => Customer)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare customerId: number | null;

  @Column({ type: DataType.STRING(64), allowNull: false })
  declare orderNumber: string;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare email: string;

  @Column({ type: DataType.BIGINT, allowNull: false })
  declare totalMinor: number;

  /** ISO 4217, lower case. */
  @Column({ type: DataType.CHAR(3), allowNull: false })
  declare currency: string;

  @Column({ type: DataType.ENUM(...NFC_ORDER_STATUSES), allowNull: false, defaultValue: 'pending' })
  declare status: CreationOptional<NfcOrderStatus>;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare shippingName: string;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare shippingAddress: string;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare shippingCity: string;

  @Column({ type: DataType.CHAR(2), allowNull: false })
  declare shippingCountry: string;

  @Column({ type: DataType.STRING(2048), allowNull: true })
  declare trackingUrl: string | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare shippedAt: Date | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare completedAt: Date | null;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare canceledAt: Date | null;

  @HasMany(() => NfcOrderItem, { foreignKey: 'orderId' })
  declare items?: NonAttribute<NfcOrderItem[]>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
