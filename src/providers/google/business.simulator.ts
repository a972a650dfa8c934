import express, { type Request, type Response, type Router } from 'express';
import { PlatformSimulator, type PlatformSimulatorOptions } from '../platform-simulator';
import { decodeOffset, encodeOffset, hash32, initialReviewCount, simulatedReview, simulatedTimeline } from '../sim-data';

/**
 * Google Business Profile simulator: the wire formats of Account Management (`GET /v1/accounts`), Business
 * Information (`GET /v1/accounts/{a}/locations?readMask=...`) and the v4 reviews API (`GET .../reviews`,
 * `GET .../reviews/{r}` with its `reviewReply`, `PUT .../reviews/{r}/reply`), all under one base, held in memory.
 *
 * - Any non-empty bearer token is accepted (the OAuth simulator's tokens, or any other): there is no real
 *   account behind it. Tests can refuse a token (`revokeToken`) to act out revoked access.
 * - With `seed` (the embedded default), every account sees the same simulated account with three locations,
 *   and any location is seeded on first use from its name: the same name always has the same reviews. One new
 *   review arrives every `growEveryMs` (default 6 hours), so the periodic sync finds something.
 * - Tests start empty (`seed: false`) and add, edit and inspect reviews through the methods.
 */
export const STAR_NAMES = ['', 'ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;

export interface GoogleSimReview {
  reviewId: string;
  displayName: string;
  profilePhotoUrl: string | null;
  rating: number;
  comment: string | null;
  createTime: Date;
  updateTime: Date;
  reply: { comment: string; updateTime: Date } | null;
}

interface SimLocation {
  name: string; // accounts/{a}/locations/{l}
  title: string;
  address: { addressLines: string[]; locality: string; postalCode: string; regionCode: string } | null;
  reviews: GoogleSimReview[];
  origin: Date;
  grown: number;
}

/** `maxPageSize` defaults to Google's 50. */
export type GoogleSimulatorOptions = PlatformSimulatorOptions;

export const SIM_GOOGLE_ACCOUNT = 'accounts/100000000000000000001';

const googleError = (res: Response, code: number, status: string, message: string) =>
  res.status(code).json({ error: { code, message, status } });

export class GoogleBusinessSimulator extends PlatformSimulator {
  readonly router: Router;
  private readonly accounts = new Map<string, { accountName: string; locations: string[] }>();
  private readonly locations = new Map<string, SimLocation>();
  private replyRejection: { status: number; message: string } | null = null;
  /** Every request the simulator answered (method and path), for tests that check what was called. */
  readonly requests: Array<{ method: string; path: string; authorization: string | undefined }> = [];

  constructor(opts: GoogleSimulatorOptions = {}) {
    super(opts, 50);
    if (this.seed) {
      const ids = [1, 2, 3].map((n) => `${SIM_GOOGLE_ACCOUNT}/locations/200000000000000000${n}`);
      this.accounts.set(SIM_GOOGLE_ACCOUNT, { accountName: 'Simulated Business Account', locations: ids });
      ids.forEach((name, i) => this.addLocation(name, { title: `Simulated Business ${i + 1}`, seeded: true }));
    }
    this.router = this.buildRouter();
  }

  // ---- test controls -------------------------------------------------------------------------------

  /** Adds an account (and returns its name, `accounts/{id}`). */
  addAccount(id: string, accountName = `Account ${id}`): string {
    const name = `accounts/${id}`;
    if (!this.accounts.has(name)) this.accounts.set(name, { accountName, locations: [] });
    return name;
  }

  /** Adds a location under its account; returns its full name `accounts/{a}/locations/{l}`. */
  addLocation(name: string, opts: { title?: string; address?: SimLocation['address']; seeded?: boolean } = {}): string {
    const account = name.replace(/\/locations\/.*$/, '');
    if (!this.accounts.has(account)) this.accounts.set(account, { accountName: `Account ${account.slice(9)}`, locations: [] });
    const acc = this.accounts.get(account)!;
    if (!acc.locations.includes(name)) acc.locations.push(name);
    if (!this.locations.has(name)) {
      const loc: SimLocation = {
        name,
        title: opts.title ?? `Business ${name.replace(/^.*\//, '')}`,
        address: opts.address !== undefined ? opts.address : { addressLines: [`${1 + (hash32(name) % 200)} Main Street`], locality: 'Springfield', postalCode: '12345', regionCode: 'US' },
        reviews: [],
        origin: this.now(),
        grown: 0,
      };
      this.locations.set(name, loc);
      if (opts.seeded) this.seedLocation(loc);
    }
    return name;
  }

  addReview(
    location: string,
    r: { rating: number; comment?: string | null; displayName?: string; profilePhotoUrl?: string | null; createTime?: Date; updateTime?: Date; reply?: { comment: string; updateTime?: Date } | null },
  ): string {
    const loc = this.locations.get(location) ?? this.locations.get(this.addLocation(location));
    const createTime = r.createTime ?? this.now();
    const review: GoogleSimReview = {
      reviewId: `r${++this.counter}`,
      displayName: r.displayName ?? 'Test Reviewer',
      profilePhotoUrl: r.profilePhotoUrl ?? null,
      rating: r.rating,
      comment: r.comment === undefined ? 'A simulated review.' : r.comment,
      createTime,
      updateTime: r.updateTime ?? createTime,
      reply: r.reply ? { comment: r.reply.comment, updateTime: r.reply.updateTime ?? createTime } : null,
    };
    loc!.reviews.push(review);
    return `${location}/reviews/${review.reviewId}`;
  }

  /** Changes a review as its author would (rating, comment); its update time moves on. */
  editReview(reviewName: string, patch: { rating?: number; comment?: string | null; updateTime?: Date }): void {
    const review = this.review(reviewName);
    if (!review) throw new Error(`no review ${reviewName}`);
    if (patch.rating !== undefined) review.rating = patch.rating;
    if (patch.comment !== undefined) review.comment = patch.comment;
    review.updateTime = patch.updateTime ?? new Date(Math.max(this.now().getTime(), review.updateTime.getTime() + 1));
  }

  review(reviewName: string): GoogleSimReview | null {
    const m = /^(accounts\/[^/]+\/locations\/[^/]+)\/reviews\/([^/]+)$/.exec(reviewName);
    if (!m) return null;
    return this.locations.get(m[1])?.reviews.find((r) => r.reviewId === m[2]) ?? null;
  }

  /** The owner replies on Google itself (not through us), or replaces the reply there. */
  replyAsOwner(reviewName: string, comment: string, updateTime = this.now()): void {
    const review = this.review(reviewName);
    if (!review) throw new Error(`no review ${reviewName}`);
    review.reply = { comment, updateTime };
  }

  /** Replies published to the reviews of a location (or all), by review name. */
  replies(): Record<string, { comment: string; updateTime: Date }> {
    const out: Record<string, { comment: string; updateTime: Date }> = {};
    for (const loc of this.locations.values()) for (const r of loc.reviews) if (r.reply) out[`${loc.name}/reviews/${r.reviewId}`] = r.reply;
    return out;
  }

  /** Refuses every reply from now on with this status and message (null: accept again). */
  rejectReplies(message: string | null, status = 400): void {
    this.replyRejection = message === null ? null : { status, message };
  }

  // ---- the wire -----------------------------------------------------------------------------------

  private seedLocation(loc: SimLocation): void {
    const times = simulatedTimeline(loc.name, loc.origin, loc.origin, null);
    times.forEach((t, i) => loc.reviews.push(this.generated(loc, i, t)));
  }

  private generated(loc: SimLocation, index: number, at: Date): GoogleSimReview {
    const content = simulatedReview(loc.name, index);
    return {
      reviewId: `sim${hash32(loc.name).toString(36)}x${index}`,
      displayName: content.author,
      profilePhotoUrl: null,
      rating: content.rating,
      comment: content.comment,
      createTime: at,
      updateTime: at,
      reply: null,
    };
  }

  /** New reviews that have "arrived" since the location was first seen. */
  private grow(loc: SimLocation): void {
    if (!this.seed || !this.growEveryMs) return;
    const times = simulatedTimeline(loc.name, loc.origin, this.now(), this.growEveryMs);
    const initial = initialReviewCount(loc.name);
    while (initial + loc.grown < times.length) {
      const index = initial + loc.grown;
      loc.reviews.push(this.generated(loc, index, times[index]));
      loc.grown++;
    }
  }

  private location(name: string): SimLocation | null {
    const known = this.locations.get(name);
    if (known) return known;
    // The embedded default knows every location: a connect flow may have stored any location name.
    return this.seed ? this.locations.get(this.addLocation(name, { seeded: true }))! : null;
  }

  /** The location's reviews the platform shows (not taken down). */
  private listed(loc: SimLocation): GoogleSimReview[] {
    return loc.reviews.filter((r) => !this.isRemoved(`${loc.name}/reviews/${r.reviewId}`));
  }

  private wireReview(loc: SimLocation, r: GoogleSimReview) {
    return {
      reviewId: r.reviewId,
      name: `${loc.name}/reviews/${r.reviewId}`,
      reviewer: { displayName: r.displayName, ...(r.profilePhotoUrl ? { profilePhotoUrl: r.profilePhotoUrl } : {}), isAnonymous: false },
      starRating: STAR_NAMES[r.rating] ?? 'STAR_RATING_UNSPECIFIED',
      ...(r.comment !== null ? { comment: r.comment } : {}),
      createTime: r.createTime.toISOString(),
      updateTime: r.updateTime.toISOString(),
      ...(r.reply ? { reviewReply: { comment: r.reply.comment, updateTime: r.reply.updateTime.toISOString() } } : {}),
    };
  }

  private buildRouter(): Router {
    const router = express.Router();
    router.use(express.json({ limit: '100kb' }));
    router.use((req: Request, res: Response, next) => {
      this.requests.push({ method: req.method, path: req.path, authorization: req.headers.authorization });
      const failure = this.failures.shift();
      if (failure) {
        if (failure.retryAfter) res.setHeader('Retry-After', failure.retryAfter);
        const status = failure.status === 429 ? 'RESOURCE_EXHAUSTED' : 'UNAVAILABLE';
        googleError(res, failure.status, status, failure.status === 429 ? 'Quota exceeded.' : 'The service is currently unavailable.');
        return;
      }
      const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
      if (!m) {
        googleError(res, 401, 'UNAUTHENTICATED', 'Request is missing required authentication credential. Expected OAuth 2 access token.');
        return;
      }
      if (this.revoked.has(m[1])) {
        googleError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token.');
        return;
      }
      next();
    });

    router.get('/v1/accounts', (req, res) => {
      const all = [...this.accounts.entries()].map(([name, a]) => ({ name, accountName: a.accountName, type: 'LOCATION_GROUP' }));
      const { items, next } = this.page(all, req.query.pageSize, req.query.pageToken, 20);
      if (!items) return void googleError(res, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
      res.json({ accounts: items, ...(next ? { nextPageToken: next } : {}) });
    });

    router.get('/v1/accounts/:account/locations', (req, res) => {
      const readMask = typeof req.query.readMask === 'string' ? req.query.readMask : '';
      if (!readMask) return void googleError(res, 400, 'INVALID_ARGUMENT', "Request contains an invalid argument: 'read_mask' is required.");
      const account = this.accounts.get(`accounts/${req.params.account}`);
      if (!account) return void googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
      const fields = new Set(readMask.split(',').map((f) => f.trim()));
      const all = account.locations.map((name) => {
        const loc = this.locations.get(name)!;
        const out: Record<string, unknown> = {};
        if (fields.has('name')) out.name = `locations/${name.replace(/^.*\//, '')}`;
        if (fields.has('title')) out.title = loc.title;
        if (fields.has('storefrontAddress') && loc.address) out.storefrontAddress = loc.address;
        return out;
      });
      const { items, next } = this.page(all, req.query.pageSize, req.query.pageToken, 100);
      if (!items) return void googleError(res, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
      res.json({ locations: items, ...(next ? { nextPageToken: next } : {}) });
    });

    router.get('/v4/accounts/:account/locations/:location/reviews', (req, res) => {
      const loc = this.location(`accounts/${req.params.account}/locations/${req.params.location}`);
      if (!loc) return void googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
      this.grow(loc);
      // Newest first, as the API lists them by default.
      const sorted = this.listed(loc).sort((a, b) => b.updateTime.getTime() - a.updateTime.getTime() || (a.reviewId < b.reviewId ? 1 : -1));
      const { items, next } = this.page(sorted, req.query.pageSize, req.query.pageToken, this.maxPageSize);
      if (!items) return void googleError(res, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
      const shown = this.listed(loc);
      const avg = shown.length ? shown.reduce((s, r) => s + r.rating, 0) / shown.length : 0;
      res.json({
        reviews: items.map((r) => this.wireReview(loc, r)),
        averageRating: Math.round(avg * 10) / 10,
        totalReviewCount: shown.length,
        ...(next ? { nextPageToken: next } : {}),
      });
    });

    router.get('/v4/accounts/:account/locations/:location/reviews/:review', (req, res) => {
      const loc = this.location(`accounts/${req.params.account}/locations/${req.params.location}`);
      const review = loc ? this.listed(loc).find((r) => r.reviewId === req.params.review) : undefined;
      if (!loc || !review) return void googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
      res.json(this.wireReview(loc, review));
    });

    router.put('/v4/accounts/:account/locations/:location/reviews/:review/reply', (req, res) => {
      const loc = this.location(`accounts/${req.params.account}/locations/${req.params.location}`);
      const review = loc ? this.listed(loc).find((r) => r.reviewId === req.params.review) : undefined;
      if (!loc || !review) return void googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.');
      const comment = (req.body as { comment?: unknown } | undefined)?.comment;
      if (typeof comment !== 'string' || !comment.trim()) {
        return void googleError(res, 400, 'INVALID_ARGUMENT', "Request contains an invalid argument: 'comment' is required.");
      }
      if (this.replyRejection) {
        const { status, message } = this.replyRejection;
        return void googleError(res, status, status === 403 ? 'PERMISSION_DENIED' : 'FAILED_PRECONDITION', message);
      }
      review.reply = { comment, updateTime: this.now() };
      res.json({ comment, updateTime: review.reply.updateTime.toISOString() });
    });

    router.use((_req, res) => googleError(res, 404, 'NOT_FOUND', 'The requested URL was not found on this server.'));
    return router;
  }

  /** Offset paging with Google-style opaque page tokens; null items for a token or size it cannot read. */
  private page<T>(all: T[], pageSize: unknown, pageToken: unknown, max: number): { items: T[] | null; next: string | null } {
    const size = pageSize === undefined ? max : Number(pageSize);
    const offset = decodeOffset(pageToken);
    if (!Number.isInteger(size) || size < 1 || offset === null) return { items: null, next: null };
    const take = Math.min(size, max);
    const items = all.slice(offset, offset + take);
    return { items, next: offset + take < all.length ? encodeOffset(offset + take) : null };
  }
}

/** The simulator as an Express router (mounted at `/simulators/google/api` in the embedded default). */
export function googleBusinessSimulator(opts: GoogleSimulatorOptions = {}): GoogleBusinessSimulator {
  return new GoogleBusinessSimulator(opts);
}
