import { Op, UniqueConstraintError, type Transaction } from 'sequelize';
import { Forbidden, NotFound, Validation, ruleViolation } from '../domain/errors';
import { canManageOrganization, canSeeOrganization, isTeamMember } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Customer, Location, Organization } from '../models';
import { locationDeletedPayload, locationPayload, organizationDeletedPayload, organizationPayload } from '../outbox/payloads';
import { writeEvent } from '../outbox/writer';
import { clockOf, cleanName, inTransaction, offset, organizationScoped, type Page, type PageArgs, type ServiceOptions } from './common';
import { moveDashboardsOff } from './dashboards';
import { prepareImage, saveImage, type UploadInput } from './files.service';
import { attachDefaultSources } from './integrations.service';
import { assertLocationCapacity } from './plans.service';
import { containsPattern } from '../db/like';

export const DEFAULT_LOCATION_NAME = 'Default Location';

export interface OrganizationFilter extends PageArgs {
  search?: string | null;
}

export async function list(p: Principal, f: OrganizationFilter): Promise<Page<Organization>> {
  const where: Record<string, unknown> = { ...organizationScoped(p) };
  if (f.search) where.name = { [Op.like]: containsPattern(f.search) };
  const { rows, count } = await Organization.findAndCountAll({ where, order: [['id', 'ASC']], ...offset(f) });
  return { items: rows, total: count, page: f.page, perPage: f.perPage };
}

export async function get(p: Principal, id: number, opts: ServiceOptions = {}): Promise<Organization> {
  const org = await Organization.findByPk(id, { transaction: opts.transaction });
  if (!org || !canSeeOrganization(p, org)) throw new NotFound('Organization');
  return org;
}

async function assertNameFree(customerId: number, name: string, exceptId: number | null, transaction: Transaction) {
  const where: Record<string, unknown> = { customerId, name };
  if (exceptId) where.id = { [Op.ne]: exceptId };
  if (await Organization.count({ where, transaction })) {
    throw new Validation({ name: ['The name has already been taken.'] });
  }
}

/** Creates the organisation in the caller's account, with its `Default Location` and a testimonials source. */
export async function create(
  p: Principal,
  input: { name: string; logo?: UploadInput | null },
  opts: ServiceOptions = {},
): Promise<Organization> {
  if (isTeamMember(p) || p.customerId == null) throw new Forbidden('Only account owners can create organizations.');
  const customerId = p.customerId;
  const name = cleanName(input.name);
  // Checked and sanitised before the transaction opens; a refusal is thrown where the logo is stored.
  const upload = input.logo ? prepareImage('logo', 'organization-logo', input.logo) : null;
  try {
    return await inTransaction(opts, async (transaction) => {
      await assertLocationCapacity(customerId, transaction);
      await assertNameFree(customerId, name, null, transaction);
      const logo = upload ? await saveImage(p.tenantId, upload, { transaction }) : null;
      const org = await Organization.create(
        { tenantId: p.tenantId, customerId, name, logoFileId: logo?.id ?? null },
        { transaction },
      );
      const location = await Location.create(
        { tenantId: p.tenantId, customerId, organizationId: org.id, name: DEFAULT_LOCATION_NAME },
        { transaction },
      );
      await attachDefaultSources(location, transaction);
      await org.update({ defaultLocationId: location.id }, { transaction });
      await organizationEvent('organization-created', org, [location], transaction, opts);
      await locationEvent('location-created', location, transaction, opts);
      return org;
    });
  } catch (e) {
    // Two concurrent creations with one name: the unique key decides, the caller gets the same 422.
    if (e instanceof UniqueConstraintError) throw new Validation({ name: ['The name has already been taken.'] });
    throw e;
  }
}

/**
 * organization-created / -updated: the REST organisation shape with all its locations, written in the
 * transaction of the change for the account owning the organisation.
 */
export async function organizationEvent(
  event: 'organization-created' | 'organization-updated',
  org: Organization,
  locations: Location[] | null,
  transaction: Transaction,
  opts: ServiceOptions,
): Promise<void> {
  const all = locations ?? (await Location.findAll({ where: { organizationId: org.id }, order: [['id', 'ASC']], transaction }));
  await writeEvent(
    transaction,
    { tenantId: org.tenantId, customerId: org.customerId, event, aggregateType: 'organization', aggregateId: org.id, payload: organizationPayload(org, all) },
    { clock: clockOf(opts) },
  );
}

