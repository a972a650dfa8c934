import { joinUrl, nestedErrorMessage, platformRequest, type ErrorInfo } from '../http';
import {
  ProviderRejected,
  ProviderReplyExists,
  sameReplyText,
  type ProviderBusiness,
  type PublishedReply,
  type ProviderReview,
  type ReviewPage,
  type ReviewPlatformClient,
} from '../types';

/**
 * Facebook Pages over the Graph API: `GET /me/accounts` (the pages the user manages, each with its page access
 * token), `GET /{page-id}/ratings` (recommendations, paged with `paging.cursors.after`) and
 * `GET` and `POST /{open_graph_story_id}/comments` (the page's reply: read, then made if absent, with the page
 * token). Tokens travel as the documented `access_token` parameter.
 */
export const FACEBOOK_GRAPH_URL = 'https://graph.facebook.com/v19.0';

/** The fields of a comment we read. */
export const COMMENT_FIELDS = 'id,from,message,created_time';

/**
 * The story comments we look for the page's reply in: the newest 100. The sync and the reply path read the same
 * ones, so a reply the reply path finds is never one the sync misses (and clears every run); an edge without
 * limit and order answers only its 25 oldest.
 */
export const COMMENT_LIMIT = 100;
export const COMMENT_ORDER = 'reverse_chronological';

/** The rating fields we read; the story's comments (field expansion with the same limit and order) carry the page's reply. */
export const RATING_FIELDS =
  `reviewer,created_time,recommendation_type,review_text,rating,` +
  `open_graph_story{id,comments.limit(${COMMENT_LIMIT}).order(${COMMENT_ORDER}){${COMMENT_FIELDS}}}`;

interface GraphPaging {
  cursors?: { before?: string; after?: string };
  next?: string;
}
interface GraphPage {
  id: string;
  name?: string;
  access_token?: string;
  single_line_address?: string;
}
export interface GraphComment {
  id?: string;
  from?: { id?: string; name?: string };
  message?: string;
  created_time?: string;
}
export interface GraphRating {
  created_time?: string;
  recommendation_type?: 'positive' | 'negative' | string;
  review_text?: string;
  rating?: number;
  reviewer?: { id?: string; name?: string };
  open_graph_story?: { id?: string; comments?: { data?: GraphComment[] } };
}

const MAX_PAGES = 200;
/** Graph error codes of throttling and passing trouble (API, app, user and page rate limits): retried, not refused. */
const TRANSIENT_CODES = new Set([1, 2, 4, 17, 32, 341, 613]);

function errorInfo(body: unknown): ErrorInfo {
  const error = (body as { error?: { code?: number; is_transient?: boolean } } | null)?.error;
  return { message: nestedErrorMessage(body), transient: Boolean(error?.is_transient) || TRANSIENT_CODES.has(Number(error?.code)) };
}

