import { Column, DataType, ForeignKey, Model, Table } from 'sequelize-typescript';
import type { CreationOptional } from 'sequelize';
import type { InferAttrs, InferCreationAttrs } from './attributes';
import type { OrganizationPermission } from '../domain/permissions';
import { jsonColumn } from './json-column';
import { Organization } from './organization.model';
import { User } from './user.model';

/** A team member's permissions within one organisation (e.g. `create-locations`). */
@Table({ tableName: 'organization_members', updatedAt: false })
export class OrganizationMember extends Model<InferAttrs<OrganizationMember>, InferCreationAttrs<OrganizationMember>> {
  @ForeignKey(() => Organization)
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true })
  declare organizationId: number;

  @ForeignKey(() => User)
  @Column({ type: DataType.INTEGER.UNSIGNED, primaryKey: true })
  declare userId: number;

  /** The tenant, as its parent row's (the scope filters need no join). */
  @Column({ type: DataType.INTEGER.UNSIGNED, allowNull: false })
  declare tenantId: number;

  @Column(jsonColumn<OrganizationPermission[]>('permissions', []))
  declare permissions: OrganizationPermission[];

  declare createdAt: CreationOptional<Date>;
}
