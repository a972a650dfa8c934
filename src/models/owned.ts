import { Column, DataType, Model } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';

/**
 * The columns a table of one tenant opens with, declared once: `id` (INT UNSIGNED AUTO_INCREMENT; a table with
 * BIGINT ids redeclares it, which keeps its place) and `tenant_id`. A model extends the class of its owner,
 * `class Review extends LocationRow<Review>`, and stays a `Model<InferAttrs<Review>, InferCreationAttrs<Review>>`.
 * The owner ids are denormalised onto every row (a child row carries its parent's), so scope filters need no join.
 * sequelize-typescript reads column metadata along the prototype chain: these columns come first, in this order.
 */
export abstract class TenantRow<M extends Model> extends Model<InferAttrs<M>, InferCreationAttrs<M>> {
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true, autoIncrement: true })
  declare id: CreationOptional<number>;

  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;
}

/** A row of one customer account: `id`, `tenant_id`, `customer_id`. */
export abstract class CustomerRow<M extends Model> extends TenantRow<M> {
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare customerId: number;
}

/** A row of one organisation: `id`, `tenant_id`, `customer_id`, `organization_id`. */
export abstract class OrganizationRow<M extends Model> extends CustomerRow<M> {
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare organizationId: number;
}

/** A row of one location: `id`, `tenant_id`, `customer_id`, `organization_id`, `location_id`. */
export abstract class LocationRow<M extends Model> extends OrganizationRow<M> {
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare locationId: number;
}
