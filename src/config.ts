import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { isLoopbackHost } from './net/address-policy';
import { parseTrustProxy } from './net/trust-proxy';

/** Every setting comes from the environment and is validated once, here. */
const variables = z.object({
  /**
   * `production` (the image), `development` (the embedded default) or `test` (Jest). Anything else is refused: a typo
   * of `production` used to run a server in demo mode (demo tenant seeded with its published password, tokens printed).
   */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  /** Public origin used for absolute URLs when a request is not at hand (CLI output, e-mails). */
  PUBLIC_URL: z.string().url().optional(),
  /**
   * Where server-side callers (workers) reach the provider simulators the API serves (`/simulators/...`): in compose
   * the API's service name (`http://api:3000`), since `PUBLIC_URL` is what browsers use. Unset: `PUBLIC_URL`.
   */
  SIMULATOR_BASE_URL: z.string().url().optional(),
  DATABASE_URL: z.string().default('mysql://root@127.0.0.1:3306/reviewgrid'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10),
  /** `redis://` or `rediss://` URL of the shared rate-limit store; unset or empty: limits in memory. */
  REDIS_URL: z
    .string()
    .optional()
    .refine((v) => !v || isRedisUrl(v), { message: 'a redis:// or rediss:// URL (unset or empty: rate limits in memory)' }),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /**
   * How long a process keeps the caller of a bearer token after looking it up (src/services/principal-cache.ts); 0: a
   * lookup per request. A change made in the process takes effect at once; a revocation answers after waiting this out.
   */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(5000).default(250),
  /** The agency API's own bucket (per token), apart from the customer API's and GraphQL's. */
  AGENCY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** Public pages (connect, report, unsubscribe, review): reads and form posts per client address per minute. */
  PAGE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  PAGE_POST_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  /**
   * Unsubscribes with a signed link (`POST /u/{token}`, mail providers' RFC 8058 one-click from their own servers):
   * per client address per minute, a bucket apart from the page posts' (a made-up token stays in theirs).
   */
  UNSUBSCRIBE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /**
   * MCP OAuth endpoints called by clients' servers (hosted connectors call for all their users from a few addresses),
   * per client address per minute, each apart from the pages': token and revocation requests; client registrations.
   */
  OAUTH_TOKEN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  OAUTH_REGISTRATION_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** Inbound contact webhook: requests per minute per client address that reach no endpoint (unknown tokens, other methods and paths). */
  INBOUND_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(300),
  /** MCP endpoint: calls per minute per token and per workspace (tenant). */
  MCP_RATE_LIMIT_PER_TOKEN: z.coerce.number().int().min(1).default(120),
  MCP_RATE_LIMIT_PER_WORKSPACE: z.coerce.number().int().min(1).default(600),
  /** Public `/graphql` limits (GraphQL Armor): depth, aliases, static cost, tokens and directives per operation. */
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(12),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(30),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(5000),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(1).default(5000),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).default(50),
  /**
   * Browser origins allowed to call the REST APIs, `/graphql` and MCP cross-origin (comma-separated, e.g.
   * `https://app.agency.example`); `*` allows any. Unset: no cross-origin browser access (servers are unaffected).
   */
  CORS_ORIGINS: z.string().default(''),
  /**
   * MCP DNS-rebinding protection (facades/mcp/origin.ts): browser origins and Host names the endpoint answers besides
   * PUBLIC_URL's, the tenants' domains and loopback (comma-separated; `*` in MCP_ALLOWED_HOSTS turns the Host check off).
   */
  MCP_ALLOWED_ORIGINS: z.string().default(''),
  MCP_ALLOWED_HOSTS: z.string().default(''),
  /**
   * Map tiles under the MCP App's scan grid (facades/mcp/apps): an XYZ URL template with {z}, {x} and {y}, https (http
   * only on loopback), and the attribution its provider asks for. Unset: the grid on a plain canvas, no request at all.
   */
  MCP_APP_TILE_URL: z.string().optional().refine((v) => !v || tileTemplateProblem(v) === null, { message: 'an https URL template with {z}, {x} and {y} (http only on loopback)' }),
  MCP_APP_TILE_ATTRIBUTION: z.string().default(''),
  /** Body limit for JSON and form bodies (uploads have their own 250 KB rule). */
  BODY_LIMIT: z
    .string()
    .default('1mb')
    .refine((v) => bodyLimitBytes(v) !== null, { message: 'a positive size such as 1mb, 512kb or 1048576 (bytes)' }),
  DATA_DIR: z.string().default(path.resolve(process.cwd(), 'data')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * `npm start` seeds the demo tenant into an empty database: "true", "false"; unset, on outside production
   * (`seedsDemo`). "true" with NODE_ENV=production is refused (`demoRefusal`).
   */
  SEED_DEMO: z.enum(['true', 'false']).optional(),
  /** false, true (one proxy in front), a number of proxies, or the proxies' addresses / CIDR ranges (src/net/trust-proxy.ts). */
  TRUST_PROXY: z
    .string()
    .default('false')
    .refine((v) => parseTrustProxy(v) !== null, 'TRUST_PROXY must be false, true (one proxy in front), a number of proxies, or a comma-separated list of proxy addresses or CIDR ranges.'),

  /** A Temporal cluster to use; unset, `npm start` runs the Temporal CLI dev server itself. */
  TEMPORAL_ADDRESS: z.string().optional(),
  TEMPORAL_NAMESPACE: z.string().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().default('reviewgrid'),
  /**
   * Worker slots of the main task queue (README "Worker tuning"): activities and workflow tasks run at once per worker
   * process, and workflows kept in its sticky cache (unset: the SDK's choice from the memory it may use).
   */
  TEMPORAL_WORKER_ACTIVITY_SLOTS: z.coerce.number().int().min(1).max(2000).default(100),
  TEMPORAL_WORKER_WORKFLOW_TASK_SLOTS: z.coerce.number().int().min(1).max(1000).default(40),
  /**
   * Workflows in a worker's sticky cache. Not the SDK's choice, which follows the heap limit (2,310 at Node's default
   * on a 24 GB machine, 23 under the production images' `--max-old-space-size=256`): a fixed 500 keeps the dispatchers,
   * scan runs and retry groups cached under either.
   */
  TEMPORAL_WORKER_CACHED_WORKFLOWS: z.coerce.number().int().min(0).max(100_000).default(500),
  /** Path of the `temporal` CLI for the embedded dev server (else found on PATH or in the project's cache). */
  TEMPORAL_CLI: z.string().optional(),
  TEMPORAL_DEV_PORT: z.coerce.number().int().min(1).max(65535).default(7233),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
  /** Run the worker inside the API process (the embedded default); production runs `npm run worker`. */
  WORKER_IN_PROCESS: z.enum(['true', 'false']).default('true'),
  /** How long a process waits at boot for the Temporal cluster at TEMPORAL_ADDRESS to answer before it gives up. */
  TEMPORAL_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(0).default(120_000),
  /**
   * Loopback port of the Temporal SDK's Prometheus exporter in processes that run a worker; its page is appended to
   * that process's `/metrics`. `0`: any free port (several workers per host), `off`: no SDK metrics.
   */
  TEMPORAL_METRICS_PORT: z.string().regex(/^(off|\d{1,5})$/, 'a port number, 0 (any free port) or "off"').default('0'),
  /** `npm run worker`: port of its `/health`, `/health/ready` and `/metrics` server (bound to HOST); 0 = none. */
  WORKER_HTTP_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  /** `/metrics` answers loopback clients, and anyone sending `Authorization: Bearer <METRICS_TOKEN>` when set. */
  METRICS_TOKEN: z.string().min(16).optional(),

  /** Outbound webhooks: per-attempt timeout and the retry schedule (10 retries over about 5 minutes). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(11),
  WEBHOOK_RETRY_INITIAL_MS: z.coerce.number().int().min(1).default(1_000),
  WEBHOOK_RETRY_MAX_INTERVAL_MS: z.coerce.number().int().min(1).default(59_000),
  /**
   * First attempts, made by the dispatcher in bulk: at most this many POSTs at once in a worker, and per receiver;
   * an attempt unanswered after WEBHOOK_HANDOFF_MS goes on in the background (its retries to a workflow), and its
   * receiver's next deliveries go straight to workflows for WEBHOOK_SLOW_RECEIVER_MS.
   */
  WEBHOOK_BULK_CONCURRENCY: z.coerce.number().int().min(1).default(64),
  WEBHOOK_BULK_PER_RECEIVER: z.coerce.number().int().min(1).default(8),
  WEBHOOK_HANDOFF_MS: z.coerce.number().int().min(1).default(250),
  WEBHOOK_SLOW_RECEIVER_MS: z.coerce.number().int().min(0).default(60_000),
  /**
   * Every attempt a worker makes: at most WEBHOOK_RECEIVER_MAX_IN_FLIGHT POSTs open to one receiver at once; once all
   * of them have waited WEBHOOK_RECEIVER_STALE_MS, further attempts to it are not sent (retried on the schedule).
   * Retries are handed to one workflow per receiver and WEBHOOK_RETRY_WINDOW_MS of hand-overs.
   */
  WEBHOOK_RECEIVER_MAX_IN_FLIGHT: z.coerce.number().int().min(1).default(16),
  WEBHOOK_RECEIVER_STALE_MS: z.coerce.number().int().min(1).default(5_000),
  WEBHOOK_RETRY_WINDOW_MS: z.coerce.number().int().min(1).default(10_000),
  /**
   * The webhook retry worker's slots (200 per worker process): a retry round waits at most WEBHOOK_RETRY_HANDOFF_MS for
   * its answers, then lets its slot go while the attempts still out go on (0: it waits for every answer); and one
   * tenant's rounds hold at most WEBHOOK_RETRY_TENANT_SLOTS of the slots at once (more wait their turn out of a slot).
   * The hand-off is off by default: with 1 s the webhook benchmark's steady phase after a phase with a receiver that
   * sleeps 30 s had a p99 of 499-542 ms instead of 34-56 ms, and two deliveries reached the healthy receiver twice
   * (docs/decisions/webhooks.md).
   */
  WEBHOOK_RETRY_HANDOFF_MS: z.coerce.number().int().min(0).default(0),
  WEBHOOK_RETRY_TENANT_SLOTS: z.coerce.number().int().min(1).default(50),
  /**
   * Receivers on private, loopback and link-local addresses are refused (SSRF) unless this is "true"
   * (local development, and tests whose receiver runs on this machine).
   */
  WEBHOOK_ALLOW_PRIVATE_URLS: z.enum(['true', 'false']).default('false'),
  /** DNS servers (`host[:port]`, comma-separated) for the guarded outbound client; unset: the system resolver. */
  OUTBOUND_DNS_SERVERS: z.string().default(''),
  /** How often the outbox dispatcher looks for events when nobody nudges it. */
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).default(1_000),

  /**
   * Key of the AES-256-GCM encryption of stored provider tokens: base64 of 32 bytes. Unset, one is generated
   * once and kept in `${DATA_DIR}/app.key` (mode 0600).
   */
  APP_KEY: z.string().optional(),
  /** A keyring: `id:base64key` entries, comma-separated, oldest first; the last encrypts, all decrypt. Overrides APP_KEY. */
  APP_KEYS: z.string().optional(),
  /**
   * Customer sign-in (connect links) with Google and Facebook: OAuth 2 authorization code + PKCE. A provider
   * whose CLIENT_ID is unset runs against the in-process simulator (`/simulators/{provider}/oauth`).
   */
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  GOOGLE_AUTH_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  FACEBOOK_CLIENT_ID: z.string().min(1).optional(),
  FACEBOOK_CLIENT_SECRET: z.string().optional(),
  FACEBOOK_AUTH_URL: z.string().url().default('https://www.facebook.com/v21.0/dialog/oauth'),
  FACEBOOK_TOKEN_URL: z.string().url().default('https://graph.facebook.com/v21.0/oauth/access_token'),

  /**
   * Review platform APIs. GOOGLE_API_URL unset = the real googleapis hosts (account management, business
   * information, v4 reviews); set = every path under that one base (a proxy, the simulator, a test server).
   * Either provider's base defaults to the in-process simulator while its OAuth client id is unset.
   */
  GOOGLE_API_URL: z.string().url().optional(),
  FACEBOOK_GRAPH_URL: z.string().url().optional(),
  /** How often each synced integration's reviews are fetched (one Temporal Schedule per integration). */
  REVIEW_SYNC_INTERVAL_MINUTES: z.coerce.number().int().min(1).default(60),
  /**
   * Google Business Profile Performance API (daily metrics, monthly search keywords). Unset: GOOGLE_API_URL when
   * set, else the in-process simulator while GOOGLE_CLIENT_ID is unset, else businessprofileperformance.googleapis.com.
   */
  GBP_PERFORMANCE_URL: z.string().url().optional(),
  /** How often the business-profile performance of every connected Google location is fetched (one Temporal Schedule). */
  GBP_SYNC_INTERVAL_MINUTES: z.coerce.number().int().min(1).default(360),
  /** Local Search Grid runs: provider queries in flight per run, per-tenant provider calls per second (per worker process), burst stagger step. */
  SCAN_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  SCAN_PROVIDER_RATE_PER_SECOND: z.coerce.number().min(0.1).default(20),
  SCAN_BURST_STAGGER_SECONDS: z.coerce.number().int().min(0).default(30),
  /**
   * Scan runs of one tenant that query the ranking provider at once (across every worker process); a tenant's further
   * runs wait their turn (running, progress 0) instead of filling the workers with its queries.
   */
  SCAN_MAX_RUNNING_PER_TENANT: z.coerce.number().int().min(1).max(1000).default(2),

  /**
   * Platform mail (customer invitations, connect links): a nodemailer connection URL such as
   * `smtp://user:pass@mail.example.com:587` or `smtps://...:465`. Unset (the embedded default), every message
   * is written as an .eml file under `${DATA_DIR}/mail/` instead.
   */
  SMTP_URL: z.string().url().optional(),
  /** SMTP connections kept open per server (the platform's and each account's own), reused message after message. */
  SMTP_POOL_SIZE: z.coerce.number().int().min(1).max(64).default(8),
  /**
   * "true" (default): SMTP messages are composed and sent by one mail thread per process, off the main thread
   * (src/providers/smtp/mail-thread.ts); "false": on the main thread.
   */
  SMTP_SEND_THREAD: z.enum(['true', 'false']).default('true'),
  /** Sender address of platform mail; the display name is the tenant's brand name. */
  MAIL_FROM: z.string().email().default('no-reply@reviewgrid.localhost'),

  /**
   * Review requests by SMS / messaging app for accounts without their own SMS settings: "true" sends them to the
   * in-process Twilio simulator (`/simulators/twilio`, nothing leaves the machine), "false" fails such steps with
   * `sms_not_configured`. Unset: on exactly in the embedded default (no TEMPORAL_ADDRESS), off in production.
   */
  SMS_SIMULATOR: z.enum(['true', 'false']).optional(),
  /** How often the invite dispatcher looks for due review requests when nobody nudges it (follow-ups, send windows). */
  INVITE_POLL_MS: z.coerce.number().int().min(10).default(1_000),
  /** Review-request steps one worker sends side by side. */
  INVITE_SEND_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(32),

  /**
   * Data retention (Temporal Schedule `retention-purge`, every RETENTION_INTERVAL_MINUTES): log rows older than their
   * kind's age in days are deleted, RETENTION_BATCH_SIZE rows per statement; 0 keeps that kind forever. Dispatched
   * outbox events, finished webhook deliveries (with their attempts), MCP audit entries, inbound webhook submissions.
   */
  RETENTION_OUTBOX_DAYS: z.coerce.number().int().min(0).default(7),
  RETENTION_WEBHOOK_DELIVERIES_DAYS: z.coerce.number().int().min(0).default(30),
  RETENTION_MCP_AUDIT_DAYS: z.coerce.number().int().min(0).default(365),
  RETENTION_INBOUND_SUBMISSIONS_DAYS: z.coerce.number().int().min(0).default(30),
  RETENTION_BATCH_SIZE: z.coerce.number().int().min(1).max(10_000).default(1_000),
  RETENTION_INTERVAL_MINUTES: z.coerce.number().int().min(1).default(1_440),

  /** The hour (UTC) on the 1st of each month when the `monthly-reports` and `monthly-scan-reports` schedules mail last month's reports. */
  MONTHLY_REPORT_HOUR_UTC: z.coerce.number().int().min(0).max(23).default(6),

  /**
   * Optional OpenAI-compatible chat API (`POST {AI_API_URL}/chat/completions`), e.g. `https://api.openai.com/v1`.
   * Unset, AI insights and AI replies use the deterministic text instead. `AI_API_TIMEOUT_MS` bounds one call.
   */
  AI_API_URL: z.string().url().optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().min(1).default('gpt-4o-mini'),
  AI_API_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
});

