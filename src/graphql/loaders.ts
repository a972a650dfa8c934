import DataLoader from 'dataloader';
import { Op, QueryTypes } from 'sequelize';
import { isRestricted } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Integration, Location, Review, ReviewSource, type WebhookAttempt } from '../models';
import { statsFor, type OrganizationStats } from '../services/organization-stats.service';
import { tagsOf } from '../services/tags.service';
import { sources } from '../services/reference.service';
import { attemptsOf } from '../services/webhooks.service';
import type { IntegrationRow } from '../services/reviews.service';

/** Batch results in key order; a missing key gives null. */
export function byKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): (V | null)[] {
  const map = new Map<K, V>();
  for (const row of rows) map.set(keyOf(row), row);
  return keys.map((k) => map.get(k) ?? null);
}

export function groupedByKey<K, V>(keys: readonly K[], rows: V[], keyOf: (row: V) => K): V[][] {
  const map = new Map<K, V[]>();
  for (const row of rows) {
    const k = keyOf(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return keys.map((k) => map.get(k) ?? []);
}

/** Built fresh for every request (in the context factory), so nothing leaks between callers. */
export function createLoaders(principal: Principal | null) {
  return {
    integration: new DataLoader<number, IntegrationRow | null>(async (ids) =>
      byKey(
        ids,
        await Integration.sequelize!.query<IntegrationRow>(
          `SELECT id, name, source_id AS sourceId, type, location_id AS locationId FROM integrations WHERE id IN (?)`,
          { replacements: [[...ids]], type: QueryTypes.SELECT },
        ),
        (i) => i.id,
      ),
    ),
    source: new DataLoader<number, ReviewSource | null>(async (ids) => byKey(ids, await sources(), (s) => s.id)),
    /** Locations of each organisation that the caller may see (a team member: assigned ones only). */
    locationsByOrganization: new DataLoader<number, Location[]>(async (orgIds) => {
      const where: Record<string, unknown> = { organizationId: { [Op.in]: [...orgIds] } };
      if (principal && isRestricted(principal)) where.id = { [Op.in]: [...principal.assignedLocationIds, -1] };
      const rows = await Location.findAll({ where, order: [['id', 'ASC']] });
      return groupedByKey(orgIds, rows, (l) => l.organizationId);
    }),
    /** Attempts of each webhook delivery (deliveries are scope-checked by the service that returned them; none without a caller). */
    webhookAttempts: new DataLoader<string, WebhookAttempt[]>(async (deliveryIds) =>
      groupedByKey(deliveryIds, principal ? await attemptsOf(principal, deliveryIds) : [], (a) => a.deliveryId),
    ),
    /** Review totals of each organisation over the reviews the caller may see (read only with a principal). */
    organizationStats: new DataLoader<number, OrganizationStats>((orgIds) => {
      if (!principal) throw new Error('organisation stats need a principal');
      return statsFor(principal, orgIds);
    }),
    /** The review of each reply draft (a draft is scope-checked by the service that returned it, so its review is visible). */
    // A review removed on its platform reads as gone (a draft's `review` is null).
    reviewById: new DataLoader<number, Review | null>(async (ids) =>
      byKey(ids, await Review.findAll({ where: { id: { [Op.in]: [...ids] }, removedAt: null } }), (r) => r.id),
    ),
    /** The tags of each review of a page, alphabetical. */
    reviewTags: new DataLoader<number, string[]>(async (ids) => {
      const found = await tagsOf(ids);
      return ids.map((id) => found.get(id) ?? []);
    }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
