import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authenticatedContext, makeContext, type Context, type Seams } from '../../src/context';
import type { Clock } from '../../src/domain/clock';
import type { TokenKind } from '../../src/domain/principal';
import { sendError } from './errors';
import type { FailedAuthentications } from './rate-limit';
import { Unauthenticated } from '../../src/domain/errors';
import { baseUrlOf } from './pagination';
import { hashToken } from '../../src/crypto/token-hash';

export function bearerOf(req: Request): string | null {
  const header = req.get('authorization');
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

const bearerHashes = new WeakMap<Request, string>();

/**
 * The SHA-256 of the request's bearer secret (what `api_tokens.token_hash` holds), computed once per request: the
 * REST rate limit keys its budget by it and authentication looks the token up by it. Null without a bearer.
 */
export function bearerHashOf(req: Request): string | null {
  const known = bearerHashes.get(req);
  if (known !== undefined) return known;
  const bearer = bearerOf(req);
  if (!bearer) return null;
  const digest = hashToken(bearer);
  bearerHashes.set(req, digest);
  return digest;
}

/**
 * Authenticates before anything else reads the request (a bad body from an unknown caller is a 401, not a 422)
 * and leaves the GraphQL context in `res.locals.ctx` for the routes. A failed authentication counts against its
 * address (`failures`): past the limit the answer is 429, and the address is refused before authenticating.
 * `anonymous` (`/graphql`): a request without a token, or whose token failed (counted all the same), goes on with
 * an anonymous context, which the schema answers 401 for anything but introspection; a look-up that broke (the
 * database away) goes on as `res.locals.authError`, for the GraphQL server to answer in its own error shape.
 */
export function authenticateRequests(opts: { kinds?: readonly TokenKind[]; clock?: Clock; failures: FailedAuthentications; anonymous?: boolean }): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const blocked = opts.failures.blocked(req);
    if (blocked !== null) return opts.failures.refuse(res, blocked);
    const bearer = bearerOf(req);
    const requestId = req.id === undefined ? undefined : String(req.id);
    if (opts.anonymous && !bearer) {
      res.locals.ctx = makeContext({ principal: null, baseUrl: baseUrlOf(req), requestId, clock: opts.clock });
      return next();
    }
    const bearerHash = bearer ? bearerHashOf(req) ?? undefined : undefined;
    authenticatedContext({ bearer, bearerHash, baseUrl: baseUrlOf(req), kinds: opts.kinds, clock: opts.clock, requestId }).then(
      (ctx) => {
        res.locals.ctx = ctx;
        next();
      },
      async (err: unknown) => {
        if (err instanceof Unauthenticated) {
          const wait = await opts.failures.failed(req);
          if (wait !== null) return opts.failures.refuse(res, wait);
          if (opts.anonymous) {
            res.locals.ctx = makeContext({ principal: null, baseUrl: baseUrlOf(req), requestId, clock: opts.clock });
            return next();
          }
        } else if (opts.anonymous) {
          res.locals.authError = err;
          return next();
        }
        sendError(res, err, req.log);
      },
    );
  };
}

export function contextOf(res: Response): Context {
  const ctx = res.locals.ctx as Context | undefined;
  if (!ctx) throw new Error('route mounted without authenticateRequests');
  return ctx;
}

/**
 * The context of a public edge's own GraphQL operation (facades/pages, facades/inbound): no principal, the link's or
 * endpoint's token, an argument, is the credential; `publicEdge` admits the `@Authorized(LINK)` operations.
 * `seams` put test doubles in place of a platform API or a workflow start (the connect page's).
 */
export function edgeContext(req: Request, clock?: Clock, seams?: Seams): Context {
  return makeContext({ principal: null, baseUrl: baseUrlOf(req), requestId: req.id === undefined ? undefined : String(req.id), clock, publicEdge: true, seams });
}
