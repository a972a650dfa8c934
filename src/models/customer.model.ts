import { BelongsTo, Column, DataType, ForeignKey, Table } from 'sequelize-typescript';
import type { CreationOptional, NonAttribute } from 'sequelize';
import { TenantRow } from './owned';
import { Plan } from './plan.model';

export const SUBSCRIPTION_STATES = ['active', 'paused', 'canceled'] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

/**
 * Whether an account's subscription holds its work back: paused, or canceled (a state no API sets; a billing system or
 * an operator may). Its users read but do not write (402 `subscription_paused`), and nothing is sent, synced or
 * answered for it, as for a paused one.
 */
export const subscriptionHeld = (state: string | null | undefined): boolean => state != null && state !== 'active';

/** A customer account of the agency: owns organisations, has a plan, limits and a subscription state. */
@Table({ tableName: 'customers' })
export class Customer extends TenantRow<Customer> {
  @Column({ type: DataType.STRING(255), allowNull: false })
  declare name: string;

  @Column({ type: DataType.STRING(255), allowNull: false })
  declare email: string;

  @Column({ type: DataType.STRING(32), allowNull: true })
  declare phone: string | null;

  @Column({ type: DataType.STRING(16), allowNull: false, defaultValue: 'en' })
  declare language: CreationOptional<string>;

  /** Whether the account's owners get the monthly report by mail (on by default). */
  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: true })
  declare reportEmails: CreationOptional<boolean>;

  @ForeignKey(() => Plan)
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare planId: number | null;

  /** Overrides the plan's limit when set; 0 = unlimited. */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare locationLimit: number | null;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: true })
  declare memberLimit: number | null;

  @Column({ type: DataType.ENUM(...SUBSCRIPTION_STATES), allowNull: false, defaultValue: 'active' })
  declare subscriptionStatus: CreationOptional<SubscriptionState>;

  @Column({ type: DataType.DATE(3), allowNull: true })
  declare trialEndsAt: Date | null;

  @Column({ type: DataType.CHAR(2), allowNull: true })
  declare country: string | null;

  @Column({ type: DataType.STRING(32), allowNull: true })
  declare postalCode: string | null;

  @BelongsTo(() => Plan)
  declare plan?: NonAttribute<Plan | null>;

  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}
