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