/** Settings that only make sense together. */
const schema = variables.superRefine((c, ctx) => {
  const refused = c.SEED_DEMO === 'true' ? demoRefusal(c) : null;
  if (refused) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['SEED_DEMO'], message: refused });
});

export type Config = z.infer<typeof variables>;

/**
 * Why the demo tenant may not be seeded here, or null: its users sign in with a published password, so never in a
 * production installation (`SEED_DEMO`, and the CLI's `demo:seed`).
 */
export function demoRefusal(config: Pick<Config, 'NODE_ENV'>): string | null {
  return config.NODE_ENV === 'production' ? 'the demo users sign in with a published password (demo-password): not with NODE_ENV=production' : null;
}

/** Whether `npm start` seeds the demo tenant into an empty database (SEED_DEMO; unset: on outside production). */
export function seedsDemo(config: Pick<Config, 'NODE_ENV' | 'SEED_DEMO'>): boolean {
  return (config.SEED_DEMO ?? (config.NODE_ENV === 'production' ? 'false' : 'true')) === 'true' && demoRefusal(config) === null;
}

/** body-parser's own size parser (the `bytes` package it resolves), so a limit accepted here is one it accepts. */
const parseBytes = (createRequire(require.resolve('body-parser'))('bytes') as { parse(value: string): number | null }).parse;

