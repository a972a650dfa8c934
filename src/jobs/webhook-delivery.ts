import { randomUUID } from 'node:crypto';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import { deliveryWorkflowId, type DeliveryLabel } from '../../workflows/client';
import type { Clock } from '../domain/clock';
import { OutboxEvent, WebhookAttempt, WebhookDelivery, WebhookEndpoint, User } from '../models';
import { type DeliveryStatus } from '../models/webhook-delivery.model';
import { firstBytes, loggedHeaders, type LoggedHeaders } from '../webhooks/delivery-log';
import { clockOf, inTransaction } from '../services/common';
import { isLockConflict } from '../db/errors';
import { clip, signingSecrets } from '../services/webhooks.service';

/**
 * Outbound webhooks, worker side: what the outbox dispatcher and the delivery activities need (no principal: the
 * workflows act for the system). Claiming undispatched events with their deliveries, reading what an attempt
 * needs, recording attempts and outcomes. The account's own commands and queries (receivers, secrets, the delivery
 * log, redelivery) are src/services/webhooks.service.ts.
 */

export interface DeliveryForAttempt {
  /** The `webhook-id`. */
  id: string;
  status: DeliveryStatus;
  event: string;
  /** The exact JSON body to POST (the same bytes on every attempt). */
  body: string;
  url: string;
  endpointId: number;
  /** The delivery's (and its receiver's) tenant. */
  tenantId: number;
  /** Attempts recorded so far over every run. */
  attempts: number;
  /** Current secret first, then the previous one while its overlap lasts. */
  secrets: string[];
}

/**
 * What one attempt needs, read fresh (a rotation or URL change applies to the next attempt). Null when the
 * delivery or its receiver is gone, or the receiver is disabled: nothing may be sent.
 */
export async function loadDeliveryForAttempt(deliveryId: string, opts: { clock?: Clock } = {}): Promise<DeliveryForAttempt | null> {
  const delivery = await WebhookDelivery.findByPk(deliveryId);
  if (!delivery) return null;
  const endpoint = await WebhookEndpoint.findByPk(delivery.endpointId);
  if (!endpoint || !endpoint.enabled) return null;
  return {
    id: delivery.id,
    status: delivery.status,
    event: delivery.event,
    body: delivery.payload,
    url: endpoint.url,
    endpointId: endpoint.id,
    tenantId: delivery.tenantId,
    attempts: delivery.attempts,
    secrets: signingSecrets(endpoint, clockOf(opts).now()),
  };
}

/** A claimed delivery with its receiver and the tags of its workflow, as the dispatcher's first attempt needs it. */
export interface DeliveryForBulk extends DeliveryForAttempt {
  label: DeliveryLabel;
}

/** `loadDeliveryForAttempt` for a retry group's round, in two queries (absent: gone, or the receiver deleted or disabled). */
export async function loadDeliveriesForAttempt(deliveryIds: readonly string[], opts: { clock?: Clock } = {}): Promise<Map<string, DeliveryForAttempt>> {
  const out = new Map<string, DeliveryForAttempt>();
  if (deliveryIds.length === 0) return out;
  const rows = await WebhookDelivery.findAll({ where: { id: { [Op.in]: [...deliveryIds] } } });
  const endpoints = new Map(
    (await WebhookEndpoint.findAll({ where: { id: { [Op.in]: [...new Set(rows.map((d) => d.endpointId))] }, enabled: true } })).map((e) => [e.id, e]),
  );
  const now = clockOf(opts).now();
  for (const d of rows) {
    const endpoint = endpoints.get(d.endpointId);
    if (!endpoint) continue;
    out.set(d.id, { id: d.id, status: d.status, event: d.event, body: d.payload, url: endpoint.url, endpointId: endpoint.id, tenantId: d.tenantId, attempts: d.attempts, secrets: signingSecrets(endpoint, now) });
  }
  return out;
}

/**
 * Claims still-pending deliveries for the retry run `owner` (its workflow id): each one no run holds becomes its.
 * Answers the ids another run holds (a redelivery's, or the run of another window the same deliveries were handed to):
 * this run must leave them, so no delivery is retried on two schedules at once. One conditional UPDATE: of two runs
 * claiming at once, one wins.
 */
