import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { loggable } from '../../facades/shared/errors';
import { logSafeUrl } from '../observability/log-redaction';

/**
 * The request log (README, `LOG_LEVEL`): one short JSON line per request (`request completed`: its id, method, URL as
 * logSafeUrl writes it, status and time; an error's type, message and stack), and `req.log` / `res.log` for route code.
 *
 * The lines of the log itself hold only what these serializers pick, nothing the redaction paths
 * (src/observability/log-redaction.ts) name, so its logger skips them: they cost about a tenth of a REST list request's
 * CPU (pino-http makes two child loggers per request, and redaction copies and walks their bindings for every path).
 * Route code logs anything, so `req.log` is the product's redacting logger, with the request as its `req` binding, made
 * when a route first logs (most requests never do).
 */
export function requestLog(logger: Logger): RequestHandler[] {
  const lines = pinoHttp({
    logger,
    redact: { paths: [] },
    genReqId: (req, res) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // Probes and scrapes every few seconds would drown the request log.
    autoLogging: { ignore: (req) => req.url === '/health' || req.url === '/health/ready' || req.url === '/metrics' },
    // One short line per request, read from the request, answer and error themselves (not from pino-std-serializers'
    // copies of them); the full header dump of the default serialisers costs more than the request.
    wrapSerializers: false,
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: logSafeUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: loggable,
    },
  });
  const forRoutes: RequestHandler = (req, res, next) => {
    req.log = res.log = lazyChild(() => logger.child({ req: { id: req.id, method: req.method, url: logSafeUrl(req.originalUrl) } }));
    next();
  };
  return [lines, forRoutes];
}

/**
 * A logger made on its first use: a Proxy that makes it then hands every property to it. (An accessor property defined
 * on each request instead cost more than the request: the objects' shapes change per request.)
 */
function lazyChild(make: () => Logger): Logger {
  let made: Logger | undefined;
  return new Proxy({} as Logger, {
    get(_target, property) {
      made ??= make();
      const value: unknown = Reflect.get(made, property, made);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(made) : value;
    },
    set(_target, property, value) {
      made ??= make();
      return Reflect.set(made, property, value, made);
    },
  });
}
