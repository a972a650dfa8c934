import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { Op, type Transaction } from 'sequelize';
import { awaitDeliveryClosed, deliveryWorkflowId, startDeliveryWorkflow, type DeliveryLabel } from '../../workflows/client';
import { Conflict, Forbidden, NotFound, ruleViolation, Upstream, Validation } from '../domain/errors';
import { isWebhookEvent, WEBHOOK_EVENTS } from '../domain/events';
import { charCount, MAX_NAME_CHARS } from '../domain/limits';
import { isTeamMember } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Customer, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../models';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../models/webhook-delivery.model';
import { loadConfig } from '../config';
import { guardedFetch, refusedCause } from '../net/guarded-fetch';
import { readExcerpt } from '../webhooks/delivery-log';
import { generateSecret, signatureHeaders, WEBHOOK_USER_AGENT } from '../webhooks/signing';
import { assertDeliverableUrl, type HostLookup } from '../webhooks/url';
import { clockOf, inTransaction, offset, tenantScoped, type Page, type PageArgs, type ServiceOptions } from './common';
import { UUID } from '../domain/ids';

/**
 * Outbound webhooks of an account ("API and webhooks" settings): receivers (endpoints) with their signing
 * secrets, the delivery log, redelivery; and what the outbox dispatcher and the delivery activity need.
 * Only account owners manage them: a tenant owner or organisation owner, for their own account; team members
 * get 403.
 */

/** How long the previous secret keeps signing after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Receivers per account: every event fans out to each of them. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 20;
/** Longest error kept per attempt and delivery (the column width); the answer's excerpt is 1 KB (delivery-log.ts). */
export const EXCERPT_CHARS = 500;

export interface WebhookServiceOptions extends ServiceOptions {
  /** Overrides `WEBHOOK_ALLOW_PRIVATE_URLS`. */
  allowPrivateUrls?: boolean;
  /** Resolver for receiver host names (tests); default: the system's `dns.lookup`. */
  lookup?: HostLookup;
  deps?: {
    /** Starts the delivery workflow `webhook:<id>`; default: `startDeliveryWorkflow` of workflows/client. */
    startDelivery?: (deliveryId: string, label?: DeliveryLabel) => Promise<void>;
  };
}

export const clip = (s: string | null | undefined, max = EXCERPT_CHARS): string | null => {
  if (s === null || s === undefined) return null;
  const chars = [...s];
  return chars.length > max ? chars.slice(0, max).join('') : s;
};

function accountOf(p: Principal): number {
  if (isTeamMember(p)) throw new Forbidden('Only account owners can manage webhooks.');
  if (p.customerId == null) throw new NotFound('Account');
  return p.customerId;
}

async function endpointOf(p: Principal, id: number, transaction?: Transaction, lock = false): Promise<WebhookEndpoint> {
  const customerId = accountOf(p);
  const endpoint = await WebhookEndpoint.findOne({
    where: { id, ...tenantScoped(p), customerId },
    transaction,
    lock: lock && transaction ? transaction.LOCK.UPDATE : undefined,
  });
  if (!endpoint) throw new NotFound('Webhook');
  return endpoint;
}

function cleanDescription(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  if (!trimmed) return null;
  if (charCount(trimmed) > MAX_NAME_CHARS) throw new Validation({ description: [`The description may not be greater than ${MAX_NAME_CHARS} characters.`] });
  return trimmed;
}

/** A receiver's event filter: known event names, at least one, each once; null (or absent) is every event. */
function checkedEvents(events: string[] | null | undefined): string[] | null {
  if (events === null || events === undefined) return null;
  if (events.length === 0) throw new Validation({ events: ['The events must name at least one event (or be null for every event).'] });
  const unknown = events.filter((e) => !isWebhookEvent(e));
  if (unknown.length) throw new Validation({ events: [`Unknown events: ${unknown.join(', ')}. Known: ${WEBHOOK_EVENTS.join(', ')}.`] });
  return [...new Set(events)];
}

async function checkedUrl(url: string, opts: WebhookServiceOptions): Promise<string> {
  return (await assertDeliverableUrl(url, { allowPrivate: opts.allowPrivateUrls, lookup: opts.lookup })).url;
}

/** The secrets that sign a delivery at `now`: the current one, then the previous one during its overlap. */
export function signingSecrets(endpoint: Pick<WebhookEndpoint, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>, now: Date): string[] {
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt.getTime() > now.getTime()) {
    secrets.push(endpoint.previousSecret);
  }
  return secrets;
}

// ---------------------------------------------------------------------------------------------------------
// Endpoints