export async function claimDeliveriesForRetries(deliveryIds: readonly string[], owner: string): Promise<Set<string>> {
  if (deliveryIds.length === 0) return new Set();
  const ids = [...deliveryIds];
  await WebhookDelivery.update({ retryOwner: owner }, { where: { id: { [Op.in]: ids }, status: 'pending', retryOwner: null } });
  const held = await WebhookDelivery.findAll({ where: { id: { [Op.in]: ids }, retryOwner: { [Op.ne]: owner } }, attributes: ['id'] });
  return new Set(held.map((d) => d.id));
}

export interface AttemptInput {
  attempt: number;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The first KB of the answer (cut to 1024 bytes of UTF-8 here too). */
  responseExcerpt: string | null;
  /** The headers sent; null or absent when no POST was made. */
  requestHeaders?: LoggedHeaders | null;
  /** The receiver's answer headers; null or absent when no answer came. Bounded again here. */
  responseHeaders?: LoggedHeaders | null;
  succeeded: boolean;
}

/**
 * Logs one POST and updates the delivery: attempts + 1, last status code and error; a success makes it
 * `succeeded` with `delivered_at`. A failed attempt leaves the status alone (retries follow; the workflow calls
 * `markDeliveryFailed` when it gives up). A delivery deleted meanwhile is ignored.
 */
export async function recordAttempt(deliveryId: string, input: AttemptInput, opts: { clock?: Clock; transaction?: Transaction } = {}): Promise<void> {
  await recordAttempts([{ deliveryId, attempt: input }], opts);
}

/**
 * Logs attempts in one transaction (one, or the dispatcher's first attempts of a batch): one INSERT of the
 * log rows, and one UPDATE per distinct outcome (success, status code, error) rather than three statements per POST.
 * Deliveries deleted meanwhile are ignored.
 */
export async function recordAttempts(records: ReadonlyArray<{ deliveryId: string; attempt: AttemptInput }>, opts: { clock?: Clock; transaction?: Transaction } = {}): Promise<void> {
  if (records.length === 0) return;
  // The POSTs are made: a transaction that InnoDB chose as a deadlock's victim, or whose statement waited past the lock
  // timeout, is rolled back whole (the error leaves the transaction) and runs again here. Failing the activity instead
  // made Temporal retry it, POSTing the attempts again (seen in bench:webhooks beside a receiver that sleeps 30 s).
  // Inside a caller's transaction the caller decides.
  for (let tries = 1; ; tries++) {
    try {
      return await recordAttemptsOnce(records, opts);
    } catch (e) {
      if (opts.transaction || tries >= RECORD_TRIES || !isLockConflict(e)) throw e;
    }
  }
}

/** How many times `recordAttempts` runs its transaction before a lock conflict fails it. */
const RECORD_TRIES = 3;

async function recordAttemptsOnce(records: ReadonlyArray<{ deliveryId: string; attempt: AttemptInput }>, opts: { clock?: Clock; transaction?: Transaction }): Promise<void> {
  const now = clockOf(opts).now();
  await inTransaction(opts, async (transaction) => {
    const tenantOf = new Map(
      (await WebhookDelivery.findAll({ where: { id: { [Op.in]: records.map((r) => r.deliveryId) } }, attributes: ['id', 'tenantId'], transaction, lock: transaction.LOCK.UPDATE })).map(
        (d) => [d.id, d.tenantId],
      ),
    );
    const kept = records.filter((r) => tenantOf.has(r.deliveryId));
    if (kept.length === 0) return;
    await WebhookAttempt.bulkCreate(kept.map(({ deliveryId, attempt }) => attemptRow({ id: deliveryId, tenantId: tenantOf.get(deliveryId)! }, attempt, now)), { transaction });
    const byOutcome = new Map<string, { succeeded: boolean; statusCode: number | null; error: string | null; ids: string[] }>();
    for (const { deliveryId, attempt } of kept) {
      const error = attempt.succeeded ? null : clip(attempt.error);
      const key = JSON.stringify([attempt.succeeded, attempt.statusCode, error]);
      const group = byOutcome.get(key) ?? byOutcome.set(key, { succeeded: attempt.succeeded, statusCode: attempt.statusCode, error, ids: [] }).get(key)!;
      group.ids.push(deliveryId);
    }
    for (const g of byOutcome.values()) {
      await WebhookDelivery.update(
        {
          attempts: WebhookDelivery.sequelize!.literal('attempts + 1') as unknown as number,
          lastStatusCode: g.statusCode,
          lastError: g.error,
          ...(g.succeeded ? { status: 'succeeded' as const, deliveredAt: now } : {}),
        },
        { where: { id: { [Op.in]: g.ids } }, transaction },
      );
    }
  });
}

