import type { ErrorRequestHandler } from 'express';

/**
 * The pages' answer to a form body that is too large or unreadable (the body parser's 413, 400, 415): a page of the
 * router's own with that status, never a stack or JSON to a person. `page` renders the body of the answer.
 */
export function formReadErrors(page: () => string): ErrorRequestHandler {
  return (err: { status?: number }, _req, res, _next) => {
    const status = typeof err.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 400;
    res.status(status).type('html').send(page());
  };
}
