import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { DomainError, restStatus } from '../../src/domain/errors';
import { failureOf } from './execute';

export interface RestErrorBody {
  message: string;
  code?: string;
  errors?: Record<string, string[]>;
}

/** The one mapping from domain errors to the REST wire: status + `{message, code?, errors?}`. */
export function restError(err: DomainError): { status: number; body: RestErrorBody } {
  const body: RestErrorBody = { message: err.message };
  if (err.reason) body.code = err.reason;
  if (err.code === 'VALIDATION') body.errors = err.fields ?? {};
  return { status: restStatus(err.code), body };
}

export function sendError(res: Response, err: unknown, log?: Logger): void {
  if (err instanceof DomainError) {
    const { status, body } = restError(err);
    if (err.code === 'RATE_LIMITED' && 'retryAfterSeconds' in err) res.setHeader('Retry-After', String(err.retryAfterSeconds));
    res.status(status).json(body);
    return;
  }
  log?.error({ err: loggable(failureOf(err)) }, 'unhandled error');
  res.status(500).json({ message: 'Server Error' });
}

/** Body-parser failures (malformed JSON, oversized bodies) and anything else that escaped: always JSON. */
export function jsonErrorHandler(log: Logger) {
  return (err: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(err);
    const e = err as { type?: string; status?: number; statusCode?: number };
    if (e.type === 'entity.parse.failed') {
      res.status(422).json({ message: 'The request body is not valid JSON.', errors: { body: ['The request body is not valid JSON.'] } });
      return;
    }
    if (e.type === 'entity.too.large') {
      res.status(413).json({ message: 'The request body is too large.' });
      return;
    }
    if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
      res.status(415).json({ message: 'Unsupported request body encoding.' });
      return;
    }
    // Any other client error raised while reading the request (a body that does not inflate, too many or too
    // deeply nested form fields, a malformed percent-encoding in the path) keeps its 4xx, as JSON.
    const status = e.status ?? e.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).json({ message: status === 413 ? 'The request body is too large.' : 'The request could not be read.' });
      return;
    }
    if (err instanceof URIError) {
      res.status(400).json({ message: 'The request path is not valid percent-encoding.' });
      return;
    }
    sendError(res, err, (req as Request & { log?: Logger }).log ?? log);
  };
}

/**
 * What an unexpected error may put in the log: its class, message (cut short) and stack, never the SQL
 * parameters, bodies or driver internals that database errors carry (they can hold personal data or files).
 */
export function loggable(err: unknown): { type: string; message: string; stack?: string } {
  if (!(err instanceof Error)) return { type: typeof err, message: String(err).slice(0, 500) };
  return { type: err.name, message: err.message.slice(0, 500), stack: err.stack?.split('\n').slice(0, 12).join('\n') };
}