export async function listEndpoints(p: Principal, f: PageArgs, opts: ServiceOptions = {}): Promise<Page<WebhookEndpoint>> {
  const customerId = accountOf(p);
  const { rows, count } = await WebhookEndpoint.findAndCountAll({
    where: { ...tenantScoped(p), customerId },
    order: [['id', 'ASC']],
    transaction: opts.transaction,
    ...offset(f),
  });
  return { items: rows, total: count, page: f.page, perPage: f.perPage };
}

export function getEndpoint(p: Principal, id: number, opts: ServiceOptions = {}): Promise<WebhookEndpoint> {
  return endpointOf(p, id, opts.transaction);
}

export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

/** A new receiver with a fresh secret (returned here so the customer can configure their side). */
export async function createEndpoint(
  p: Principal,
  input: { url: string; description?: string | null; enabled?: boolean | null; events?: string[] | null },
  opts: WebhookServiceOptions = {},
): Promise<EndpointWithSecret> {
  const customerId = accountOf(p);
  const description = cleanDescription(input.description);
  const events = checkedEvents(input.events);
  // Resolved before the transaction: a slow resolver must not hold the account lock.
  const url = await checkedUrl(input.url, opts);
  return inTransaction(opts, async (transaction) => {
    // The account row serialises concurrent creations, so the limit holds.
    await Customer.findByPk(customerId, { transaction, lock: transaction.LOCK.UPDATE });
    const existing = await WebhookEndpoint.count({ where: { customerId }, transaction });
    if (existing >= MAX_ENDPOINTS_PER_ACCOUNT) {
      throw ruleViolation(`An account can have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhooks.`, 'webhook_limit');
    }
    const secret = generateSecret();
    const endpoint = await WebhookEndpoint.create(
      { tenantId: p.tenantId, customerId, url, description, secret, previousSecret: null, previousSecretExpiresAt: null, enabled: input.enabled ?? true, events },
      { transaction },
    );
    return { endpoint, secret };
  });
}

/** Changes the fields that are given; `description: null` clears it. */
export async function updateEndpoint(
  p: Principal,
  id: number,
  input: { url?: string | null; description?: string | null; enabled?: boolean | null; events?: string[] | null },
  opts: WebhookServiceOptions = {},
): Promise<WebhookEndpoint> {
  await endpointOf(p, id, opts.transaction); // 404 before the URL is looked at
  const events = input.events !== undefined ? checkedEvents(input.events) : undefined;
  const url = input.url != null ? await checkedUrl(input.url, opts) : undefined;
  return inTransaction(opts, async (transaction) => {
    const endpoint = await endpointOf(p, id, transaction, true);
    const patch: Partial<Pick<WebhookEndpoint, 'url' | 'description' | 'enabled' | 'events'>> = {};
    if (events !== undefined) patch.events = events;
    if (url !== undefined) patch.url = url;
    if (input.description !== undefined) patch.description = cleanDescription(input.description);
    if (input.enabled != null) patch.enabled = input.enabled;
    endpoint.set(patch);
    if (endpoint.changed()) await endpoint.save({ transaction });
    return endpoint;
  });
}

/** Deletes the receiver with its delivery log; deliveries in flight find it gone and stop. */
export async function deleteEndpoint(p: Principal, id: number, opts: ServiceOptions = {}): Promise<WebhookEndpoint> {
  return inTransaction(opts, async (transaction) => {
    const endpoint = await endpointOf(p, id, transaction, true);
    await endpoint.destroy({ transaction });
    return endpoint;
  });
}

/**
 * A new secret; the old one keeps signing (as a second `v1,` signature) for 24 hours, so the receiver can
 * switch over without a failed delivery. Only one previous secret is kept: rotating again within the overlap
 * ends the older one at once.
 */
export async function rotateSecret(p: Principal, id: number, opts: ServiceOptions = {}): Promise<EndpointWithSecret> {
  const now = clockOf(opts).now();
  return inTransaction(opts, async (transaction) => {
    const endpoint = await endpointOf(p, id, transaction, true);
    const secret = generateSecret();
    await endpoint.update(
      { previousSecret: endpoint.secret, previousSecretExpiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS), secret },
      { transaction },
    );
    return { endpoint, secret };
  });
}

/** The current secret, for an owner configuring their receiver again (the API asks for the write permission). */
export async function revealSecret(p: Principal, id: number, opts: ServiceOptions = {}): Promise<string> {
  return (await endpointOf(p, id, opts.transaction)).secret;
}

export interface WebhookTestResult {
  /** The `webhook-id` the ping was signed with. */
  webhookId: string;
  /** The receiver answered 2xx. */
  delivered: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The first kilobyte of the receiver's answer. */
  responseExcerpt: string | null;
  sentAt: Date;
}

