/**
 * @reviewgrid/client: a typed client of the Reviewgrid REST APIs, generated from their OpenAPI documents.
 * See README.md.
 */
export { createAgencyClient, createCustomerClient } from './client';
export type { AgencyClient, Answer, ApiClient, ClientOptions, CustomerClient, Method, PathsWithMethod } from './client';
export { ApiError, isApiError, retryAfterSeconds } from './errors';
export { all, pages, paginate } from './pagination';
export type { ItemOf, PageOf, PageOptions, PaginatedPath } from './pagination';
export type { FetchLike, RetryOptions } from './retry';
export { signWebhook, verifyWebhook, WebhookVerificationError } from './webhooks';
export type { VerifyWebhookInput, WebhookEvent, WebhookEventName, WebhookFailure, WebhookHeaders, WebhookPayload } from './webhooks';
export type * as agency from './generated/agency';
export type * as customer from './generated/customer';
