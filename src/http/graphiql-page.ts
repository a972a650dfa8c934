import type { Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { developerPageHeaders, GRAPHIQL_SCRIPT_PATH, GRAPHIQL_STYLE_PATH, requestBrand } from './docs-page';
import { docsMessagePage, graphiqlPage } from './docs-page.views';
import { graphiqlBundle } from './graphiql-bundle';

/**
 * `GET /graphql` opened in a browser: the self-hosted GraphiQL (bundled from the `graphiql` package, no CDN), branded
 * with the host's tenant. Every other request (a GET with `query` and a JSON Accept, any POST) goes on to Apollo
 * unchanged. In production the schema is described to signed-in callers only, so the headers editor starts with an
 * `Authorization` header to complete with a token; the placeholder itself is never sent.
 */
export interface GraphiqlPageDeps {
  logger: Logger;
}

export const TOKEN_PLACEHOLDER = 'Bearer <token>';

/** Apollo's rule for its landing page: a GET whose Accept prefers HTML over the GraphQL media types. */
function wantsHtml(req: Request): boolean {
  if (req.method !== 'GET') return false;
  return req.accepts(['application/json', 'application/graphql-response+json', 'multipart/mixed', 'text/html']) === 'text/html';
}

export function graphiqlPages(deps: GraphiqlPageDeps): RequestHandler {
  return async (req, res, next) => {
    if (!wantsHtml(req) || (req.path !== '/' && req.path !== '')) return next();
    try {
      const brand = await requestBrand(req, deps.logger);
      const nonce = developerPageHeaders(res);
      res.set('Vary', 'Accept');
      try {
        const { version } = await graphiqlBundle();
        const v = `?v=${version}`;
        res.status(200).type('html').send(
          graphiqlPage({ brand, nonce, scriptUrl: `${GRAPHIQL_SCRIPT_PATH}${v}`, styleUrl: `${GRAPHIQL_STYLE_PATH}${v}`, endpoint: req.baseUrl || '/graphql', placeholder: TOKEN_PLACEHOLDER }),
        );
      } catch (err) {
        (req.log ?? deps.logger).error({ err }, 'GraphiQL bundle unavailable');
        res.status(503).type('html').send(docsMessagePage({ brand, nonce, current: 'graphql', title: 'GraphQL explorer unavailable', message: 'The explorer could not be loaded. POST /graphql works as usual.' }));
      }
    } catch (err) {
      next(err);
    }
  };
}