/** The longest a test event waits for the receiver (the caller waits with it). */
const TEST_TIMEOUT_MS = 10_000;

/**
 * `POST /webhooks/{id}/test`: one signed `ping` to the receiver now, through the same guarded client, signature and
 * user agent as a delivery, answered with what the receiver said. A test is not an event: it is not retried and not
 * written to the delivery log. Refused addresses and connection failures are answered (`delivered: false` with the
 * reason), not thrown: the caller is checking its receiver.
 */
export async function sendTestEvent(p: Principal, id: number, opts: ServiceOptions = {}): Promise<WebhookTestResult> {
  const endpoint = await endpointOf(p, id, opts.transaction);
  const config = loadConfig();
  const allowPrivate = config.WEBHOOK_ALLOW_PRIVATE_URLS === 'true';
  const sentAt = clockOf(opts).now();
  const webhookId = `ping_${randomUUID()}`;
  const body = JSON.stringify({ webhook_event: 'ping', webhook_id: endpoint.id, sent_at: sentAt.toISOString(), message: 'A test event: the receiver is reachable and can check the signature.' });
  const started = Date.now();
  const result = (r: Partial<WebhookTestResult>): WebhookTestResult => ({
    webhookId,
    delivered: false,
    statusCode: null,
    latencyMs: Date.now() - started,
    error: null,
    responseExcerpt: null,
    sentAt,
    ...r,
  });
  try {
    await assertDeliverableUrl(endpoint.url, { allowPrivate, resolve: false });
    const response = await guardedFetch(
      endpoint.url,
      {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/json', 'User-Agent': WEBHOOK_USER_AGENT, ...signatureHeaders({ id: webhookId, timestamp: sentAt, body, secrets: signingSecrets(endpoint, sentAt) }) },
        body,
        signal: AbortSignal.timeout(Math.min(config.WEBHOOK_TIMEOUT_MS, TEST_TIMEOUT_MS)),
      },
      { allowPrivate },
    );
    const text = await readExcerpt(response);
    const ok = response.status >= 200 && response.status < 300;
    return result({ delivered: ok, statusCode: response.status, responseExcerpt: text || null, error: ok ? null : `The receiver answered ${response.status}` });
  } catch (e) {
    const refused = refusedCause(e);
    if (refused) return result({ error: refused.message });
    if (e instanceof Validation) return result({ error: e.message });
    const timeout = e instanceof Error && e.name === 'TimeoutError';
    const cause = e instanceof Error && e.cause instanceof Error ? e.cause.message : e instanceof Error ? e.message : String(e);
    return result({ error: timeout ? `No answer within ${Math.min(config.WEBHOOK_TIMEOUT_MS, TEST_TIMEOUT_MS)} ms` : `Connection failed: ${cause}` });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Deliveries

export interface DeliveryFilter extends PageArgs {
  endpointId?: number | null;
  event?: string | null;
  status?: string | null;
}

/** The account's deliveries, newest first; a receiver of another account is 404 (it names a resource). */
export async function listDeliveries(p: Principal, f: DeliveryFilter, opts: ServiceOptions = {}): Promise<Page<WebhookDelivery>> {
  const customerId = accountOf(p);
  const where: Record<string, unknown> = { ...tenantScoped(p), customerId };
  const invalid: Record<string, string[]> = {};
  if (f.status != null) {
    if ((DELIVERY_STATUSES as readonly string[]).includes(f.status)) where.status = f.status;
    else invalid.status = [`The status must be one of: ${DELIVERY_STATUSES.join(', ')}.`];
  }
  if (f.event != null) {
    if (isWebhookEvent(f.event)) where.event = f.event;
    else invalid.event = [`The event must be one of: ${WEBHOOK_EVENTS.join(', ')}.`];
  }
  if (Object.keys(invalid).length) throw new Validation(invalid);
  if (f.endpointId != null) {
    await endpointOf(p, f.endpointId, opts.transaction);
    where.endpointId = f.endpointId;
  }
  const { rows, count } = await WebhookDelivery.findAndCountAll({
    where,
    order: [
      ['createdAt', 'DESC'],
      ['outboxEventId', 'DESC'],
      ['endpointId', 'ASC'],
    ],
    transaction: opts.transaction,
    ...offset(f),
  });
  return { items: rows, total: count, page: f.page, perPage: f.perPage };
}

export async function getDelivery(p: Principal, id: string, opts: ServiceOptions = {}): Promise<WebhookDelivery> {
  const customerId = accountOf(p);
  if (!UUID.test(id)) throw new NotFound('Webhook delivery');
  const delivery = await WebhookDelivery.findOne({
    where: { id: id.toLowerCase(), ...tenantScoped(p), customerId },
    transaction: opts.transaction,
    lock: opts.transaction ? opts.transaction.LOCK.UPDATE : undefined,
  });
  if (!delivery) throw new NotFound('Webhook delivery');
  return delivery;
}

/** The attempts of some deliveries of the caller's tenant, in order (the per-request loader batches on this). */
export function attemptsOf(p: Principal, deliveryIds: readonly string[]): Promise<WebhookAttempt[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return WebhookAttempt.findAll({
    where: { ...tenantScoped(p), deliveryId: { [Op.in]: [...deliveryIds] } },
    order: [['id', 'ASC']],
  });
}

/** What `redeliver` changes on a delivery, as it was before (`attempts` only to tell whether a run touched it since). */
interface Previous {
  status: DeliveryStatus;
  deliveredAt: Date | null;
  retryOwner: string | null;
  updatedAt: Date;
  attempts: number;
}

/**
 * A redelivery whose workflow could not be started puts the delivery back as it was, `updated_at` included: only if
 * it is still as the redelivery left it (pending, not delivered, held by `webhook:<id>`, no attempt since), so a run
 * that has since taken it or recorded an attempt keeps its outcome.
 */
async function restoreUnqueued(id: string, previous: Previous): Promise<void> {
  await WebhookDelivery.update(
    { status: previous.status, deliveredAt: previous.deliveredAt, retryOwner: previous.retryOwner, updatedAt: previous.updatedAt },
    {
      where: { id, status: 'pending', deliveredAt: null, retryOwner: deliveryWorkflowId(id), attempts: previous.attempts },
      silent: true,
    },
  );
}

/**
 * Sends a delivery again: same id (the receiver's `webhook-id`, so it can deduplicate), same body, newly
 * signed. The delivery goes back to `pending` and its workflow is started (a new run of `webhook:<id>`; if one
 * is still running, that run carries on). If the engine cannot be reached the caller gets 502 `delivery_not_queued`,
 * to try again, and the delivery is put back exactly as it was (status, `delivered_at`, the retry run holding it,
 * `updated_at`): a delivery that had failed or succeeded does not stay pending with no run to finish it.
 */
export async function redeliver(p: Principal, deliveryId: string, opts: WebhookServiceOptions = {}): Promise<WebhookDelivery> {
  let previous: Previous | null = null;
  let label: DeliveryLabel | undefined;
  const delivery = await inTransaction(opts, async (transaction) => {
    const found = await getDelivery(p, deliveryId, { transaction });
    previous = { status: found.status, deliveredAt: found.deliveredAt, retryOwner: found.retryOwner, updatedAt: found.updatedAt, attempts: found.attempts };
    const endpoint = await WebhookEndpoint.findByPk(found.endpointId, { transaction });
    if (!endpoint || !endpoint.enabled) {
      throw ruleViolation('The webhook is disabled: enable it before redelivering.', 'webhook_disabled');
    }
    // The redelivery's run takes the delivery over: a receiver's retry run still holding it leaves it at its next round.
    await found.update({ status: 'pending', deliveredAt: null, retryOwner: deliveryWorkflowId(found.id) }, { transaction });
    label = { owner: { tenantId: found.tenantId, customerId: found.customerId }, event: found.event, url: endpoint.url };
    return found;
  });
  const start = opts.deps?.startDelivery ?? ((id: string) => startDeliveryWorkflow(id, { again: true, label }));
  const finished = previous !== null && (previous as Previous).status !== 'pending';
  try {
    try {
      await start(delivery.id);
    } catch (e) {
      // Stored as finished by its last activity, its run may not have closed yet: wait for the close, once.
      if (!(e instanceof WorkflowExecutionAlreadyStartedError) || !finished) throw e;
      await awaitDeliveryClosed(delivery.id);
      await start(delivery.id);
    }
  } catch (e) {
    if (e instanceof WorkflowExecutionAlreadyStartedError) {
      // Its run is still retrying: that run decides the outcome; nothing is queued twice.
      if (previous) await restoreUnqueued(delivery.id, previous);
      throw new Conflict('The delivery is still in progress; redeliver it once it has finished.', 'delivery_in_progress');
    }
    // Not queued: the delivery goes back to what it was (a retry run that held it keeps it).
    if (previous) await restoreUnqueued(delivery.id, previous);
    throw new Upstream('The delivery could not be queued; try again.', 'delivery_not_queued');
  }
  return delivery;
}
