import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit, type Logger as LimiterLogger, type Options, type Store } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type Redis from 'ioredis';
import pino, { type Logger } from 'pino';
import { bearerHashOf } from './auth';
import { rateLimited } from '../../src/observability/metrics';
import { signInEmail } from '../../src/domain/email';
import { LOG_REDACTION } from '../../src/observability/log-redaction';

export interface RateLimitOptions {
  perMinute: number;
  /** When given, every API process shares one budget per token through Redis. */
  redis?: Redis | null;
  prefix: string;
  /** The metric label of its rejections (default `rest`). */
  limiter?: 'rest' | 'agency';
}

/** Key: the token (hashed, so the secret never reaches the store), else the client address. */
function keyOf(req: Request): string {
  const digest = bearerHashOf(req);
  if (digest) return `t:${digest}`;
  return `ip:${ipKeyGenerator(req.ip ?? '0.0.0.0')}`;
}

/**
 * A Redis-backed limit store (rate-limit-redis). Its constructor starts loading its two Lua scripts and keeps the
 * promises for its first calls, with nobody waiting on them yet: with Redis down at start they rejected unhandled
 * (MaxRetriesPerRequestError) and took the process down after "API up". They are caught here and logged
 * (`warnStoreUnavailable`); the store's calls still fail while Redis is away (each loads its script again first), and
 * a failing store lets requests through, as everywhere else (`passOnStoreError`, the MCP and sign-in limits' catches).
 *
 * While the client has lost Redis and waits to reconnect, a call fails at once rather than waiting in ioredis' offline
 * queue for the next connection attempts (seconds each, for every limited request). Until the client's first
 * connection is up, calls still queue: a process that has just started does not pass its first requests unlimited.
 */
export function redisStore(client: Redis, prefix: string, log?: Logger): RedisStore {
  const store = new RedisStore({
    prefix,
    sendCommand: (command: string, ...args: string[]) =>
      REDIS_AWAY.has(client.status)
        ? Promise.reject(new Error(`Redis connection is ${client.status}`))
        : (client.call(command, ...args) as Promise<RedisReply>),
  });
  const unavailable = (err: unknown) => warnStoreUnavailable(err, log);
  store.incrementScriptSha.catch(unavailable);
  store.getScriptSha.catch(unavailable);
  return store;
}

/** ioredis client states in which Redis was lost (or given up): between reconnection attempts, or closed for good. */
const REDIS_AWAY = new Set(['reconnecting', 'close', 'end']);

/** At most one warning a minute per process: every store fails at once when Redis is away, on every request. */
const STORE_WARNING_EVERY_MS = 60_000;
let lastStoreWarning = -Infinity;

function warnStoreUnavailable(err: unknown, log: Logger | undefined): void {
  const now = Date.now();
  if (now - lastStoreWarning < STORE_WARNING_EVERY_MS) return;
  lastStoreWarning = now;
  // The facades' loggers when given; the REST and page limits have none, so one like the product's (src/bootstrap.ts).
  const logger = log ?? defaultLogger();
  logger.warn(
    { err: { name: (err as Error)?.name, message: err instanceof Error ? err.message : String(err) } },
    'rate-limit store: Redis did not answer; requests pass without the shared limits until it does',
  );
}

let fallbackLogger: Logger | undefined;
const defaultLogger = (): Logger =>
  (fallbackLogger ??= pino({ level: process.env.LOG_LEVEL || 'info', base: { service: 'reviewgrid' }, redact: LOG_REDACTION }));

/**
 * express-rate-limit's logger: a store error (a request let through) is the throttled JSON warning above instead of
 * the library's stack trace on stderr for every request; its configuration checks go to the log as they are.
 */
const limiterLogger: LimiterLogger = {
  error(err: unknown, message?: string) {
    if (message?.includes('error from store')) return warnStoreUnavailable(err, undefined);
    defaultLogger().error({ err }, message ?? 'express-rate-limit');
  },
  warn(err: unknown, message?: string) {
    defaultLogger().warn({ err }, message ?? 'express-rate-limit');
  },
};

/** 60 requests per minute per token; `X-RateLimit-Limit`/`-Remaining` on every response, 429 + `Retry-After`. */
function storeFor(opts: Pick<RateLimitOptions, 'redis' | 'prefix'>): Store | undefined {
  if (!opts.redis) return undefined;
  return redisStore(opts.redis, `${opts.prefix}:`);
}

export function restRateLimit(opts: RateLimitOptions): RequestHandler {
  const store = storeFor(opts);
  return rateLimit({
    windowMs: 60_000,
    limit: opts.perMinute,
    legacyHeaders: true,
    standardHeaders: false,
    keyGenerator: keyOf,
    store,
    // A broken store must not take the API down: requests pass, the failure is logged (throttled).
    passOnStoreError: true,
    logger: limiterLogger,
    handler: (_req, res, _next, options) => {
      rateLimited(opts.limiter ?? 'rest');
      res.status(options.statusCode).json({ message: 'Too Many Attempts.' });
    },
  });
}

