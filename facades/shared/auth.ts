import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authenticatedContext, makeContext, type Context, type Seams } from '../../src/context';
import type { Clock } from '../../src/domain/clock';
import type { TokenKind } from '../../src/domain/principal';
import { sendError } from './errors';
import { baseUrlOf } from './pagination';

export function bearerOf(req: Request): string | null {
  const header = req.get('authorization');
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

/**
 * Authenticates before anything else reads the request (a bad body from an unknown caller is a 401, not a 422)
 * and leaves the GraphQL context in `res.locals.ctx` for the routes.
 */
export function authenticateRequests(opts: { kinds: readonly TokenKind[]; clock?: Clock }): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    authenticatedContext({
      bearer: bearerOf(req),
      baseUrl: baseUrlOf(req),
      kinds: opts.kinds,
      clock: opts.clock,
      requestId: req.id === undefined ? undefined : String(req.id),
    }).then(
      (ctx) => {
        res.locals.ctx = ctx;
        next();
      },
      (err) => sendError(res, err, req.log),
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
