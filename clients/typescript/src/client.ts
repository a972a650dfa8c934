import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import { ApiError } from './errors';
import type { paths as AgencyPaths } from './generated/agency';
import type { paths as CustomerPaths } from './generated/customer';
import { retryingFetch, retryPolicy, type FetchLike, type RetryOptions } from './retry';

export interface ClientOptions {
  /**
   * The white-label domain the API is served on, e.g. `https://reviews.example-agency.com`. The API's own prefix
   * (`/api/v1`, `/api/agency/v1`) is added unless the URL already ends with it.
   */
  baseUrl: string;
  /** An API token (customer tokens for the customer API, agency tokens for the agency API). */
  token: string;
  /** A fetch of your own (a proxy agent, a test double); defaults to the global fetch of Node 20+. */
  fetch?: FetchLike;
  /** Retries on 429 (on by default: 3 tries, waits of up to 60 s); `false` answers the first 429 as an ApiError. */
  retry?: RetryOptions | false;
  /** Headers sent with every request (besides `Authorization`). */
  headers?: Record<string, string>;
}

type HttpMethod = 'get' | 'put' | 'post' | 'delete';

/** The paths of `Paths` that have an operation for `M`. */
export type PathsWithMethod<Paths, M extends HttpMethod> = {
  [P in keyof Paths]: Paths[P] extends { [K in M]: unknown } ? P : never;
}[keyof Paths];

type RequiredKeysOf<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** The options argument may be left out when nothing in it is required (the same rule as openapi-fetch's). */
type InitParam<Init> = RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];

/** A 2xx answer: the documented body, typed, and the response (for headers such as `X-RateLimit-Remaining`). */
export interface Answer<Data> {
  data: Data;
  response: Response;
}
type Success<R> = Exclude<R, { error: unknown }> extends { data: infer D } ? D : never;

type Operation<Paths, P extends keyof Paths, M extends HttpMethod> = M extends keyof Paths[P] ? Paths[P][M] : never;

export type Method<Paths extends object, M extends HttpMethod> = <P extends PathsWithMethod<Paths, M>, Init extends MaybeOptionalInit<Paths[P], M & keyof Paths[P]>>(
  url: P,
  ...init: InitParam<Init>
) => Promise<Answer<Success<FetchResponse<Operation<Paths, P, M> & Record<string | number, unknown>, Init, `${string}/${string}`>>>>;

/**
 * A client of one API: `GET`, `POST`, `PUT` and `DELETE` take a documented path and its parameters and body, typed
 * from the OpenAPI document, resolve to the documented 2xx body and throw an {@link ApiError} for anything else.
 */
export interface ApiClient<Paths extends object> {
  GET: Method<Paths, 'get'>;
  POST: Method<Paths, 'post'>;
  PUT: Method<Paths, 'put'>;
  DELETE: Method<Paths, 'delete'>;
  /** The underlying openapi-fetch client: resolves to `{ data, error, response }`, never throws for a status. */
  raw: Client<Paths>;
}

export type CustomerClient = ApiClient<CustomerPaths>;
export type AgencyClient = ApiClient<AgencyPaths>;

/** The customer API (`/api/v1`): organisations, locations, reviews, webhooks, campaigns. */
export function createCustomerClient(options: ClientOptions): CustomerClient {
  return createApiClient<CustomerPaths>('/api/v1', options);
}

/** The agency API (`/api/agency/v1`): customers, plans, orders, connect links, scans, audit events. */
export function createAgencyClient(options: ClientOptions): AgencyClient {
  return createApiClient<AgencyPaths>('/api/agency/v1', options);
}

function createApiClient<Paths extends object>(prefix: string, options: ClientOptions): ApiClient<Paths> {
  if (!options.token) throw new TypeError('A token is required.');
  const base = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const raw = createClient<Paths>({
    baseUrl: base.endsWith(prefix) ? base : base + prefix,
    fetch: retryingFetch(fetchImpl, retryPolicy(options.retry)),
    headers: { ...options.headers, Authorization: `Bearer ${options.token}`, Accept: 'application/json' },
  });
  // openapi-fetch's methods are generic over the paths; here they are called through one untyped door and the
  // public types above say what goes in and comes out.
  type Untyped = (url: string, init?: Record<string, unknown>) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE') => {
    const send = raw[method] as unknown as Untyped;
    return async (url: string, init?: Record<string, unknown>) => {
      const { data, error, response } = await send(url, init);
      if (!response.ok) throw new ApiError(response, error, { method, url: response.url || url });
      return { data, response };
    };
  };
  return {
    GET: call('GET') as unknown as Method<Paths, 'get'>,
    POST: call('POST') as unknown as Method<Paths, 'post'>,
    PUT: call('PUT') as unknown as Method<Paths, 'put'>,
    DELETE: call('DELETE') as unknown as Method<Paths, 'delete'>,
    raw,
  };
}