/**
 * Made-up tokens each get a fresh per-token budget, so failed authentications are also counted per client address:
 * past the limit, each further failure of that address is answered 429 until the window passes. Counted where
 * authentication fails, as the MCP endpoint counts them (facades/mcp/limits.ts), so a request with a good token touches
 * no counter of this limit, and a good token still passes from an address past the limit: integrations send from
 * shared egress addresses (Zapier, Make, a cloud's NAT), where one party's guessing must not lock out the others.
 * Look-ups stay bounded: an address whose failures go past a ceiling of `FAILED_AUTH_CEILING_FACTOR` x the limit in
 * its window is remembered in this process until the window ends and refused before authentication, whatever it
 * sends (a flood of guesses then costs no token look-ups); another process learns it from the next failure it sees.
 */
export interface FailedAuthentications {
  /** Seconds the request's address must still wait, when this process saw it go past the ceiling; else null. */
  blocked(req: Request): number | null;
  /** Counts a failed authentication of the request's address: seconds to wait when that went past the limit, else null. */
  failed(req: Request): Promise<number | null>;
  /** The answer to an address past the limit: 429 `{message}` with `Retry-After`. */
  refuse(res: Response, seconds: number): void;
}

/** Failed authentications of one address in a window, as a multiple of the limit, past which it is refused unread. */
export const FAILED_AUTH_CEILING_FACTOR = 10;

/** Addresses remembered as past the ceiling, at most this many (the oldest go first). */
const MAX_BLOCKED = 10_000;

export function failedAuthentications(opts: RateLimitOptions): FailedAuthentications {
  const windowMs = 60_000;
  const store: Store = storeFor(opts) ?? new MemoryStore();
  void store.init?.({ windowMs } as Options);
  const until = new Map<string, number>();
  const keyOf = (req: Request) => `ip:${ipKeyGenerator(req.ip ?? '0.0.0.0')}`;
  const wait = (ms: number) => Math.max(1, Math.ceil((ms - Date.now()) / 1000));
  return {
    blocked(req) {
      // Nearly always no address is blocked: then the request's address is not even read (`req.ip` walks the proxy
      // chain, the key normalises an IPv6 address).
      if (until.size === 0) return null;
      const key = keyOf(req);
      const end = until.get(key);
      if (end === undefined) return null;
      if (end > Date.now()) return wait(end);
      until.delete(key);
      return null;
    },
    async failed(req) {
      const key = keyOf(req);
      // A broken store must not take the API down: the failure is answered 401 as without the limit.
      const info = await Promise.resolve(store.increment(key)).catch(() => undefined);
      if (!info || info.totalHits <= opts.perMinute) return null;
      const end = info.resetTime?.getTime() ?? Date.now() + windowMs;
      if (info.totalHits > FAILED_AUTH_CEILING_FACTOR * opts.perMinute) {
        until.delete(key);
        until.set(key, end);
        if (until.size > MAX_BLOCKED) until.delete(until.keys().next().value!);
      }
      return wait(end);
    },
    refuse(res, seconds) {
      rateLimited('auth_failures');
      res.setHeader('Retry-After', String(seconds));
      res.status(429).json({ message: 'Too Many Attempts.' });
    },
  };
}

/**
 * One budget per client address and minute, named `kind` in its keys (the page buckets share a store prefix). Past it,
 * `refuse` answers with the seconds until the address's window ends (the `Retry-After`).
 */
function perAddress(opts: {
  limit: number;
  kind: string;
  redis?: Redis | null;
  prefix: string;
  refuse: (res: Response, retryAfter: number) => void;
}): RequestHandler {
  const windowMs = 60_000;
  return rateLimit({
    windowMs,
    limit: opts.limit,
    legacyHeaders: false,
    standardHeaders: false,
    keyGenerator: (req) => `${opts.kind}:${ipKeyGenerator(req.ip ?? '0.0.0.0')}`,
    store: storeFor(opts),
    passOnStoreError: true,
    logger: limiterLogger,
    handler: (req, res) => {
      const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime?.getTime();
      opts.refuse(res, reset === undefined ? windowMs / 1000 : Math.max(1, Math.ceil((reset - Date.now()) / 1000)));
    },
  });
}

/** The pages' answer past a limit: 429 JSON with `Retry-After`, like the APIs. */
const refusePage = (limiter: 'pages' | 'unsubscribe') => (res: Response, retryAfter: number) => {
  rateLimited(limiter);
  res.setHeader('Retry-After', String(retryAfter));
  res.status(429).json({ message: 'Too Many Attempts.' });
};

/**
 * The public pages (connect, report, unsubscribe, review/feedback): per client address, reads and form posts counted
 * apart (posts are fewer and costlier: they write, mail or redirect to a provider). Answers 429 JSON with
 * `Retry-After`, like the APIs: whoever meets the limit is a script, not a person reading a page.
 */
