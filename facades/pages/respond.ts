import type { ErrorRequestHandler, Response } from 'express';
import type { VNode } from 'preact';
import { renderPage } from './layout';

/** Answers a page with its status; its inline styles carry the nonce of the response's CSP. */
export function sendPage(res: Response, status: number, page: VNode): void {
  res.status(status).type('html').send(renderPage(page, res.locals.cspNonce as string | undefined));
}

/**
 * The pages' answer to a form body that is too large or unreadable (the body parser's 413, 400, 415): a page of the
 * router's own with that status, never a stack or JSON to a person. A path Express cannot decode (malformed
 * percent-encoding: a URIError with status 400) is a damaged link, not a form: `link` answers it when given.
 */
export function formReadErrors(page: () => VNode, link?: () => VNode): ErrorRequestHandler {
  return (err: { status?: number }, _req, res, _next) => {
    const status = typeof err.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 400;
    sendPage(res, status, link && err instanceof URIError && status === 400 ? link() : page());
  };
}
