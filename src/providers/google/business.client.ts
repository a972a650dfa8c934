import { joinUrl, nestedErrorMessage, platformRequest } from '../http';
import {
  ProviderRejected,
  ProviderReplyExists,
  sameReplyText,
  type ProviderBusiness,
  type ProviderReview,
  type PublishedReply,
  type ReviewPage,
  type ReviewPlatformClient,
} from '../types';

/**
 * Google Business Profile over its documented REST APIs:
 * - Account Management `GET /v1/accounts`,
 * - Business Information `GET /v1/{parent=accounts/*}/locations?readMask=name,title,storefrontAddress`,
 * - My Business v4 `GET /v4/{parent=accounts/*\/locations/*}/reviews`, `GET /v4/{name=...reviews/*}` and
 *   `PUT /v4/{name=...reviews/*}/reply`.
 * The three live on different hosts; a single base (`GOOGLE_API_URL`: proxy, simulator, test server) serves all.
 */
export interface GoogleHosts {
  accountManagement: string;
  businessInformation: string;
  reviews: string;
}

export const GOOGLE_HOSTS: GoogleHosts = {
  accountManagement: 'https://mybusinessaccountmanagement.googleapis.com',
  businessInformation: 'https://mybusinessbusinessinformation.googleapis.com',
  reviews: 'https://mybusiness.googleapis.com',
};

export const googleHosts = (base?: string | null): GoogleHosts =>
  base ? { accountManagement: base, businessInformation: base, reviews: base } : GOOGLE_HOSTS;

/** Wire shapes (the fields we read). */
interface GoogleAccount {
  name: string;
  accountName?: string;
}
interface GoogleAddress {
  addressLines?: string[];
  locality?: string;
  administrativeArea?: string;
  postalCode?: string;
  regionCode?: string;
}
interface GoogleLocation {
  name: string;
  title?: string;
  storefrontAddress?: GoogleAddress;
}
export interface GoogleReview {
  name?: string;
  reviewId?: string;
  reviewer?: { displayName?: string; profilePhotoUrl?: string; isAnonymous?: boolean };
  starRating?: string;
  comment?: string;
  createTime?: string;
  updateTime?: string;
  reviewReply?: { comment?: string; updateTime?: string };
}

