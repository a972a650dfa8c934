import express, { type Request, type Response, type Router } from 'express';
import { PlatformSimulator, type PlatformSimulatorOptions } from '../platform-simulator';
import { decodeOffset, encodeOffset, hash32, initialReviewCount, simulatedReview, simulatedTimeline } from '../sim-data';

/**
 * Facebook Graph API simulator for Pages: `GET /me/accounts`, `GET /{page-id}?fields=access_token`,
 * `GET /{page-id}/ratings` (cursor paging; the story's comments by field expansion,
 * `open_graph_story{id,comments.limit(N).order(reverse_chronological){...}}`), `GET /{story-id}/comments`
 * (`order=reverse_chronological` or chronological, cursor paging) and `POST /{story-id}/comments`, in the Graph wire format
 * (`{data, paging: {cursors: {before, after}, next}}`, errors `{error: {message, type, code, fbtrace_id}}`).
 *
 * - Any non-empty `access_token` is accepted (the OAuth simulator's tokens, or any other); a page token is
 *   `sim-page-<page id>`. Tests can refuse a token (`revokeToken`) to act out revoked access.
 * - With `seed` (the embedded default) every user manages two simulated pages, any page id is seeded on first use
 *   from its id (always the same ratings), and a new rating arrives every `growEveryMs` (default 6 hours).
 * - Tests start empty (`seed: false`) and add, edit and inspect ratings through the methods.
 */
export interface FacebookSimComment {
  id: string;
  from: { id: string; name: string };
  message: string;
  createdTime: Date;
}

export interface FacebookSimRating {
  storyId: string;
  reviewer: { id: string; name: string } | null;
  recommendation: 'positive' | 'negative';
  /** The old five-star rating, present on ratings from before recommendations. */
  rating?: number;
  text: string | null;
  createdTime: Date;
  comments: FacebookSimComment[];
}

interface SimPage {
  id: string;
  name: string;
  address: string | null;
  ratings: FacebookSimRating[];
  origin: Date;
  grown: number;
}

/**
 * How the answer to an accepted comment is lost: held `holdMs` before it is sent (past the client's timeout), a
 * `status` (5xx) instead of the comment's id, or the connection dropped (`drop`).
 */
export type LostAnswer = { holdMs: number } | { status: number } | { drop: true };

/** `maxPageSize` defaults to 25 ratings (cursor paging). */
export type FacebookSimulatorOptions = PlatformSimulatorOptions;

/** Graph timestamps: `2026-11-01T10:00:00+0000`. */
export const graphTime = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, '+0000');

/**
 * A comments edge as Graph serves it, requested or expanded: oldest first unless `order=reverse_chronological`,
 * 25 a page unless `limit` says otherwise (at most 100 here).
 */
const COMMENTS_DEFAULT_LIMIT = 25;
const COMMENTS_MAX_LIMIT = 100;

/**
 * The modifiers of the `comments` field expansion in a `fields` parameter (`comments.limit(5).order(...){...}`): null
 * when comments are not asked for, `invalid` for a limit that is not a positive integer.
 */
