/**
 * The review platforms a customer signs in to from a connect link (Google Business Profile, Facebook Pages).
 * Contract shared by the OAuth/connect-link code (sign-in, token storage) and the platform API clients
 * (businesses, reviews, replies). Real clients speak the providers' documented wire formats; the embedded
 * default points them at the in-process simulator.
 */
export const SIGN_IN_PROVIDERS = ['google', 'facebook'] as const;
export type SignInProvider = (typeof SIGN_IN_PROVIDERS)[number];

/** A business location (Google) or page (Facebook) the signed-in account manages. */
export interface ProviderBusiness {
  /** Google: `accounts/{a}/locations/{l}`; Facebook: the page id. Stored as the integration's external id. */
  externalId: string;
  name: string;
  address: string | null;
}

/** One review as the platform has it, mapped to our fields. */
export interface ProviderReview {
  /** Google: the review name `accounts/{a}/locations/{l}/reviews/{r}`; Facebook: the rating's open graph story id. */
  externalId: string;
  author: string;
  avatarUrl: string | null;
  /** 1-5; Facebook recommendations map positive to 5 and negative to 1 (recorded in docs/decisions/review-platforms.md). */
  rating: number;
  title: string | null;
  message: string;
  publishedAt: Date;
  updatedAt: Date | null;
  reply: string | null;
  replyDate: Date | null;
  url: string | null;
}

export interface ReviewPage {
  reviews: ProviderReview[];
  nextPageToken: string | null;
}

/** The platform refused a call (bad request, permission, not found): the reason is the platform's own words. */
export class ProviderRejected extends Error {
  constructor(
    readonly provider: SignInProvider,
    readonly status: number,
    readonly reason: string,
  ) {
    super(`${provider} rejected the request (${status}): ${reason}`);
    this.name = 'ProviderRejected';
  }
}

/** The platform could not be reached or failed (network, 5xx, 429): worth retrying. */
export class ProviderUnavailable extends Error {
  constructor(
    readonly provider: SignInProvider,
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}

/**
 * The business has already replied to the review on the platform with another text (by hand on Google or Facebook,
 * or an earlier attempt with a text composed anew): publishing would replace it (Google's reply is an overwriting
 * PUT) or add a second public reply (a second Facebook comment). The reply path answers 409 `already_replied`; the
 * review sync stores the platform's reply.
 */
export class ProviderReplyExists extends Error {
  constructor(
    readonly provider: SignInProvider,
    readonly reply: string,
    readonly replyDate: Date | null,
  ) {
    super(`The business has already replied to this review on ${provider === 'google' ? 'Google' : 'Facebook'}.`);
    this.name = 'ProviderReplyExists';
  }
}

/** Two reply texts are the same reply when they differ only in line endings and surrounding whitespace. */
export const sameReplyText = (a: string, b: string): boolean => a.replace(/\r\n?/g, '\n').trim() === b.replace(/\r\n?/g, '\n').trim();

/** What the platform says about a reply it accepted (Google answers with the reply's update time). */
export interface PublishedReply {
  replyDate: Date | null;
}

export interface ReviewPlatformClient {
  readonly provider: SignInProvider;
  listBusinesses(accessToken: string): Promise<ProviderBusiness[]>;
  listReviews(accessToken: string, businessExternalId: string, pageToken?: string | null): Promise<ReviewPage>;
  /**
   * Publishes the owner's reply unless the review has one on the platform already: the same text (an earlier attempt
   * whose answer was lost) is answered as published, another text is ProviderReplyExists. Throws ProviderRejected
   * with the platform's reason.
   */
  publishReply(accessToken: string, businessExternalId: string, reviewExternalId: string, message: string): Promise<PublishedReply | void>;
}