export function pageRateLimit(opts: { perMinute: number; postsPerMinute: number; redis?: Redis | null; prefix: string }): RequestHandler {
  const reads = perAddress({ ...opts, limit: opts.perMinute, kind: 'read', refuse: refusePage('pages') });
  const posts = perAddress({ ...opts, limit: opts.postsPerMinute, kind: 'post', refuse: refusePage('pages') });
  return (req, res, next) => (req.method === 'POST' ? posts : reads)(req, res, next);
}

/**
 * Unsubscribes with a signed link (`POST /u/{token}` whose token's MAC checks out): per client address, a bucket apart
 * from the page posts'. Mail providers send RFC 8058 one-click unsubscribes from their own servers, a few addresses
 * for all their users: counted with the page posts, the 21st of a minute was refused and the unsubscribe lost. A
 * made-up token is not one of these; it stays in the page posts' budget.
 */
export function unsubscribeRateLimit(opts: { perMinute: number; redis?: Redis | null; prefix: string }): RequestHandler {
  return perAddress({ ...opts, limit: opts.perMinute, kind: 'unsubscribe', refuse: refusePage('unsubscribe') });
}

/**
 * The OAuth endpoints that clients' servers call, not people (the token and revocation endpoints; registration): per
 * client address, each a bucket apart from the pages'. Hosted AI connectors call them for every user from a few
 * shared addresses. Past the limit: 429 with `Retry-After` and an OAuth error body (RFC 6749 section 5.2, RFC 7591
 * section 3.2.2), `temporarily_unavailable`: the registered OAuth error code for a server that cannot take the request
 * now. A client reads it as an error to retry later, keeping its refresh token (an unknown body, as `{message}` was,
 * is a server error to the MCP SDK, which then sends its user to sign in again; `invalid_grant` would make it drop
 * the token; `slow_down` belongs to the device flow's polling, RFC 8628).
 */
export function oauthRateLimit(opts: { perMinute: number; limiter: 'oauth_token' | 'oauth_registration'; redis?: Redis | null; prefix: string }): RequestHandler {
  return perAddress({
    ...opts,
    limit: opts.perMinute,
    kind: opts.limiter,
    refuse: (res, retryAfter) => {
      rateLimited(opts.limiter);
      res.setHeader('Retry-After', String(retryAfter));
      res.setHeader('Cache-Control', 'no-store');
      res.status(429).json({
        error: 'temporarily_unavailable',
        error_description: `Too many requests from this address; try again in ${retryAfter} seconds.`,
      });
    },
  });
}

/**
 * Failed sign-ins per account on a sign-in page (the OAuth one of MCP clients): the per-address page limit alone does
 * not stop a guesser with many addresses. Counted per email in its one spelling (`signInEmail`; hashed, as tokens are),
 * on whichever host it is typed: the platform's host and a tenant's domains share the account's one budget (counted per
 * host, a tenant's user had one at each). Every attempt is counted before its password is checked, in one atomic
 * increment: a check made first and a failure counted after the bcrypt comparison let requests sent together all pass
 * while none had failed yet. Past `limit` failures in a window the email is refused, its password no longer checked,
 * until the window passes. A correct password does not reset the count, nor spend it: its attempt is taken back.
 * Redis-shared when configured, like the other limits. The sign-in's look-up must find an account by that same
 * spelling only (an accent-insensitive match would be a fresh budget for the same account):
 * src/services/mcp-oauth.service.ts `signIn`.
 */
export interface SignInAttempt {
  /** Seconds until the email may try again when it is past the limit (this attempt is refused, the password not checked), else null. */
  refusedFor: number | null;
  /** The password was wrong: seconds until the next attempt may come when this was the last the window allows, else null. */
  failed(): number | null;
  /** The password was right: takes this attempt back out of the count. */
  succeeded(): Promise<void>;
}

export interface SignInFailures {
  /** Counts an attempt of this email, before its password is checked. */
  attempt(email: string): Promise<SignInAttempt>;
}

export function signInFailures(opts: { limit: number; windowMs: number; redis?: Redis | null; prefix: string }): SignInFailures {
  const store: Store = storeFor(opts) ?? new MemoryStore();
  void store.init?.({ windowMs: opts.windowMs } as Options);
  const keyOf = (email: string) => createHash('sha256').update(signInEmail(email)).digest('hex');
  return {
    async attempt(email) {
      const key = keyOf(email);
      // A broken store must not lock everyone out: sign-in goes on as without the limit.
      const info = await Promise.resolve(store.increment(key)).catch(() => undefined);
      const wait = info ? Math.max(1, Math.ceil(((info.resetTime?.getTime() ?? Date.now() + opts.windowMs) - Date.now()) / 1000)) : null;
      const hits = info?.totalHits ?? 0;
      return {
        refusedFor: hits > opts.limit ? wait : null,
        failed: () => (hits >= opts.limit ? wait : null),
        succeeded: async () => {
          if (info) await Promise.resolve(store.decrement(key)).catch(() => undefined);
        },
      };
    },
  };
}