/** One row of the attempt log, bounded as the log keeps it. */
function attemptRow(delivery: { id: string; tenantId: number }, input: AttemptInput, now: Date) {
  return {
    tenantId: delivery.tenantId,
    deliveryId: delivery.id,
    attempt: Math.max(0, Math.trunc(input.attempt)),
    statusCode: input.statusCode,
    latencyMs: Math.max(0, Math.round(input.latencyMs)),
    error: input.succeeded ? null : clip(input.error),
    responseExcerpt: input.responseExcerpt == null ? null : firstBytes(input.responseExcerpt),
    requestHeaders: input.requestHeaders == null ? null : loggedHeaders(Object.entries(input.requestHeaders)),
    responseHeaders: input.responseHeaders == null ? null : loggedHeaders(Object.entries(input.responseHeaders)),
    createdAt: now,
  };
}

/** The workflow gave up (retries exhausted or a permanent failure). A delivery that succeeded stays so. */
export async function markDeliveryFailed(deliveryId: string, reason: string, opts: { transaction?: Transaction } = {}): Promise<void> {
  await WebhookDelivery.update(
    { status: 'failed', lastError: clip(reason) },
    { where: { id: deliveryId, status: { [Op.ne]: 'succeeded' } }, transaction: opts.transaction },
  );
}

/** How long a redelivery may say `pending` under its own run with no run going before the sweep starts one. */
export const UNSTARTED_REDELIVERY_MS = 2 * 60_000;

/** Where a delivery's own run (`webhook:<id>`) is: never started (or purged), going, or closed (its latest run started at `startedAt`). */
export type DeliveryRunState = { kind: 'missing' } | { kind: 'running' } | { kind: 'closed'; startedAt: Date };

export interface RedeliveryRuns {
  state(deliveryId: string): Promise<DeliveryRunState>;
  /** Starts the delivery's run again (`startDeliveryWorkflow` with `again`); a run already going is not an error. */
  start(deliveryId: string): Promise<void>;
}

/**
 * Redeliveries whose run never started: a redelivery commits the delivery as `pending` under its own run
 * (`retry_owner` = `webhook:<id>`) and then starts that run, so an API process that died in between left a delivery no
 * run would ever finish (receiver retry runs take only deliveries without an owner). A delivery in that state for
 * UNSTARTED_REDELIVERY_MS whose run is missing, or an earlier run (started before the delivery's last change; it may
 * have closed after it, as `redeliver` allows for), has its run started now; one whose own run (started after that
 * change) closed without an outcome (terminated in the Temporal UI) is failed, as a scan run closed that way is. A run
 * still going is left alone. Oldest first, at most `limit` a call.
 */
export async function resumeUnstartedRedeliveries(runs: RedeliveryRuns, opts: { now?: Date; limit?: number } = {}): Promise<{ started: string[]; failed: string[] }> {
  const now = opts.now ?? new Date();
  const rows = await WebhookDelivery.findAll({
    attributes: ['id', 'retryOwner', 'updatedAt'],
    where: { status: 'pending', updatedAt: { [Op.lt]: new Date(now.getTime() - UNSTARTED_REDELIVERY_MS) }, retryOwner: { [Op.like]: 'webhook:%' } },
    order: [['updatedAt', 'ASC']],
    limit: opts.limit ?? 50,
  });
  const started: string[] = [];
  const failed: string[] = [];
  for (const row of rows) {
    if (row.retryOwner !== deliveryWorkflowId(row.id)) continue;
    const state = await runs.state(row.id);
    if (state.kind === 'running') continue;
    if (state.kind === 'closed' && state.startedAt.getTime() >= row.updatedAt.getTime()) {
      const [n] = await WebhookDelivery.update(
        { status: 'failed', lastError: 'Its delivery run ended without an outcome; redeliver it to try again.' },
        { where: { id: row.id, status: 'pending', retryOwner: row.retryOwner, updatedAt: row.updatedAt } },
      );
      if (n) failed.push(row.id);
      continue;
    }
    await runs.start(row.id);
    started.push(row.id);
  }
  return { started, failed };
}

