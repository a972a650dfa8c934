import { Op, type Transaction } from 'sequelize';
import { NotFound, Validation } from '../domain/errors';
import type { Principal } from '../domain/principal';
import { canSeeLocation } from '../domain/permissions';
import { Integration, Location, ReviewSource } from '../models';
import type { IntegrationType } from '../models/review-source.model';
import { cleanName, locationScoped, offset, type Page, type PageArgs, type ServiceOptions } from './common';

export const WRITABLE_TYPES: readonly IntegrationType[] = ['testimonials', 'custom'];

/** The one way an integration comes to be: a catalogue source attached to a location, owners copied down. */
function attach(
  location: Location,
  source: ReviewSource,
  extra: { name?: string; externalId?: string | null },
  transaction?: Transaction,
): Promise<Integration> {
  return Integration.create(
    {
      tenantId: location.tenantId,
      customerId: location.customerId,
      organizationId: location.organizationId,
      locationId: location.id,
      sourceId: source.id,
      type: source.kind,
      name: extra.name ?? source.name,
      externalId: extra.externalId ?? null,
    },
    { transaction },
  );
}

/** Every new location gets a testimonials source, so reviews can be written to it straight away. */
export async function attachDefaultSources(location: Location, transaction?: Transaction): Promise<Integration> {
  const source = await ReviewSource.findOne({ where: { slug: 'testimonials' }, transaction });
  if (!source) throw new Error('Review source catalogue is missing `testimonials`; run the migrations.');
  return attach(location, source, {}, transaction);
}

export interface WritableSourceFilter extends PageArgs {
  organizationId?: number | null;
  locationId?: number | null;
}

export async function listWritable(p: Principal, f: WritableSourceFilter): Promise<Page<Integration>> {
  const where: Record<string, unknown> = { ...locationScoped(p), type: { [Op.in]: WRITABLE_TYPES } };
  if (f.organizationId != null) where.organizationId = f.organizationId;
  // The scope is its own clause: a location filter narrows it, never replaces it.
  if (f.locationId != null) where.locationId = f.locationId;
  const { rows, count } = await Integration.findAndCountAll({ where, order: [['id', 'ASC']], ...offset(f) });
  return { items: rows, total: count, page: f.page, perPage: f.perPage };
}

/**
 * Attaches a source from the catalogue to a location. Through the API only written sources
 * (testimonials, custom); synced integrations come from the provider sign-in (connect links).
 */
export async function createWritable(
  p: Principal,
  input: { locationId: number; sourceSlug: string; name?: string | null },
  opts: ServiceOptions = {},
): Promise<Integration> {
  const location = await Location.findByPk(input.locationId, { transaction: opts.transaction });
  if (!location || !canSeeLocation(p, location)) throw new NotFound('Location');
  const source = await ReviewSource.findOne({ where: { slug: input.sourceSlug }, transaction: opts.transaction });
  if (!source || !WRITABLE_TYPES.includes(source.kind)) {
    throw new Validation({ source: ['Only testimonials and custom sources can be attached through the API.'] });
  }
  const name = cleanName(input.name ?? source.name);
  return attach(location, source, { name }, opts.transaction);
}

/**
 * A synced platform attached to a location (the provider sign-in, the demo seed and tests use this); the location's
 * integration of that business when it has one.
 */
export async function attachSynced(
  location: Location,
  sourceSlug: string,
  externalId: string,
  transaction?: Transaction,
): Promise<Integration> {
  const source = await ReviewSource.findOne({ where: { slug: sourceSlug }, transaction });
  if (!source || source.kind !== 'synced') throw new Validation({ source: [`"${sourceSlug}" is not a synced source.`] });
  // Connecting a business the location has already (a reconnect after access was lost) keeps its integration: a new
  // one would import every review again beside the old ones, and count each twice in every figure.
  const existing = await Integration.findOne({ where: { locationId: location.id, sourceId: source.id, externalId }, transaction, lock: transaction?.LOCK.UPDATE });
  return existing ?? attach(location, source, { externalId }, transaction);
}

/** Every source attached to a visible location (synced, testimonials, custom). */
export async function listForLocation(p: Principal, locationId: number): Promise<Integration[]> {
  const location = await Location.findByPk(locationId);
  if (!location || !canSeeLocation(p, location)) throw new NotFound('Location');
  return Integration.findAll({ where: { locationId }, order: [['id', 'ASC']] });
}
