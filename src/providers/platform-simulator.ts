/** What the review-platform simulators (Google Business Profile, Facebook Graph) take. */
export interface PlatformSimulatorOptions {
  /** Seeded (the embedded default): simulated businesses with reviews; tests start empty (`false`). */
  seed?: boolean;
  /** A new review arrives on a seeded business this often (default 6 hours; null: never). */
  growEveryMs?: number | null;
  now?: () => Date;
  /** Largest page of reviews served (tests lower it to exercise paging). */
  maxPageSize?: number;
}

/** The state and test controls the review-platform simulators share; each subclass serves its platform's wire format. */
export abstract class PlatformSimulator {
  protected readonly revoked = new Set<string>();
  protected failures: Array<{ status: number; retryAfter?: string }> = [];
  /** Reviews the platform took down (by their identifier): left out of every answer until restored. */
  protected readonly removed = new Set<string>();
  protected counter = 0;
  protected readonly seed: boolean;
  protected readonly growEveryMs: number | null;
  protected readonly now: () => Date;
  protected readonly maxPageSize: number;

  protected constructor(opts: PlatformSimulatorOptions, defaultPageSize: number) {
    this.seed = opts.seed ?? true;
    this.growEveryMs = opts.growEveryMs === undefined ? 6 * 60 * 60 * 1000 : opts.growEveryMs;
    this.now = opts.now ?? (() => new Date());
    this.maxPageSize = opts.maxPageSize ?? defaultPageSize;
  }

  /** The next requests fail with these statuses (5xx, 429), one per request. */
  failNext(...failures: Array<{ status: number; retryAfter?: string }>): void {
    this.failures.push(...failures);
  }

  /**
   * The platform takes a review down (Google removing it for a policy violation, the reviewer deleting it): it is left
   * out of the listings and reads as unknown. `id` is the identifier the sync stores (Google: the review name, Facebook:
   * the rating's story id).
   */
  removeReview(id: string): void {
    this.removed.add(id);
  }

  /** A review taken down comes back as it was (an appeal upheld), under the same identifier. */
  restoreReview(id: string): void {
    this.removed.delete(id);
  }

  protected isRemoved(id: string): boolean {
    return this.removed.has(id);
  }

  /** Refuses this token from now on, as a platform does once access is revoked. */
  revokeToken(token: string): void {
    this.revoked.add(token);
  }
}