/**
 * A retry group gave up: what is still pending is failed, each keeping its last attempt's error as the reason. With
 * `owner` (the run's workflow id), only deliveries no other run holds (`claimDeliveriesForRetries`).
 */
export async function markDeliveriesGaveUp(deliveryIds: readonly string[], opts: { owner?: string; transaction?: Transaction } = {}): Promise<void> {
  if (deliveryIds.length === 0) return;
  const held = opts.owner === undefined ? {} : { [Op.or]: [{ retryOwner: null }, { retryOwner: opts.owner }] };
  await WebhookDelivery.update({ status: 'failed' }, { where: { id: { [Op.in]: [...deliveryIds] }, status: 'pending', ...held }, transaction: opts.transaction });
}

// ---------------------------------------------------------------------------------------------------------
// For the outbox dispatcher

export interface ClaimedEvent {
  eventId: number;
  /** Every delivery of the event (the same ids when claimed again); empty: already marked dispatched. */
  deliveryIds: string[];
}

/** Body bytes per INSERT of deliveries (well under the smallest default max_allowed_packet, 16 MB on MariaDB). */
const INSERT_BATCH_BYTES = 4 * 1024 * 1024;

interface PendingRow {
  id: number | string;
  tenantId: number;
  customerId: number | null;
  event: string;
  payload: string;
  occurredAt: Date;
}

/**
 * Up to `limit` undispatched outbox events, oldest first, each with one delivery per enabled receiver of the
 * event's account that existed when the event occurred. Deliveries are inserted with INSERT IGNORE on (outbox_event_id, endpoint_id), so claiming
 * again (a dispatcher retry) returns the same ids and makes no duplicates. Events whose account has no
 * enabled receiver are marked dispatched here and come back with no deliveries.
 */
export async function claimPendingEvents(limit: number, opts: { clock?: Clock; transaction?: Transaction } = {}): Promise<ClaimedEvent[]> {
  return (await claim(limit, opts)).events;
}

/**
 * `claimPendingEvents` with what the first attempts need, read in the same pass (the bodies are the events' own,
 * already in hand, so they are not read back): what the dispatcher's batch runs on. Deliveries whose receiver is gone
 * or disabled are not in `deliveries`.
 */
export async function claimForDelivery(
  limit: number,
  opts: { clock?: Clock; transaction?: Transaction; skip?: readonly number[] } = {},
): Promise<{ events: ClaimedEvent[]; deliveries: Map<string, DeliveryForBulk> }> {
  return claim(limit, opts);
}

