import { setTimeout as sleep } from 'node:timers/promises';
import type { Sequelize } from 'sequelize';
import { loadConfig } from '../config';
import type { Principal } from '../domain/principal';

/**
 * The callers of bearer tokens, kept by each process for AUTH_CACHE_TTL_MS (250 ms by default) after their lookup, so a
 * client's burst of requests costs one token lookup per process and quarter second instead of one per request (issue 17:
 * the lookup was one of a REST detail request's two statements). Only accepted tokens are kept; the
 * expiry is checked on every request, against the request's clock.
 *
 * Freshness (docs/decisions/security.md, "Token lookups are cached for a quarter second"):
 * - In the process that makes a change, at once: any write through the models to a table a principal is built from
 *   (tokens, users, their location and organisation assignments, locations, organisations, customers, tenants) empties
 *   the cache, and again when its transaction commits (a lookup between the write and the commit reads the row as it
 *   was). A lookup that began before an emptying does not store its answer.
 * - In other processes (more API processes, the CLI), within the TTL; a revocation (a token, an MCP authorization, the
 *   CLI's token:revoke) answers only after waiting it out, so once it has answered no process takes the token.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, { principal: Principal; until: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: () => number,
    private readonly max = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The principal of a token digest looked up less than the TTL ago. */
  get(digest: string): Principal | undefined {
    const entry = this.entries.get(digest);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.principal;
    this.entries.delete(digest);
    return undefined;
  }

  /** Where a lookup starts: its answer is stored only if nothing emptied the cache since (`store`). */
  mark(): number {
    return this.generation;
  }

  store(digest: string, principal: Principal, mark: number): void {
    const ttl = this.ttlMs();
    if (ttl <= 0 || mark !== this.generation) return;
    this.entries.delete(digest);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(digest, { principal, until: this.now() + ttl });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

let ttl: number | undefined;
const ttlMs = () => (ttl ??= loadConfig().AUTH_CACHE_TTL_MS);

/** The process's cache (src/services/auth.service.ts `authenticate`). */
export const principals = new PrincipalCache(ttlMs);

/** Tests: another TTL for this process (undefined: AUTH_CACHE_TTL_MS again); empties the cache. Answers the one before. */
export function setPrincipalCacheTtl(ms: number | undefined): number | undefined {
  const before = ttl;
  ttl = ms;
  principals.clear();
  return before;
}

/**
 * Waits until no process can still hold a principal looked up before now (the TTL): called by a revocation after its
 * commit, so that when it answers the token is refused everywhere.
 */
export async function revocationSettled(): Promise<void> {
  const ms = ttlMs();
  if (ms > 0) await sleep(ms);
}

/** The tables a principal is built from (`authenticate`, `principalFor`), and the ones whose rows cascade to them. */
const PRINCIPAL_TABLES = new Set(['api_tokens', 'users', 'location_users', 'organization_members', 'locations', 'organizations', 'customers', 'tenants']);
/** Writes that leave principals as they were: the lookup's own bookkeeping. */
const BOOKKEEPING = new Set(['lastUsedAt', 'updatedAt']);

interface HookOptions {
  model?: { getTableName(): string | { tableName: string } };
  fields?: string[];
  transaction?: { afterCommit(fn: () => void): void } | null;
}

const tableOf = (model: HookOptions['model']): string | null => {
  const name = model?.getTableName();
  return typeof name === 'string' ? name : (name?.tableName ?? null);
};

/**
 * Empties the process's cache on every write through the models of `sequelize` to a principal's tables (permanent hooks,
 * for every model), at the write and again at its transaction's commit.
 */
export function watchPrincipalChanges(sequelize: Sequelize): void {
  const changed = (model: HookOptions['model'], options: HookOptions | undefined) => {
    const table = tableOf(model);
    if (!table || !PRINCIPAL_TABLES.has(table)) return;
    if (options?.fields?.length && options.fields.every((f) => BOOKKEEPING.has(f))) return;
    principals.clear();
    options?.transaction?.afterCommit(() => principals.clear());
  };
  const instanceHook = (instance: unknown, options: unknown) => changed((instance as { constructor: HookOptions['model'] })?.constructor, options as HookOptions);
  const bulkHook = (options: unknown) => changed((options as HookOptions)?.model, options as HookOptions);
  sequelize.addHook('afterSave', 'principal-cache', instanceHook);
  sequelize.addHook('afterDestroy', 'principal-cache', instanceHook);
  sequelize.addHook('afterUpsert', 'principal-cache', (_created: unknown, options: unknown) => bulkHook(options));
  sequelize.addHook('afterBulkCreate', 'principal-cache', (_instances: unknown, options: unknown) => bulkHook(options));
  sequelize.addHook('afterBulkUpdate', 'principal-cache', bulkHook);
  sequelize.addHook('afterBulkDestroy', 'principal-cache', bulkHook);
}
