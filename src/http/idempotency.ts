import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { contextOf } from '../../facades/shared/auth';
import { sendError } from '../../facades/shared/errors';
import { systemClock, type Clock } from '../domain/clock';
import { Conflict, ruleViolation, Validation } from '../domain/errors';
import {
  claimIdempotencyKey,
  finishIdempotencyKey,
  purgeExpiredIdempotencyKeys,
  releaseIdempotencyKey,
} from '../services/idempotency.service';

const KEY = /^[\x21-\x7e]{1,255}$/;
/** One claim in this many also purges a batch of expired keys. */
const PURGE_EVERY = 100;

/** JSON with object keys sorted, so two bodies that mean the same hash the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What makes two requests "the same" for a key: method, path with query, and the body (parsed JSON or form fields,
 * keys in any order). A multipart upload is read later, by its route: its content type (with the boundary) and length
 * stand for it.
 */
export function requestFingerprint(req: Request): string {
  const type = req.get('content-type') ?? '';
  const body = type.startsWith('multipart/') ? `multipart ${req.get('content-length') ?? ''}` : canonical(req.body ?? {});
  return createHash('sha256').update(`${req.method} ${req.originalUrl}\n${body}`).digest('hex');
}

/**
 * `Idempotency-Key` on every POST of a REST API (mounted after authentication and the body parsers; issue 15). The
 * first request with a key runs and its answer is stored before it is sent; the same key and request within 24 h
 * answers that again (`Idempotent-Replayed: true`) without running anything; another request with the key is 422
 * `idempotency_key_reused`; while the first still runs, 409 `idempotency_key_in_use`. Keys are per token. A first
 * answer of 5xx or 429, or a connection dropped before the answer, frees the key for a retry; so does a key left
 * `running` for over 5 minutes (`IDEMPOTENCY_ABANDONED_MS`) by a process that died mid-request, where neither of
 * those could run.
 */
export function idempotentPosts(opts: { logger: Logger; clock?: Clock; ignore?: readonly RegExp[] }): RequestHandler {
  const clock = opts.clock ?? systemClock;
  let claims = 0;
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') return next();
    // Routes whose spec accepts no idempotency key (the invite, rule 9): the header is ignored like any unlisted input.
    if (opts.ignore?.some((re) => re.test(req.path))) return next();
    const key = req.get('idempotency-key');
    if (key === undefined) return next();
    if (!KEY.test(key)) {
      return sendError(res, new Validation({ idempotency_key: ['The Idempotency-Key header must be 1 to 255 visible ASCII characters.'] }));
    }
    const caller = contextOf(res).principal!;
    void (async () => {
      const claim = await claimIdempotencyKey(caller, key, requestFingerprint(req), clock.now());
      if (claim.kind === 'replay') {
        res.setHeader('Idempotent-Replayed', 'true');
        res.status(claim.status).type('application/json').send(claim.body);
        return;
      }
      if (claim.kind === 'reused') {
        return sendError(res, ruleViolation('This Idempotency-Key was already used with another request (another path or body) in the last 24 hours.', 'idempotency_key_reused'));
      }
      if (claim.kind === 'running') {
        return sendError(res, new Conflict('A request with this Idempotency-Key is still being processed; retry when it has finished.', 'idempotency_key_in_use'));
      }
      if (++claims % PURGE_EVERY === 0) {
        void purgeExpiredIdempotencyKeys(clock.now()).catch((err: unknown) => opts.logger.warn({ err: { message: (err as Error).message } }, 'idempotency keys not purged'));
      }
      let settled = false;
      const json = res.json.bind(res);
      // The answer is stored before it is sent: a retry that arrives the moment the client has it gets it back.
      res.json = ((body: unknown) => {
        settled = true;
        const status = res.statusCode;
        const keep = status < 500 && status !== 429;
        const stored = keep ? finishIdempotencyKey(claim.id, status, JSON.stringify(body), clock.now()) : releaseIdempotencyKey(claim.id);
        stored.then(
          () => json(body),
          (err: unknown) => {
            opts.logger.error({ err: { message: (err as Error).message } }, 'idempotency key not stored');
            json(body);
          },
        );
        return res;
      }) as Response['json'];
      res.on('close', () => {
        if (!settled) void releaseIdempotencyKey(claim.id).catch(() => undefined);
      });
      next();
    })().catch((err: unknown) => sendError(res, err, opts.logger));
  };
}