/** location-created / -updated (the REST location shape) and location-deleted (id, organization_id, name, deleted_at). */
export async function locationEvent(
  event: 'location-created' | 'location-updated' | 'location-deleted',
  location: Location,
  transaction: Transaction,
  opts: ServiceOptions,
): Promise<void> {
  const clock = clockOf(opts);
  const payload = event === 'location-deleted' ? locationDeletedPayload(location, clock.now()) : locationPayload(location);
  await writeEvent(
    transaction,
    { tenantId: location.tenantId, customerId: location.customerId, event, aggregateType: 'location', aggregateId: location.id, payload },
    { clock },
  );
}

async function manageable(p: Principal, id: number, transaction: Transaction): Promise<Organization> {
  const org = await Organization.findByPk(id, { transaction, lock: transaction.LOCK.UPDATE });
  if (!org || !canSeeOrganization(p, org)) throw new NotFound('Organization');
  if (!canManageOrganization(p, org)) throw new Forbidden('Only account owners can change organizations.');
  return org;
}

export async function update(
  p: Principal,
  id: number,
  input: { name?: string | null; logo?: UploadInput | null },
  opts: ServiceOptions = {},
): Promise<Organization> {
  const upload = input.logo ? prepareImage('logo', 'organization-logo', input.logo) : null;
  try {
    return await inTransaction(opts, async (transaction) => {
      const org = await manageable(p, id, transaction);
      const patch: Partial<Pick<Organization, 'name' | 'logoFileId'>> = {};
      if (input.name != null) {
        patch.name = cleanName(input.name);
        await assertNameFree(org.customerId, patch.name, org.id, transaction);
      }
      if (upload) patch.logoFileId = (await saveImage(p.tenantId, upload, { transaction })).id;
      org.set(patch);
      if (!org.changed()) return org;
      await org.save({ transaction });
      await organizationEvent('organization-updated', org, null, transaction, opts);
      return org;
    });
  } catch (e) {
    if (e instanceof UniqueConstraintError) throw new Validation({ name: ['The name has already been taken.'] });
    throw e;
  }
}

/**
 * Deletes the organisation with its locations, sources and reviews. The account's last one stays: 422.
 * Events: location-deleted for each of its locations (by id), then organization-deleted; reviews go without
 * events (the interface has no review-deleted).
 */
export async function remove(p: Principal, id: number, opts: ServiceOptions = {}): Promise<Organization> {
  return inTransaction(opts, async (transaction) => {
    // The account row is the lock two concurrent deletions queue on (taken first, as creation does), so they
    // cannot both see a sibling.
    const found = await Organization.findByPk(id, { transaction });
    if (found) await Customer.findByPk(found.customerId, { transaction, lock: transaction.LOCK.UPDATE });
    const org = await manageable(p, id, transaction);
    // A locking read: a plain one would answer from the snapshot taken before the lock was granted.
    const siblings = (await Organization.findAll({ where: { customerId: org.customerId }, attributes: ['id'], transaction, lock: transaction.LOCK.UPDATE })).length;
    if (siblings <= 1) {
      throw ruleViolation('At least one organization must remain; the last organization cannot be deleted.', 'last_organization');
    }
    const locations = await Location.findAll({ where: { organizationId: org.id }, order: [['id', 'ASC']], transaction });
    await moveDashboardsOff(
      locations.map((l) => l.id),
      transaction,
    );
    await org.destroy({ transaction });
    await deletedEvents(org, locations, transaction, opts);
    return org;
  });
}

/** location-deleted for each of a deleted organisation's locations (by id), then organization-deleted. */
export async function deletedEvents(org: Organization, locations: Location[], transaction: Transaction, opts: ServiceOptions): Promise<void> {
  for (const location of locations) await locationEvent('location-deleted', location, transaction, opts);
  const clock = clockOf(opts);
  await writeEvent(
    transaction,
    {
      tenantId: org.tenantId,
      customerId: org.customerId,
      event: 'organization-deleted',
      aggregateType: 'organization',
      aggregateId: org.id,
      payload: organizationDeletedPayload(org, clock.now()),
    },
    { clock },
  );
}