async function claim(limit: number, opts: { clock?: Clock; transaction?: Transaction; skip?: readonly number[] }): Promise<{ events: ClaimedEvent[]; deliveries: Map<string, DeliveryForBulk> }> {
  const sequelize = OutboxEvent.sequelize!;
  const now = clockOf(opts).now();
  const transaction = opts.transaction;
  const n = Math.max(1, Math.min(1000, Math.trunc(limit)));
  // `skip`: events an earlier batch of the same dispatcher still hands over (not yet marked dispatched).
  const skip = opts.skip?.length ? [...opts.skip] : null;
  const events = await pendingEvents(n, skip, transaction);
  if (events.length === 0) return { events: [], deliveries: new Map() };
  const eventIds = events.map((e) => Number(e.id));

  const customerIds = [...new Set(events.map((e) => e.customerId).filter((c): c is number => c !== null))];
  // The agency (tenant owner) sees every account of its tenant, so its own receivers get every account's events.
  const tenantIds = [...new Set(events.map((e) => e.tenantId))];
  const agencyAccounts = new Set(
    (await User.findAll({ where: { tenantId: { [Op.in]: tenantIds }, role: 'tenant_owner' }, attributes: ['customerId'], transaction }))
      .map((u) => u.customerId)
      .filter((c): c is number => c !== null),
  );
  const endpoints = customerIds.length
    ? await WebhookEndpoint.findAll({
        where: { customerId: { [Op.in]: [...customerIds, ...agencyAccounts] }, enabled: true },
        order: [['id', 'ASC']],
        transaction,
      })
    : [];

  // Bodies can be large (a review message up to the 1 MB request limit): statements are cut by size so none
  // comes near the server's max_allowed_packet.
  let batch: unknown[][] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await sequelize.query(
      `INSERT IGNORE INTO webhook_deliveries
         (id, tenant_id, customer_id, endpoint_id, outbox_event_id, event, payload, status, attempts, created_at, updated_at)
       VALUES ${batch.map(() => "(?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)").join(', ')}`,
      { replacements: batch.flat(), type: QueryTypes.INSERT, transaction },
    );
    batch = [];
    bytes = 0;
  };
  for (const e of events) {
    for (const endpoint of endpoints) {
      if (endpoint.tenantId !== e.tenantId) continue;
      if (endpoint.customerId !== e.customerId && !agencyAccounts.has(endpoint.customerId)) continue;
      // A receiver gets what happens after it was added, not an older event still waiting in the outbox.
      if (endpoint.createdAt.getTime() > new Date(e.occurredAt).getTime()) continue;
      // A receiver that subscribed to some events only.
      if (endpoint.events && !endpoint.events.includes(e.event)) continue;
      const size = Buffer.byteLength(e.payload);
      if (batch.length > 0 && bytes + size > INSERT_BATCH_BYTES) await flush();
      // The delivery belongs to the receiver's account (its log is the receiver owner's to read).
      batch.push([randomUUID(), e.tenantId, endpoint.customerId, endpoint.id, Number(e.id), e.event, e.payload, now, now]);
      bytes += size;
    }
  }
  await flush();

  const rows = await sequelize.query<{ id: string; eventId: number | string; endpointId: number; tenantId: number; customerId: number; status: DeliveryStatus; attempts: number }>(
    `SELECT id, outbox_event_id AS eventId, endpoint_id AS endpointId, tenant_id AS tenantId, customer_id AS customerId, status, attempts
       FROM webhook_deliveries WHERE outbox_event_id IN (?) ORDER BY outbox_event_id, endpoint_id`,
    { replacements: [eventIds], type: QueryTypes.SELECT, transaction },
  );
  const byEvent = new Map<number, string[]>();
  for (const d of rows) {
    const key = Number(d.eventId);
    byEvent.set(key, [...(byEvent.get(key) ?? []), d.id]);
  }

  const idle = eventIds.filter((id) => !byEvent.has(id));
  if (idle.length) {
    await OutboxEvent.update({ dispatchedAt: now }, { where: { id: { [Op.in]: idle }, dispatchedAt: null }, transaction });
  }
  // A receiver disabled or deleted since the delivery was made (a claim after a crash) is left out: nothing is sent.
  const enabled = new Map(endpoints.map((e) => [e.id, e]));
  const missing = [...new Set(rows.map((d) => d.endpointId).filter((id) => !enabled.has(id)))];
  if (missing.length) {
    for (const e of await WebhookEndpoint.findAll({ where: { id: { [Op.in]: missing }, enabled: true }, transaction })) enabled.set(e.id, e);
  }
  const bodies = new Map(events.map((e) => [Number(e.id), e]));
  const deliveries = new Map<string, DeliveryForBulk>();
  for (const d of rows) {
    const endpoint = enabled.get(d.endpointId);
    const event = bodies.get(Number(d.eventId))!;
    if (!endpoint) continue;
    deliveries.set(d.id, {
      id: d.id,
      status: d.status,
      event: event.event,
      body: event.payload,
      url: endpoint.url,
      endpointId: endpoint.id,
      tenantId: d.tenantId,
      attempts: Number(d.attempts),
      secrets: signingSecrets(endpoint, now),
      label: { owner: { tenantId: d.tenantId, customerId: d.customerId }, event: event.event, url: endpoint.url },
    });
  }
  return { events: eventIds.map((eventId) => ({ eventId, deliveryIds: byEvent.get(eventId) ?? [] })), deliveries };
}

const PENDING_COLUMNS = 'id, tenant_id AS tenantId, customer_id AS customerId, event, payload, occurred_at AS occurredAt';

/** Tenants whose events share one claimed batch, at most (the others' turn comes with the next batches). */
const TENANTS_PER_BATCH = 20;
/** The last tenant a batch was shared with in this process: the next batch's tenants are those after it (round robin). */
let tenantCursor = -1;

/**
 * Up to `n` undispatched events (but those in `skip`), shared between the tenants that have some: each of up to 20 of
 * them (round robin over the tenants waiting, from the one after the last batch's) gets an equal part of the batch, its
 * oldest events first, and what a tenant leaves unused goes to the oldest events of any tenant. A tenant's burst of
 * thousands of events held every other tenant's first attempts behind it (one queue ordered by id); now another
 * tenant's event goes in the next batch, and a batch is as full as before. With one tenant waiting, as before: its
 * oldest `n`. Ordered by id (a receiver's first attempts go oldest first).
 */