/** Graph timestamps look like `2026-11-01T10:00:00+0000`; make the offset ISO so every engine parses it. */
export function graphDate(value: string | undefined): Date | null {
  if (!value) return null;
  const d = new Date(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(d.getTime()) ? null : d;
}

const SAFE_ID = /^[\w.-]+$/;

/** The page's reply on a story: its own latest comment (what the review sync stores as the reply), or null. */
export function pageReplyOf(comments: GraphComment[] | undefined, pageId: string): (GraphComment & { message: string }) | null {
  const mine = (comments ?? []).filter((c): c is GraphComment & { message: string } => c.from?.id === pageId && typeof c.message === 'string');
  if (!mine.length) return null;
  return mine.reduce((a, b) => ((graphDate(b.created_time)?.getTime() ?? 0) >= (graphDate(a.created_time)?.getTime() ?? 0) ? b : a));
}

/**
 * The page has already replied to the story with another text: a second comment would be a second public reply.
 * The reply path answers 409 `already_replied` (as for Google's ProviderReplyExists).
 */
export class FacebookReplyExists extends ProviderReplyExists {
  constructor(reply: string, replyDate: Date | null) {
    super('facebook', reply, replyDate);
    this.message = 'The page has already replied to this review on Facebook.';
    this.name = 'FacebookReplyExists';
  }
}

/** The author stored for a reviewer whose name Facebook does not give (no first name to greet: auto-respond). */
export const FACEBOOK_ANONYMOUS_AUTHOR = 'A Facebook user';

/** A rating as we keep it; null without a story id (nothing to reply to, nothing stable to match on). */
export function mapGraphRating(r: GraphRating, pageId: string): ProviderReview | null {
  const storyId = r.open_graph_story?.id;
  const publishedAt = graphDate(r.created_time);
  if (!storyId || !publishedAt) return null;
  const rating = typeof r.rating === 'number' && r.rating >= 1 && r.rating <= 5 ? Math.round(r.rating) : r.recommendation_type === 'negative' ? 1 : 5;
  // The page's own latest comment on the story is its reply.
  const reply = pageReplyOf(r.open_graph_story?.comments?.data, pageId);
  return {
    externalId: storyId,
    author: r.reviewer?.name?.trim() || FACEBOOK_ANONYMOUS_AUTHOR,
    avatarUrl: null,
    rating,
    title: null,
    message: r.review_text ?? '',
    publishedAt,
    updatedAt: null,
    reply: reply?.message ?? null,
    replyDate: reply ? graphDate(reply.created_time) : null,
    url: `https://www.facebook.com/${storyId}`,
  };
}

export class FacebookGraphClient implements ReviewPlatformClient {
  readonly provider = 'facebook' as const;
  private readonly base: string;
  private readonly timeoutMs?: number;

  constructor(opts: { baseUrl?: string | null; timeoutMs?: number } = {}) {
    this.base = opts.baseUrl || FACEBOOK_GRAPH_URL;
    this.timeoutMs = opts.timeoutMs;
  }

  private get(path: string, params: Record<string, string>): Promise<unknown> {
    const url = `${joinUrl(this.base, path)}?${new URLSearchParams(params)}`;
    return platformRequest('facebook', { url, timeoutMs: this.timeoutMs }, errorInfo);
  }

  async listBusinesses(accessToken: string): Promise<ProviderBusiness[]> {
    const pages: ProviderBusiness[] = [];
    let after: string | null = null;
    for (let n = 0; n < MAX_PAGES; n++) {
      const params: Record<string, string> = { fields: 'id,name,access_token,single_line_address', limit: '100', access_token: accessToken };
      if (after) params.after = after;
      const body = (await this.get('me/accounts', params)) as { data?: GraphPage[]; paging?: GraphPaging };
      for (const p of body.data ?? []) pages.push({ externalId: p.id, name: p.name ?? p.id, address: p.single_line_address || null });
      after = body.paging?.next ? body.paging.cursors?.after ?? null : null;
      if (!after) break;
    }
    return pages;
  }

  /**
   * The page access token for a page the user manages (`GET /{page-id}?fields=access_token`). A token that is
   * already the page's own comes back as it is.
   */
  async pageToken(accessToken: string, pageId: string): Promise<string> {
    this.assertId(pageId, 'page');
    const body = (await this.get(pageId, { fields: 'access_token', access_token: accessToken })) as { access_token?: string };
    return body.access_token || accessToken;
  }

  async listReviews(accessToken: string, businessExternalId: string, pageToken?: string | null): Promise<ReviewPage> {
    const token = await this.pageToken(accessToken, businessExternalId);
    const params: Record<string, string> = { fields: RATING_FIELDS, limit: '25', access_token: token };
    if (pageToken) params.after = pageToken;
    const body = (await this.get(`${businessExternalId}/ratings`, params)) as { data?: GraphRating[]; paging?: GraphPaging };
    const reviews = (body.data ?? []).map((r) => mapGraphRating(r, businessExternalId)).filter((r): r is ProviderReview => r !== null);
    return { reviews, nextPageToken: body.paging?.next ? body.paging.cursors?.after ?? null : null };
  }

  /** The page's current reply on a story (`GET /{story}/comments`, newest first), as the review sync reads it. */
  private async replyOnStory(pageToken: string, pageId: string, storyId: string): Promise<(GraphComment & { message: string }) | null> {
    const params = { fields: COMMENT_FIELDS, order: COMMENT_ORDER, limit: String(COMMENT_LIMIT), access_token: pageToken };
    const body = (await this.get(`${storyId}/comments`, params)) as { data?: GraphComment[] };
    return pageReplyOf(body.data, pageId);
  }

  /**
   * Publishes the page's reply as a comment on the story (`POST /{story}/comments`), at most once: a comment is
   * not idempotent (an accepted comment whose answer was lost, then a retry, would be a second public reply), so
   * the story's comments are read first. The page's reply with this text already there is the reply published
   * (answered with its time, nothing posted); another text of the page's is FacebookReplyExists.
   */
  async publishReply(accessToken: string, businessExternalId: string, reviewExternalId: string, message: string): Promise<PublishedReply> {
    this.assertId(reviewExternalId, 'story');
    const token = await this.pageToken(accessToken, businessExternalId);
    const existing = await this.replyOnStory(token, businessExternalId, reviewExternalId);
    if (existing) {
      if (sameReplyText(existing.message, message)) return { replyDate: graphDate(existing.created_time) };
      throw new FacebookReplyExists(existing.message, graphDate(existing.created_time));
    }
    await platformRequest(
      'facebook',
      { method: 'POST', url: joinUrl(this.base, `${reviewExternalId}/comments`), form: { message, access_token: token }, timeoutMs: this.timeoutMs },
      errorInfo,
    );
    return { replyDate: null };
  }

  private assertId(id: string, what: string): void {
    if (!SAFE_ID.test(id)) throw new ProviderRejected('facebook', 400, `"${id}" is not a ${what} id.`);
  }
}