/** BODY_LIMIT in bytes as body-parser reads it, or null when it cannot (body-parser would throw building the app). */
export function bodyLimitBytes(value: string): number | null {
  const n = parseBytes(value);
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : null;
}

/** Whether REDIS_URL is a URL ioredis connects with: `redis://` or `rediss://` (TLS). */
function isRedisUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'redis:' || url.protocol === 'rediss:';
  } catch {
    return false;
  }
}

/** What is wrong with an XYZ tile URL template (MCP_APP_TILE_URL), or null. */
export function tileTemplateProblem(template: string): string | null {
  let url: URL;
  try {
    url = new URL(template.replace(/\{[a-z]\}/g, '0'));
  } catch {
    return 'not a URL';
  }
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) return 'not https (http only on loopback)';
  if (!['{z}', '{x}', '{y}'].every((p) => template.includes(p))) return 'without {z}, {x} and {y}';
  return null;
}

/** The variables the configuration reads: what an answer of `loadConfig` depends on. */
const VARIABLES = Object.keys(variables.shape);
let last: { env: NodeJS.ProcessEnv; values: string; config: Config } | null = null;

/**
 * The configuration from the environment. Parsed again only when one of its variables changed (a test may change
 * them), so hot paths can ask for it: parsing costs about 0.4 ms, and building an invite's links asked twice per
 * message (bench:invites: 15 % of the worker's CPU).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const values = VARIABLES.map((k) => env[k] ?? '\u0000').join('\u0001');
  if (last && last.env === env && last.values === values) return last.config;
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  // Shared by every caller until a variable changes: frozen, so no caller can change it for the others.
  last = { env, values, config: Object.freeze(parsed.data) };
  return last.config;
}

/**
 * Origin for absolute URLs built where no request is at hand (webhook payloads written by services):
 * `PUBLIC_URL`, else the local listener. Read per call (`loadConfig` parses again when a variable changed), so a test
 * can change the environment.
 */
