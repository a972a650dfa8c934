import type { Sequelize } from 'sequelize';
import { QueryTypes } from 'sequelize';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's one Prometheus registry (`GET /metrics`). Labels are bounded by construction: route templates, never
 * raw URLs or ids; channels, outcomes and limiters from fixed sets. Counters count what this process did: a
 * dashboard sums them over every API and worker instance.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

const registers = [registry];

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by route template (graphql:<operation>, mcp:<tool or method>, <mount>/*, other), method (OTHER for any outside GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS) and status.',
  labelNames: ['route', 'method', 'status'] as const,
  registers,
});

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from the request to the end of its response, by route template, method and status.',
  labelNames: ['route', 'method', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers,
});

export const webhookDeliveries = new Counter({
  name: 'webhook_deliveries_total',
  help: 'Outbound webhook delivery attempts by outcome (succeeded, failed) and attempt number (1, 2-3, 4+).',
  labelNames: ['outcome', 'attempt'] as const,
  registers,
});

/** Attempt numbers in three buckets: first try, early retries, the long tail (bounded label values). */
export const attemptBucket = (attempt: number): '1' | '2-3' | '4+' => (attempt <= 1 ? '1' : attempt <= 3 ? '2-3' : '4+');

export const invitesSent = new Counter({
  name: 'invites_sent_total',
  help: 'Review-request messages handed to the provider, by channel.',
  labelNames: ['channel'] as const,
  registers,
});

export const invitesFailed = new Counter({
  name: 'invites_failed_total',
  help: 'Review-request messages recorded as failed, by channel.',
  labelNames: ['channel'] as const,
  registers,
});

export const scanRuns = new Counter({
  name: 'scan_runs_total',
  help: 'Local Search Grid runs finished, by outcome (completed, failed).',
  labelNames: ['outcome'] as const,
  registers,
});

export const scanPins = new Counter({
  name: 'scan_pins_total',
  help: 'Grid pins queried and stored by scan runs (rate() gives pins per second).',
  registers,
});

export type Limiter = 'rest' | 'agency' | 'pages' | 'unsubscribe' | 'oauth_token' | 'oauth_registration' | 'auth_failures' | 'mcp_token' | 'mcp_workspace' | 'mcp_auth_failures' | 'inbound_webhook';

export const rateLimitRejections = new Counter({
  name: 'rate_limit_rejections_total',
  help: 'Requests refused with 429 by a rate limiter (rest, agency, pages, unsubscribe, oauth_token, oauth_registration, auth_failures, mcp_token, mcp_workspace, mcp_auth_failures, inbound_webhook).',
  labelNames: ['limiter'] as const,
  registers,
});

export const rateLimited = (limiter: Limiter): void => rateLimitRejections.inc({ limiter });

// ---- outbox, measured at scrape time ---------------------------------------------------------------------

let outboxSource: (() => Sequelize | null | undefined) | null = null;
let outboxReading: Promise<{ backlog: number; lagSeconds: number } | null> | null = null;

/** One cheap query per scrape (the pending index covers it), shared by both gauges of that scrape. */
function readOutbox(): Promise<{ backlog: number; lagSeconds: number } | null> {
  const sequelize = outboxSource?.();
  if (!sequelize) return Promise.resolve(null);
  outboxReading ??= sequelize
    .query<{ backlog: number | string; oldest: Date | null }>('SELECT COUNT(*) AS backlog, MIN(occurred_at) AS oldest FROM outbox_events WHERE dispatched_at IS NULL', {
      type: QueryTypes.SELECT,
      logging: false,
    })
    .then(([row]) => ({
      backlog: Number(row?.backlog ?? 0),
      lagSeconds: row?.oldest ? Math.max(0, (Date.now() - new Date(row.oldest).getTime()) / 1000) : 0,
    }))
    // A scrape while the database is away shows no outbox values rather than failing the whole page.
    .catch(() => null)
    .finally(() => {
      outboxReading = null;
    });
  return outboxReading;
}

new Gauge({
  name: 'outbox_backlog',
  help: 'Outbox events not yet handed to delivery (undispatched rows).',
  registers,
  async collect() {
    const r = await readOutbox();
    if (r) this.set(r.backlog);
    else this.reset();
  },
});

new Gauge({
  name: 'outbox_lag_seconds',
  help: 'Age in seconds of the oldest undispatched outbox event (0 when none waits).',
  registers,
  async collect() {
    const r = await readOutbox();
    if (r) this.set(r.lagSeconds);
    else this.reset();
  },
});

/** Where the outbox gauges read from (the process's database); unset, they are left out of the page. */
export function observeOutbox(source: () => Sequelize | null | undefined): void {
  outboxSource = source;
}