async function pendingEvents(n: number, skip: number[] | null, transaction: Transaction | undefined): Promise<PendingRow[]> {
  const sequelize = OutboxEvent.sequelize!;
  const notSkipped = skip ? ' AND id NOT IN (?)' : '';
  const tenants = await waitingTenants(tenantCursor, Math.min(n, TENANTS_PER_BATCH), transaction);
  if (tenants.length <= 1) {
    return sequelize.query<PendingRow>(`SELECT ${PENDING_COLUMNS} FROM outbox_events WHERE dispatched_at IS NULL${notSkipped} ORDER BY id LIMIT ${n}`, {
      type: QueryTypes.SELECT,
      transaction,
      replacements: skip ? [skip] : undefined,
    });
  }
  tenantCursor = tenants[tenants.length - 1];
  const share = Math.floor(n / tenants.length);
  // Ids first (the bodies are read once, by id: a UNION of LONGTEXT rows would go through a temporary table).
  const parts = tenants.map(() => `(SELECT id FROM outbox_events WHERE dispatched_at IS NULL AND tenant_id = ?${notSkipped} ORDER BY id LIMIT ${share})`);
  const ids = (
    await sequelize.query<{ id: number | string }>(parts.join(' UNION ALL '), {
      type: QueryTypes.SELECT,
      transaction,
      replacements: tenants.flatMap((t) => (skip ? [t, skip] : [t])),
    })
  ).map((r) => Number(r.id));
  if (ids.length < n) {
    const taken = [...ids, ...(skip ?? [])];
    const more = await sequelize.query<{ id: number | string }>(
      `SELECT id FROM outbox_events WHERE dispatched_at IS NULL${taken.length ? ' AND id NOT IN (?)' : ''} ORDER BY id LIMIT ${n - ids.length}`,
      { type: QueryTypes.SELECT, transaction, replacements: taken.length ? [taken] : undefined },
    );
    ids.push(...more.map((r) => Number(r.id)));
  }
  if (ids.length === 0) return [];
  return sequelize.query<PendingRow>(`SELECT ${PENDING_COLUMNS} FROM outbox_events WHERE id IN (?) AND dispatched_at IS NULL ORDER BY id`, {
    type: QueryTypes.SELECT,
    transaction,
    replacements: [ids],
  });
}

/**
 * Up to `max` tenants with undispatched events, in tenant id order from the first after `after`, wrapping round to
 * the lowest. One index dive each (`outbox_events (dispatched_at, tenant_id, id)`, migration 20261222000300): MariaDB
 * will not skip-scan `GROUP BY tenant_id` under `dispatched_at IS NULL`, which read every waiting event's index entry
 * per batch (170 ms with 220,000 waiting).
 */
async function waitingTenants(after: number, max: number, transaction: Transaction | undefined): Promise<number[]> {
  const found: number[] = [];
  let cursor = after;
  let wrapped = false;
  while (found.length < max) {
    const [row] = await OutboxEvent.sequelize!.query<{ tenantId: number | string | null }>(
      'SELECT MIN(tenant_id) AS tenantId FROM outbox_events WHERE dispatched_at IS NULL AND tenant_id > ?',
      { type: QueryTypes.SELECT, transaction, replacements: [cursor] },
    );
    const tenant = row?.tenantId == null ? null : Number(row.tenantId);
    // Past the last tenant: round to the first; once round, up to where it started.
    if (tenant === null || (wrapped && tenant > after)) {
      if (wrapped) break;
      wrapped = true;
      cursor = -1;
      continue;
    }
    found.push(tenant);
    cursor = tenant;
  }
  return found;
}

/** The events' deliveries are all handled (succeeded, failed for good, or in their workflow): not claimed again. */
export async function markEventsDispatched(eventIds: readonly number[], opts: { clock?: Clock; transaction?: Transaction } = {}): Promise<void> {
  if (eventIds.length === 0) return;
  await OutboxEvent.update(
    { dispatchedAt: clockOf(opts).now() },
    { where: { id: { [Op.in]: [...eventIds] }, dispatchedAt: null }, transaction: opts.transaction },
  );
}
