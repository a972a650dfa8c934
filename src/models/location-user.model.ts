import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';
import { Location } from './location.model';
import { User } from './user.model';

/** A location assigned to a team member. */
@Table({ tableName: 'location_user', updatedAt: false })
export class LocationUser extends Model<InferAttrs<LocationUser>, InferCreationAttrs<LocationUser>> {
  @ForeignKey(() => Location)
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true })
  declare locationId: number;

  @ForeignKey(() => User)
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true })
  declare userId: number;

  /** The tenant, as its parent row's (the scope filters need no join). */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  declare createdAt: CreationOptional<Date>;
}
