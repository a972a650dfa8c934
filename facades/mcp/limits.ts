import { MemoryStore, type Options, type Store } from 'express-rate-limit';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { Principal } from '../../src/domain/principal';
import { ErrorCodes, McpError } from './protocol';
import { rateLimited } from '../../src/observability/metrics';
import { redisStore } from '../shared/rate-limit';

export interface McpLimitOptions {
  /** Calls per minute per token (spec: 120). */
  perToken: number;
  /** Calls per minute per workspace, i.e. the tenant with all its accounts (spec: 600). */
  perWorkspace: number;
  /** Shared by every API process when given (REDIS_URL); in memory otherwise. */
  redis?: Redis | null;
  /** Key prefix in Redis (tests give each run its own). */
  prefix?: string;
}

const WINDOW_MS = 60_000;

function store(opts: McpLimitOptions, name: string, log: Logger): Store {
  const client = opts.redis;
  // redisStore: its script loads at construction cannot reject unhandled (Redis down at start).
  const s: Store = client ? redisStore(client, `${opts.prefix ?? 'rl:mcp'}:${name}:`, log) : new MemoryStore();
  void s.init?.({ windowMs: WINDOW_MS } as Options);
  return s;
}

/**
 * Fixed one-minute windows, the same counting as the REST limit (express-rate-limit's stores, Redis-backed when
 * configured). Every authenticated message counts against its token, then its workspace; a message the token's
 * own limit refuses does not spend the workspace's budget. A store that fails lets the call through (logged).
 */
export class McpLimits {
  private readonly tokens: Store;
  private readonly workspaces: Store;
  private readonly failedAuth: Store;

  constructor(
    private readonly opts: McpLimitOptions,
    private readonly log: Logger,
  ) {
    this.tokens = store(opts, 'token', log);
    this.workspaces = store(opts, 'workspace', log);
    this.failedAuth = store(opts, 'auth-failures', log);
  }

  async check(p: Principal): Promise<void> {
    await this.spend(this.tokens, `t:${p.tokenId}`, this.opts.perToken, 'token', 'per-token limit');
    await this.spend(this.workspaces, `w:${p.tenantId}`, this.opts.perWorkspace, 'workspace', 'per-workspace limit');
  }

  /**
   * Unknown tokens would each get a fresh budget, so failed authentications count per client address, against
   * the per-token limit: past it, that address is refused until the window passes.
   */
  async failedAuthentication(ip: string): Promise<McpError | null> {
    try {
      await this.spend(this.failedAuth, `ip:${ip}`, this.opts.perToken, 'auth', 'limit of failed authentications');
      return null;
    } catch (e) {
      if (e instanceof McpError) return e;
      throw e;
    }
  }

  private async spend(s: Store, key: string, limit: number, scope: string, what: string): Promise<void> {
    let hits: number;
    let resetTime: Date | undefined;
    try {
      ({ totalHits: hits, resetTime } = await s.increment(key));
    } catch (err) {
      this.log.warn({ err: { message: (err as Error).message }, scope }, 'MCP rate-limit store failed; call let through');
      return;
    }
    if (hits <= limit) return;
    rateLimited(scope === 'auth' ? 'mcp_auth_failures' : scope === 'workspace' ? 'mcp_workspace' : 'mcp_token');
    const seconds = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + WINDOW_MS) - Date.now()) / 1000));
    throw new McpError(
      ErrorCodes.NOT_FOUND_OR_LIMITED,
      `Rate limit exceeded (${what}: ${limit} calls per minute). Retry after ${seconds} seconds.`,
      { reason: 'rate_limited', retry_after: seconds },
      429,
      { 'Retry-After': String(seconds) },
    );
  }
}

/** `subscriptions/listen` streams (2026-07-28) one token may hold open at once, in each API process. */
export const MAX_LISTEN_STREAMS_PER_TOKEN = 2;
/** The longest a listen stream stays open: then the server ends it, and the client may open another. */
export const MAX_LISTEN_STREAM_MS = 60 * 60_000;

interface ListenSlot {
  until: number;
  timer: NodeJS.Timeout;
}

/**
 * Open `subscriptions/listen` streams per token. The SDK caps them per process only (`maxSubscriptions`, 1024 by
 * default) and answers past it with -32603 to everyone, so one token opening streams at its call rate and never
 * closing them would shut every client out. Here a token holds at most `max` at once (past it: -32002 rate_limited
 * with Retry-After, as the call limits answer), each slot freed when its response closes and each stream ended when
 * it reaches `lifetimeMs`. Today the SDK ends every listen stream right after its acknowledgement (this server
 * declares no list that can change, so no filter is honoured); the cap holds for the day one is.
 */
export class ListenStreams {
  private readonly open = new Map<number, Set<ListenSlot>>();

  constructor(
    private readonly max = MAX_LISTEN_STREAMS_PER_TOKEN,
    private readonly lifetimeMs = MAX_LISTEN_STREAM_MS,
  ) {}

  /**
   * A slot of the token's for the stream answered on `res`, freed on its 'close'; `end` is called once the stream
   * reaches its lifetime (it ends the stream; the close then frees the slot). Throws -32002 when the token has none left.
   */
  take(p: Principal, res: { once(event: 'close', listener: () => void): unknown }, end: () => void): void {
    const mine = this.open.get(p.tokenId) ?? new Set<ListenSlot>();
    if (mine.size >= this.max) {
      rateLimited('mcp_token');
      const soonest = Math.min(...[...mine].map((s) => s.until));
      const seconds = Math.max(1, Math.ceil((soonest - Date.now()) / 1000));
      throw new McpError(
        ErrorCodes.NOT_FOUND_OR_LIMITED,
        `Rate limit exceeded (open subscriptions/listen streams: ${this.max} per token). Close one, or retry after ${seconds} seconds.`,
        { reason: 'rate_limited', retry_after: seconds },
        429,
        { 'Retry-After': String(seconds) },
      );
    }
    const slot: ListenSlot = { until: Date.now() + this.lifetimeMs, timer: setTimeout(end, this.lifetimeMs) };
    slot.timer.unref();
    mine.add(slot);
    this.open.set(p.tokenId, mine);
    res.once('close', () => {
      clearTimeout(slot.timer);
      mine.delete(slot);
      if (!mine.size && this.open.get(p.tokenId) === mine) this.open.delete(p.tokenId);
    });
  }
}
