import type { ApiClient } from './client';

/** The body of a page: the list in `data`, where it is in `meta`, and (on most lists) `links` to the others. */
interface PageBody {
  data: readonly unknown[];
  meta: { current_page: number; per_page?: number; last_page?: number; total?: number };
  links?: { next?: string | null };
}

type JsonOk<Op> = Op extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;
type GetOf<Paths, P extends keyof Paths> = Paths[P] extends { get: infer Op } ? Op : never;

/** The GET paths of `Paths` that answer a page (`data` list and `meta.current_page`). */
export type PaginatedPath<Paths> = {
  [P in keyof Paths]: JsonOk<GetOf<Paths, P>> extends PageBody ? P : never;
}[keyof Paths];

/** One item of the list at `P`. */
export type ItemOf<Paths, P extends keyof Paths> = JsonOk<GetOf<Paths, P>> extends { data: readonly (infer Item)[] } ? Item : never;
/** One whole page of the list at `P` (items, `meta`, `links`). */
export type PageOf<Paths, P extends keyof Paths> = JsonOk<GetOf<Paths, P>>;

type ParametersOf<Paths, P extends keyof Paths> = GetOf<Paths, P> extends { parameters: infer Params } ? Params : never;
type QueryOf<Paths, P extends keyof Paths> = ParametersOf<Paths, P> extends { query?: infer Q } ? NonNullable<Q> : never;
type PathParamsOf<Paths, P extends keyof Paths> = ParametersOf<Paths, P> extends { path?: infer A } ? NonNullable<A> : never;

export interface PageOptions<Query, PathParams> {
  /** The list's filters, as for `GET`; `page` says where to start (default 1), `per_page` the page size. */
  query?: Query;
  /** The path's parameters, for lists under a resource (`/webhooks/{id}/deliveries`). */
  path?: PathParams;
  /** Stop after this many pages (a guard for very long lists). */
  maxPages?: number;
  signal?: AbortSignal;
}

type PageArgs<Paths, P extends keyof Paths> = [PathParamsOf<Paths, P>] extends [never]
  ? [options?: PageOptions<QueryOf<Paths, P>, never>]
  : [options: PageOptions<QueryOf<Paths, P>, PathParamsOf<Paths, P>> & { path: PathParamsOf<Paths, P> }];

/**
 * Every page of a list, in order: asks for the first page, then for the page `links.next` names, until there is no
 * next page (`links.next` null, `meta.last_page` reached, or, on lists that give only `meta.total`, every item
 * seen). Each page is one request, made only when the previous one has been consumed.
 */
export async function* pages<Paths extends object, P extends PaginatedPath<Paths> & string>(
  client: ApiClient<Paths>,
  path: P,
  ...[options]: PageArgs<Paths, P>
): AsyncGenerator<PageOf<Paths, P>, void, undefined> {
  const get = client.GET as unknown as (url: string, init: Record<string, unknown>) => Promise<{ data: PageBody }>;
  const query = { ...(options?.query as Record<string, unknown> | undefined) };
  let page = Number(query.page ?? 1);
  for (let fetched = 0; options?.maxPages === undefined || fetched < options.maxPages; fetched++) {
    const { data: body } = await get(path, { params: { query: { ...query, page }, path: options?.path }, signal: options?.signal });
    yield body as PageOf<Paths, P>;
    const next = nextPage(body);
    // A server that points back (or nowhere new) would otherwise be asked forever.
    if (next === null || next <= page) return;
    page = next;
  }
}

/**
 * Every item of a list across all its pages: `for await (const review of paginate(client, '/reviews', { query }))`.
 * Pages are fetched as the loop reaches them; breaking out of the loop stops the requests.
 */
export async function* paginate<Paths extends object, P extends PaginatedPath<Paths> & string>(
  client: ApiClient<Paths>,
  path: P,
  ...args: PageArgs<Paths, P>
): AsyncGenerator<ItemOf<Paths, P>, void, undefined> {
  for await (const page of pages(client, path, ...args)) {
    for (const item of (page as PageBody).data) yield item as ItemOf<Paths, P>;
  }
}

/** Collects every item of a list into an array (mind the size of the list). */
export async function all<Paths extends object, P extends PaginatedPath<Paths> & string>(
  client: ApiClient<Paths>,
  path: P,
  ...args: PageArgs<Paths, P>
): Promise<ItemOf<Paths, P>[]> {
  const out: ItemOf<Paths, P>[] = [];
  for await (const item of paginate(client, path, ...args)) out.push(item);
  return out;
}

/** The page after `body`, or null at the end. The link's `page` is taken, not its URL: requests stay on `baseUrl`. */
function nextPage(body: PageBody): number | null {
  const { meta, links, data } = body;
  if (data.length === 0) return null;
  if (links && 'next' in links) {
    if (!links.next) return null;
    const fromLink = Number(new URL(links.next, 'http://relative.invalid').searchParams.get('page'));
    return Number.isInteger(fromLink) && fromLink > 0 ? fromLink : meta.current_page + 1;
  }
  if (typeof meta.last_page === 'number') return meta.current_page < meta.last_page ? meta.current_page + 1 : null;
  if (typeof meta.total === 'number' && typeof meta.per_page === 'number') {
    return meta.current_page * meta.per_page < meta.total ? meta.current_page + 1 : null;
  }
  return null;
}
