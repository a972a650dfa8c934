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

/**
 * Built fresh for every request (in the context factory), so nothing leaks between callers. Each loader is made when a
 * resolver first asks for it: most requests use one or two of them, or none (a REST detail answer reads one row).
 */
export class RequestLoaders {
  #integration?: DataLoader<number, IntegrationRow | null>;
  #source?: DataLoader<number, ReviewSource | null>;
  #locationsByOrganization?: DataLoader<number, Location[]>;
  #webhookAttempts?: DataLoader<string, WebhookAttempt[]>;
  #organizationStats?: DataLoader<number, OrganizationStats>;
  #reviewById?: DataLoader<number, Review | null>;
  #reviewTags?: DataLoader<number, string[]>;

  constructor(private readonly principal: Principal | null) {}

  get integration(): DataLoader<number, IntegrationRow | null> {
    return (this.#integration ??= new DataLoader(async (ids) =>
      byKey(
        ids,
        await Integration.sequelize!.query<IntegrationRow>(
          `SELECT id, name, source_id AS sourceId, type, location_id AS locationId FROM integrations WHERE id IN (?)`,
          { replacements: [[...ids]], type: QueryTypes.SELECT },
        ),
        (i) => i.id,
      ),
    ));
  }

  get source(): DataLoader<number, ReviewSource | null> {
    return (this.#source ??= new DataLoader(async (ids) => byKey(ids, await sources(), (s) => s.id)));
  }

  /** Locations of each organisation that the caller may see (a team member: assigned ones only). */
  get locationsByOrganization(): DataLoader<number, Location[]> {
    const principal = this.principal;
    return (this.#locationsByOrganization ??= new DataLoader(async (orgIds) => {
      const where: Record<string, unknown> = { organizationId: { [Op.in]: [...orgIds] } };
      if (principal && isRestricted(principal)) where.id = { [Op.in]: [...principal.assignedLocationIds, -1] };
      const rows = await Location.findAll({ where, order: [['id', 'ASC']] });
      return groupedByKey(orgIds, rows, (l) => l.organizationId);
    }));
  }

  /** Attempts of each webhook delivery (deliveries are scope-checked by the service that returned them; none without a caller). */
  get webhookAttempts(): DataLoader<string, WebhookAttempt[]> {
    const principal = this.principal;
    return (this.#webhookAttempts ??= new DataLoader(async (deliveryIds) =>
      groupedByKey(deliveryIds, principal ? await attemptsOf(principal, deliveryIds) : [], (a) => a.deliveryId),
    ));
  }

  /** Review totals of each organisation over the reviews the caller may see (read only with a principal). */
  get organizationStats(): DataLoader<number, OrganizationStats> {
    const principal = this.principal;
    return (this.#organizationStats ??= new DataLoader((orgIds) => {
      if (!principal) throw new Error('organisation stats need a principal');
      return statsFor(principal, orgIds);
    }));
  }

  /** The review of each reply draft (a draft is scope-checked by the service that returned it, so its review is visible). */
  // A review removed on its platform reads as gone (a draft's `review` is null).
  get reviewById(): DataLoader<number, Review | null> {
    return (this.#reviewById ??= new DataLoader(async (ids) =>
      byKey(ids, await Review.findAll({ where: { id: { [Op.in]: [...ids] }, removedAt: null } }), (r) => r.id),
    ));
  }

  /** The tags of each review of a page, alphabetical. */
  get reviewTags(): DataLoader<number, string[]> {
    return (this.#reviewTags ??= new DataLoader(async (ids) => {
      const found = await tagsOf(ids);
      return ids.map((id) => found.get(id) ?? []);
    }));
  }
}