export const STAR_RATINGS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };
/** Pages are capped so a platform that keeps answering a next page token cannot loop us forever. */
const MAX_PAGES = 200;
const LOCATION_NAME = /^accounts\/[^/?#]+\/locations\/[^/?#]+$/;
const REVIEW_NAME = /^accounts\/[^/?#]+\/locations\/[^/?#]+\/reviews\/[^/?#]+$/;

const errorInfo = (body: unknown) => ({ message: nestedErrorMessage(body) });

function address(a: GoogleAddress | undefined): string | null {
  if (!a) return null;
  const parts = [...(a.addressLines ?? []), a.locality, [a.administrativeArea, a.postalCode].filter(Boolean).join(' '), a.regionCode]
    .map((p) => (p ?? '').trim())
    .filter(Boolean);
  return parts.length ? parts.join(', ') : null;
}

const date = (value: string | undefined): Date | null => {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** The author stored for a reviewer whose name Google does not give (no first name to greet: auto-respond). */
export const GOOGLE_ANONYMOUS_AUTHOR = 'A Google user';

/** A review as we keep it; null for one we cannot keep (no star rating, no creation time). */
export function mapGoogleReview(r: GoogleReview, locationName: string): ProviderReview | null {
  const rating = STAR_RATINGS[r.starRating ?? ''];
  const publishedAt = date(r.createTime);
  const externalId = r.name ?? (r.reviewId ? `${locationName}/reviews/${r.reviewId}` : null);
  if (!rating || !publishedAt || !externalId) return null;
  const reply = r.reviewReply?.comment ?? null;
  return {
    externalId,
    author: r.reviewer?.displayName?.trim() || GOOGLE_ANONYMOUS_AUTHOR,
    avatarUrl: r.reviewer?.profilePhotoUrl || null,
    rating,
    title: null,
    message: r.comment ?? '',
    publishedAt,
    updatedAt: date(r.updateTime),
    reply,
    replyDate: reply === null ? null : date(r.reviewReply?.updateTime),
    url: null,
  };
}

export class GoogleBusinessClient implements ReviewPlatformClient {
  readonly provider = 'google' as const;
  private readonly hosts: GoogleHosts;
  private readonly timeoutMs?: number;

  constructor(opts: { baseUrl?: string | null; hosts?: GoogleHosts; timeoutMs?: number } = {}) {
    this.hosts = opts.hosts ?? googleHosts(opts.baseUrl);
    this.timeoutMs = opts.timeoutMs;
  }

  private get(url: string, token: string): Promise<unknown> {
    return platformRequest('google', { url, bearer: token, timeoutMs: this.timeoutMs }, errorInfo);
  }

  async listBusinesses(accessToken: string): Promise<ProviderBusiness[]> {
    const accounts: GoogleAccount[] = [];
    let token: string | null = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const q = new URLSearchParams({ pageSize: '20' });
      if (token) q.set('pageToken', token);
      const body = (await this.get(`${joinUrl(this.hosts.accountManagement, 'v1/accounts')}?${q}`, accessToken)) as {
        accounts?: GoogleAccount[];
        nextPageToken?: string;
      };
      accounts.push(...(body.accounts ?? []));
      token = body.nextPageToken || null;
      if (!token) break;
    }
    const businesses: ProviderBusiness[] = [];
    for (const account of accounts) {
      let pageToken: string | null = null;
      for (let page = 0; page < MAX_PAGES; page++) {
        const q = new URLSearchParams({ readMask: 'name,title,storefrontAddress', pageSize: '100' });
        if (pageToken) q.set('pageToken', pageToken);
        const url = `${joinUrl(this.hosts.businessInformation, `v1/${account.name}/locations`)}?${q}`;
        const body = (await this.get(url, accessToken)) as { locations?: GoogleLocation[]; nextPageToken?: string };
        for (const l of body.locations ?? []) {
          // Business Information names a location `locations/{id}`; the v4 reviews API wants it under its account.
          const id = l.name.replace(/^.*locations\//, '');
          businesses.push({ externalId: `${account.name}/locations/${id}`, name: l.title ?? l.name, address: address(l.storefrontAddress) });
        }
        pageToken = body.nextPageToken || null;
        if (!pageToken) break;
      }
    }
    return businesses;
  }

  async listReviews(accessToken: string, businessExternalId: string, pageToken?: string | null): Promise<ReviewPage> {
    if (!LOCATION_NAME.test(businessExternalId)) {
      throw new ProviderRejected('google', 400, `"${businessExternalId}" is not a location name (accounts/*/locations/*).`);
    }
    const q = new URLSearchParams({ pageSize: '50' });
    if (pageToken) q.set('pageToken', pageToken);
    const body = (await this.get(`${joinUrl(this.hosts.reviews, `v4/${businessExternalId}/reviews`)}?${q}`, accessToken)) as {
      reviews?: GoogleReview[];
      nextPageToken?: string;
    };
    const reviews = (body.reviews ?? []).map((r) => mapGoogleReview(r, businessExternalId)).filter((r): r is ProviderReview => r !== null);
    return { reviews, nextPageToken: body.nextPageToken || null };
  }

  /**
   * Publishes the owner's reply (`PUT .../reply`), which replaces whatever reply the review has: so the review is read
   * first (`GET /v4/{review name}`, its `reviewReply`). A reply with this text already there is the reply published (an
   * earlier attempt whose answer was lost: answered with its time, nothing sent); another text (the owner replied on
   * Google since the last sync) is ProviderReplyExists, and nothing is overwritten. Google offers no conditional PUT,
   * so an owner's reply landing between the read and the PUT is still replaced: that window is one round trip.
   */
  async publishReply(accessToken: string, businessExternalId: string, reviewExternalId: string, message: string): Promise<PublishedReply> {
    if (!REVIEW_NAME.test(reviewExternalId) || !reviewExternalId.startsWith(`${businessExternalId}/`)) {
      throw new ProviderRejected('google', 400, `"${reviewExternalId}" is not a review of ${businessExternalId}.`);
    }
    const current = (await this.get(joinUrl(this.hosts.reviews, `v4/${reviewExternalId}`), accessToken)) as GoogleReview;
    const existing = current.reviewReply?.comment;
    if (typeof existing === 'string' && existing.trim()) {
      if (sameReplyText(existing, message)) return { replyDate: date(current.reviewReply?.updateTime) };
      throw new ProviderReplyExists('google', existing, date(current.reviewReply?.updateTime));
    }
    const body = (await platformRequest(
      'google',
      { method: 'PUT', url: joinUrl(this.hosts.reviews, `v4/${reviewExternalId}/reply`), bearer: accessToken, json: { comment: message }, timeoutMs: this.timeoutMs },
      errorInfo,
    )) as { comment?: string; updateTime?: string };
    return { replyDate: date(body.updateTime) };
  }
}
