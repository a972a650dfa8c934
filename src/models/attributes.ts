import type { InferAttributes, InferCreationAttributes } from 'sequelize';
import type { Model } from 'sequelize-typescript';

/**
 * sequelize-typescript's `Model` declares `id`, `createdAt`, `updatedAt`, `deletedAt` and `version` as optional `any`
 * fields. sequelize's `InferAttributes` only leaves out what its own `Model` declares, so it would take these for
 * attributes of every model (a `where: { deletedAt }` on a table without the column would type-check). A model
 * that has such a column declares it with its type; the ones still `any` are left out here.
 */
type Inherited<M> = {
  [K in 'id' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'version']: K extends keyof M ? (0 extends 1 & M[K] ? K : never) : never;
}['id' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'version'];

/** The attributes of a model: its declared columns (sequelize's `InferAttributes`, without the inherited `any` fields). */
export type InferAttrs<M extends Model> = InferAttributes<M, { omit: Inherited<M> }>;

/** What `create` takes: `CreationOptional` columns (autoincrement ids, defaults, timestamps) and nullable ones may be left out. */
export type InferCreationAttrs<M extends Model> = InferCreationAttributes<M, { omit: Inherited<M> }>;