export function publicBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  // Its two variables as they are now: unchanged, the answer is too, without reading every variable (`loadConfig`'s
  // check costs about 20 us; the worker asks per message: 7 % of its main thread's CPU while sending a campaign).
  const raw = `${env.PUBLIC_URL ?? ''}\u0001${env.PORT ?? ''}`;
  if (base && base.env === env && base.raw === raw) return base.url;
  const config = loadConfig(env);
  base = { env, raw, url: (config.PUBLIC_URL ?? `http://127.0.0.1:${config.PORT}`).replace(/\/+$/, '') };
  return base.url;
}
let base: { env: NodeJS.ProcessEnv; raw: string; url: string } | null = null;

/**
 * What is wrong with `PUBLIC_URL` for a production installation, or null (and always null outside production). The
 * links in mail (review requests, unsubscribe, reports, connect links) and the MCP sign-in's issuer on the platform
 * host are built from it with no request at hand, so a missing or loopback origin sends recipients links they cannot
 * open. Logged as a warning at start by the API and the worker; not refused, so a trial on one machine still runs.
 */
export function publicUrlProblem(config: Pick<Config, 'NODE_ENV' | 'PUBLIC_URL' | 'PORT'>): string | null {
  if (config.NODE_ENV !== 'production') return null;
  const links = 'the links in mail (review requests, unsubscribe, reports, connect links) and the MCP sign-in issuer';
  if (!config.PUBLIC_URL) return `PUBLIC_URL is not set: ${links} point at http://127.0.0.1:${config.PORT}, which no recipient can open; set it to the origin browsers use (https://...)`;
  const url = new URL(config.PUBLIC_URL);
  if (isLoopbackHost(url.hostname)) return `PUBLIC_URL (${url.origin}) is a loopback address: ${links} point at it, which no recipient can open; set it to the origin browsers use (https://...)`;
  if (url.protocol !== 'https:') return `PUBLIC_URL (${url.origin}) is not https: ${links} are plain http; put a TLS-terminating proxy in front and set https://... (README "Production")`;
  return null;
}

