import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** One JSON answer of a REST API: what the contract tests compare with the OpenAPI documents. */
export interface ApiAnswer {
  method: string;
  /** The full request path, without the query (`/api/v1/reviews/7`). */
  path: string;
  status: number;
  body: unknown;
}

/** Hands every `res.json` answer to `observe` (after the status is set, before it is sent). */
export function observeJsonAnswers(observe: (answer: ApiAnswer) => void): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      observe({ method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, body });
      return json(body);
    };
    next();
  };
}
