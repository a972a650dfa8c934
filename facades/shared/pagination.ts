import type { Request } from 'express';

export interface PageResult<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
}

/**
 * Origin of the request: the white-label domain the caller used, as `new URL(..).origin` writes it (scheme and host
 * lower case, a default port dropped). The one spelling of an origin: the OAuth issuer and resource
 * (src/http/oauth.ts) and the audience the MCP endpoint expects of its tokens (src/context.ts) are built from it, so
 * `Host: LocalHost:3000` is the same origin as `localhost:3000`. The host is the Host header's, never
 * X-Forwarded-Host. A Host that is no host stays as sent, lower-cased (the OAuth routes answer it 404).
 */
export function baseUrlOf(req: Request): string {
  const sent = `${req.protocol}://${(req.get('host') ?? 'localhost').toLowerCase()}`;
  try {
    return new URL(sent).origin;
  } catch {
    return sent;
  }
}

/** The pagination envelope: `data`, absolute `links` keeping the caller's other query parameters, `meta`. */
export function envelope<T, R>(req: Request, page: PageResult<T>, map: (item: T) => R) {
  const lastPage = Math.max(1, Math.ceil(page.total / page.perPage));
  const base = `${baseUrlOf(req)}${req.baseUrl}${req.path}`;
  const url = (n: number): string => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(req.query)) {
      if (key === 'page') continue;
      const values = Array.isArray(value) ? value : [value];
      const name = Array.isArray(value) && !key.endsWith('[]') ? `${key}[]` : key;
      for (const v of values) if (typeof v === 'string') params.append(name, v);
    }
    params.set('page', String(n));
    return `${base}?${params.toString()}`;
  };
  const from = page.items.length ? (page.page - 1) * page.perPage + 1 : null;
  return {
    data: page.items.map(map),
    links: {
      first: url(1),
      last: url(lastPage),
      prev: page.page > 1 ? url(Math.min(page.page - 1, lastPage)) : null,
      next: page.page < lastPage ? url(page.page + 1) : null,
    },
    meta: {
      current_page: page.page,
      from,
      last_page: lastPage,
      per_page: page.perPage,
      to: from === null ? null : from + page.items.length - 1,
      total: page.total,
    },
  };
}