/**
 * Which providers a production API runs simulated, as a start warning, or null (always null outside production). A
 * provider without credentials runs against its built-in simulator, served by the API under `/simulators`: the
 * customers' connect links then sign in there, not at Google or Facebook, and review requests by SMS go nowhere.
 * Right for a trial; logged, not refused.
 */
export function simulatorProblem(config: Pick<Config, 'NODE_ENV' | 'GOOGLE_CLIENT_ID' | 'FACEBOOK_CLIENT_ID' | 'SMS_SIMULATOR' | 'TEMPORAL_ADDRESS'>): string | null {
  if (config.NODE_ENV !== 'production') return null;
  const simulated = [
    ...(config.GOOGLE_CLIENT_ID ? [] : ['Google (GOOGLE_CLIENT_ID unset)']),
    ...(config.FACEBOOK_CLIENT_ID ? [] : ['Facebook (FACEBOOK_CLIENT_ID unset)']),
    ...(smsSimulatorOn(config) ? ['SMS (SMS_SIMULATOR)'] : []),
  ];
  if (simulated.length === 0) return null;
  return `Simulated providers: ${simulated.join(', ')}. Their built-in simulators are served under /simulators: connect links sign in there, not at the provider, and simulated SMS are not delivered. Configure the providers for real use (README "Production").`;
}

const smsSimulatorOn = (config: Pick<Config, 'SMS_SIMULATOR' | 'TEMPORAL_ADDRESS'>): boolean =>
  config.SMS_SIMULATOR ? config.SMS_SIMULATOR === 'true' : !config.TEMPORAL_ADDRESS;

/** Origin of the in-process provider simulators for server-side calls: `SIMULATOR_BASE_URL`, else `publicBaseUrl()`. */
export function simulatorBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const configured = loadConfig(env).SIMULATOR_BASE_URL;
  return configured ? configured.replace(/\/+$/, '') : publicBaseUrl(env);
}

/** Whether SMS / messaging-app review requests without per-account settings go to the Twilio simulator. */
export function smsSimulatorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const config = loadConfig(env);
  return smsSimulatorOn(config);
}

/** Whether webhook receivers on private addresses are allowed (see `WEBHOOK_ALLOW_PRIVATE_URLS`). */
export const webhookPrivateUrlsAllowed = (env: NodeJS.ProcessEnv = process.env): boolean =>
  loadConfig(env).WEBHOOK_ALLOW_PRIVATE_URLS === 'true';