export function commentsExpansion(fields: string): { limit: number; order: string } | null | 'invalid' {
  const m = /(?:^|[{,])comments((?:\.\w+\([^()]*\))*)(?=[{,}]|$)/.exec(fields);
  if (!m) return null;
  const out = { limit: COMMENTS_DEFAULT_LIMIT, order: 'chronological' };
  for (const [, name, value] of m[1].matchAll(/\.(\w+)\(([^()]*)\)/g)) {
    if (name === 'limit') {
      if (!/^\d+$/.test(value) || Number(value) < 1) return 'invalid';
      out.limit = Math.min(Number(value), COMMENTS_MAX_LIMIT);
    }
    if (name === 'order') out.order = value;
  }
  return out;
}

const wireComment = (c: FacebookSimComment) => ({ id: c.id, from: c.from, message: c.message, created_time: graphTime(c.createdTime) });

const graphError = (res: Response, status: number, code: number, message: string, type = 'OAuthException') =>
  res.status(status).json({ error: { message, type, code, fbtrace_id: `Sim${hash32(message).toString(36)}` } });

function commentsInOrder(rating: FacebookSimRating, order: unknown): FacebookSimComment[] {
  const sorted = [...rating.comments].sort((a, b) => a.createdTime.getTime() - b.createdTime.getTime());
  return order === 'reverse_chronological' ? sorted.reverse() : sorted;
}

export class FacebookGraphSimulator extends PlatformSimulator {
  readonly router: Router;
  private readonly pages = new Map<string, SimPage>();
  private readonly userPages: string[] = [];
  private replyRejection: { status: number; code: number; message: string } | null = null;
  private lostReplyAnswers: LostAnswer[] = [];
  readonly requests: Array<{ method: string; path: string; token: string | null }> = [];

  constructor(opts: FacebookSimulatorOptions = {}) {
    super(opts, 25);
    if (this.seed) {
      this.addPage('1010000000000001', { name: 'Simulated Page 1', seeded: true });
      this.addPage('1010000000000002', { name: 'Simulated Page 2', seeded: true });
    }
    this.router = this.buildRouter();
  }

  // ---- test controls -------------------------------------------------------------------------------

  addPage(id: string, opts: { name?: string; address?: string | null; seeded?: boolean } = {}): string {
    if (!this.pages.has(id)) {
      const page: SimPage = { id, name: opts.name ?? `Page ${id}`, address: opts.address ?? null, ratings: [], origin: this.now(), grown: 0 };
      this.pages.set(id, page);
      this.userPages.push(id);
      if (opts.seeded) {
        simulatedTimeline(id, page.origin, page.origin, null).forEach((t, i) => page.ratings.push(this.generated(page, i, t)));
      }
    }
    return id;
  }

  /** Adds a rating (recommendation) to a page; returns its open graph story id. */
  addRating(
    pageId: string,
    r: { recommendation?: 'positive' | 'negative'; rating?: number; text?: string | null; reviewer?: string; createdTime?: Date; reply?: string | null },
  ): string {
    const page = this.pages.get(pageId) ?? this.pages.get(this.addPage(pageId))!;
    const storyId = `${pageId}_${9000 + ++this.counter}`;
    const createdTime = r.createdTime ?? this.now();
    const rating: FacebookSimRating = {
      storyId,
      reviewer: { id: `u${this.counter}`, name: r.reviewer ?? 'Test Reviewer' },
      recommendation: r.recommendation ?? 'positive',
      ...(r.rating !== undefined ? { rating: r.rating } : {}),
      text: r.text === undefined ? 'A simulated recommendation.' : r.text,
      createdTime,
      comments: [],
    };
    if (r.reply) rating.comments.push({ id: `${storyId}_c0`, from: { id: pageId, name: page.name }, message: r.reply, createdTime });
    page.ratings.push(rating);
    return storyId;
  }

  /** A reviewer changes their recommendation or text. */
  editRating(storyId: string, patch: { recommendation?: 'positive' | 'negative'; text?: string | null }): void {
    const rating = this.rating(storyId);
    if (!rating) throw new Error(`no rating ${storyId}`);
    if (patch.recommendation !== undefined) rating.recommendation = patch.recommendation;
    if (patch.text !== undefined) rating.text = patch.text;
  }

  /** A comment on a rating's story: the reviewer's or another user's, or the page's own (`fromPage`: a reply). */
  addComment(storyId: string, c: { message: string; fromPage?: boolean; author?: string; createdTime?: Date }): string {
    const rating = this.rating(storyId);
    if (!rating) throw new Error(`no rating ${storyId}`);
    const pageId = storyId.replace(/_.*$/, '');
    const id = `${storyId}_c${rating.comments.length + 1}`;
    const from = c.fromPage ? { id: pageId, name: this.pages.get(pageId)!.name } : { id: `u${hash32(`${id}:${c.author ?? ''}`)}`, name: c.author ?? 'A Facebook user' };
    rating.comments.push({ id, from, message: c.message, createdTime: c.createdTime ?? this.now() });
    return id;
  }

  rating(storyId: string): FacebookSimRating | null {
    for (const page of this.pages.values()) {
      const found = page.ratings.find((r) => r.storyId === storyId);
      if (found) return found;
    }
    return null;
  }

  /** The comments each page made on its ratings' stories, by story id. */
  replies(): Record<string, FacebookSimComment[]> {
    const out: Record<string, FacebookSimComment[]> = {};
    for (const page of this.pages.values()) {
      for (const r of page.ratings) {
        const mine = r.comments.filter((c) => c.from.id === page.id);
        if (mine.length) out[r.storyId] = mine;
      }
    }
    return out;
  }

  /** Refuses every comment from now on with this Graph error (null: accept again). */
  rejectReplies(message: string | null, opts: { status?: number; code?: number } = {}): void {
    this.replyRejection = message === null ? null : { status: opts.status ?? 403, code: opts.code ?? 200, message };
  }

  /** The next accepted comments (one each) are stored, but their answers are lost this way. */
  loseReplyAnswers(...how: LostAnswer[]): void {
    this.lostReplyAnswers.push(...how);
  }

  // ---- the wire -----------------------------------------------------------------------------------

  private generated(page: SimPage, index: number, at: Date): FacebookSimRating {
    const content = simulatedReview(page.id, index);
    const storyId = `${page.id}_${8000 + index}`;
    return {
      storyId,
      reviewer: { id: `sim${hash32(`${page.id}:${index}`)}`, name: content.author },
      recommendation: content.rating >= 3 ? 'positive' : 'negative',
      text: content.comment,
      createdTime: at,
      comments: [],
    };
  }

  private grow(page: SimPage): void {
    if (!this.seed || !this.growEveryMs) return;
    const times = simulatedTimeline(page.id, page.origin, this.now(), this.growEveryMs);
    const initial = initialReviewCount(page.id);
    while (initial + page.grown < times.length) {
      const index = initial + page.grown;
      page.ratings.push(this.generated(page, index, times[index]));
      page.grown++;
    }
  }

  private page(id: string): SimPage | null {
    const known = this.pages.get(id);
    if (known) return known;
    if (!this.seed || !/^\d+$/.test(id)) return null;
    return this.pages.get(this.addPage(id, { name: `Page ${id}`, seeded: true }))!;
  }

  private tokenOf(req: Request): string | null {
    const fromQuery = typeof req.query.access_token === 'string' ? req.query.access_token : null;
    const fromBody = typeof (req.body as Record<string, unknown> | undefined)?.access_token === 'string' ? (req.body as { access_token: string }).access_token : null;
    const header = /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    return fromQuery || fromBody || header?.[1] || null;
  }

  private buildRouter(): Router {
    const router = express.Router();
    router.use(express.urlencoded({ extended: false, limit: '100kb' }));
    router.use(express.json({ limit: '100kb' }));
    router.use((req: Request, res: Response, next) => {
      const token = this.tokenOf(req);
      this.requests.push({ method: req.method, path: req.path, token });
      const failure = this.failures.shift();
      if (failure) {
        if (failure.retryAfter) res.setHeader('Retry-After', failure.retryAfter);
        if (failure.status === 429) return void graphError(res, 429, 4, '(#4) Application request limit reached', 'OAuthException');
        return void graphError(res, failure.status, 2, 'An unexpected error has occurred. Please retry your request later.', 'OAuthException');
      }
      if (!token) return void graphError(res, 400, 2500, 'An active access token must be used to query information about the current user.');
      if (this.revoked.has(token) || this.revoked.has(token.replace(/^sim-page-[^:]*:/, ''))) {
        return void graphError(res, 400, 190, 'Error validating access token: The session has been invalidated because the user changed their password.');
      }
      next();
    });

    router.get('/me/accounts', (req, res) => {
      const token = this.tokenOf(req)!;
      const all = this.userPages.map((id) => this.pages.get(id)!);
      const { items, after, next } = this.slice(all, req, 100);
      if (!items) return void graphError(res, 400, 100, '(#100) Invalid cursor', 'OAuthException');
      res.json({
        data: items.map((p) => ({ id: p.id, name: p.name, access_token: `sim-page-${p.id}:${token}`, category: 'Local business', ...(p.address ? { single_line_address: p.address } : {}) })),
        paging: { cursors: { before: encodeOffset(0), after }, ...(next ? { next } : {}) },
      });
    });

    router.get('/:id/ratings', (req, res) => {
      const page = this.page(req.params.id);
      if (!page) return void this.unknownObject(res, req.params.id);
      this.grow(page);
      const sorted = page.ratings.filter((r) => !this.isRemoved(r.storyId)).sort((a, b) => b.createdTime.getTime() - a.createdTime.getTime() || (a.storyId < b.storyId ? 1 : -1));
      const { items, after, next } = this.slice(sorted, req, this.maxPageSize);
      if (!items) return void graphError(res, 400, 100, '(#100) Invalid cursor', 'OAuthException');
      const fields = typeof req.query.fields === 'string' ? req.query.fields : '';
      const comments = commentsExpansion(fields);
      if (comments === 'invalid') return void graphError(res, 400, 100, '(#100) The parameter limit must be a positive integer', 'OAuthException');
      res.json({
        data: items.map((r) => ({
          created_time: graphTime(r.createdTime),
          recommendation_type: r.recommendation,
          ...(r.rating !== undefined ? { rating: r.rating } : {}),
          ...(r.text !== null ? { review_text: r.text } : {}),
          ...(r.reviewer ? { reviewer: r.reviewer } : {}),
          open_graph_story: {
            id: r.storyId,
            ...(comments ? { comments: this.expandedComments(r, comments, req) } : {}),
          },
        })),
        paging: { cursors: { before: encodeOffset(0), after }, ...(next ? { next } : {}) },
      });
    });

    router.post('/:id/comments', (req, res) => {
      const storyId = req.params.id;
      const pageId = storyId.replace(/_.*$/, '');
      const rating = this.isRemoved(storyId) ? null : this.rating(storyId);
      const page = this.pages.get(pageId);
      if (!rating || !page) return void this.unknownObject(res, storyId);
      const message = (req.body as Record<string, unknown>).message;
      if (typeof message !== 'string' || !message.trim()) return void graphError(res, 400, 100, '(#100) The parameter message is required');
      if (this.replyRejection) {
        const { status, code, message: reason } = this.replyRejection;
        return void graphError(res, status, code, reason);
      }
      const id = `${storyId}_c${rating.comments.length + 1}`;
      rating.comments.push({ id, from: { id: page.id, name: page.name }, message, createdTime: this.now() });
      const lost = this.lostReplyAnswers.shift();
      if (!lost) return void res.json({ id });
      if ('drop' in lost) return void req.socket.destroy();
      if ('status' in lost) return void graphError(res, lost.status, 2, 'An unexpected error has occurred. Please retry your request later.');
      setTimeout(() => {
        if (!res.writableEnded && !req.socket.destroyed) res.json({ id });
      }, lost.holdMs).unref();
    });

    router.get('/:id/comments', (req, res) => {
      const storyId = req.params.id;
      const rating = this.isRemoved(storyId) ? null : this.rating(storyId);
      if (!rating) return void this.unknownObject(res, storyId);
      const { items, after, next } = this.slice(commentsInOrder(rating, req.query.order), req, COMMENTS_MAX_LIMIT, COMMENTS_DEFAULT_LIMIT);
      if (!items) return void graphError(res, 400, 100, '(#100) Invalid cursor', 'OAuthException');
      res.json({
        data: items.map(wireComment),
        paging: { cursors: { before: encodeOffset(0), after }, ...(next ? { next } : {}) },
      });
    });

    router.get('/:id', (req, res) => {
      const page = this.page(req.params.id);
      if (!page) return void this.unknownObject(res, req.params.id);
      const token = this.tokenOf(req)!;
      const user = token.replace(/^sim-page-[^:]*:/, '');
      res.json({ id: page.id, name: page.name, access_token: `sim-page-${page.id}:${user}` });
    });

    router.use((req, res) => graphError(res, 400, 100, `Unknown path components: ${req.path}`));
    return router;
  }

  private unknownObject(res: Response, id: string): void {
    graphError(
      res,
      400,
      100,
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      'GraphMethodException',
    );
  }

  /** A story's comments expanded in a ratings answer: the first page of its comments edge, with the edge's paging. */
  private expandedComments(rating: FacebookSimRating, opts: { limit: number; order: string }, req: Request) {
    const all = commentsInOrder(rating, opts.order);
    const items = all.slice(0, opts.limit);
    const after = encodeOffset(items.length);
    let next: string | null = null;
    if (items.length < all.length) {
      const url = new URL(`${req.protocol}://${req.get('host')}${req.baseUrl}/${rating.storyId}/comments`);
      url.search = new URLSearchParams({ order: opts.order, limit: String(opts.limit), after, access_token: this.tokenOf(req) ?? '' }).toString();
      next = url.toString();
    }
    return { data: items.map(wireComment), paging: { cursors: { before: encodeOffset(0), after }, ...(next ? { next } : {}) } };
  }

  /** Cursor paging: `after` is an opaque offset; `next` is the full URL of the next page, absent on the last. */
  private slice<T>(all: T[], req: Request, max: number, defaultLimit = max): { items: T[] | null; after: string; next: string | null } {
    const offset = decodeOffset(req.query.after);
    const limit = req.query.limit === undefined ? defaultLimit : Number(req.query.limit);
    if (offset === null || !Number.isInteger(limit) || limit < 1) return { items: null, after: '', next: null };
    const take = Math.min(limit, max);
    const items = all.slice(offset, offset + take);
    const after = encodeOffset(offset + items.length);
    let next: string | null = null;
    if (offset + take < all.length) {
      const url = new URL(`${req.protocol}://${req.get('host')}${req.originalUrl}`);
      url.searchParams.set('after', after);
      next = url.toString();
    }
    return { items, after, next };
  }
}

export function facebookGraphSimulator(opts: FacebookSimulatorOptions = {}): FacebookGraphSimulator {
  return new FacebookGraphSimulator(opts);
}
