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

/** A file of a multipart body as the routes' parser (multer) leaves it in `req.files`. */
interface ParsedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  buffer: Buffer;
}

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

/**
 * What makes two requests "the same" for a key: method, path with query, and the body as parsed (JSON, or form fields
 * of a urlencoded or multipart body; keys in any order), with a multipart body's files: each one's field, name, type
 * and a hash of its bytes. Files of one field keep their order (the route keeps the last), those of different fields
 * do not matter. The multipart framing (the boundary, the order of the parts' headers) is not part of it: the same
 * fields and files sent with another boundary are the same request. A multipart body is only read by its route
 * (`mountRoutes`), so its request is fingerprinted there (`claimParsedMultipart`), not before.
 */
export function requestFingerprint(req: Request): string {
  let body = canonical(req.body ?? {});
  const files = (req as Request & { files?: unknown }).files;
  if (Array.isArray(files) && files.length > 0) {
    const described = (files as ParsedFile[])
      .map((f, i) => ({ f, i }))
      .sort((a, b) => (a.f.fieldname < b.f.fieldname ? -1 : a.f.fieldname > b.f.fieldname ? 1 : a.i - b.i))
      .map(({ f }) => [f.fieldname, f.originalname, f.mimetype, sha256(f.buffer)]);
    body += `\nfiles ${canonical(described)}`;
  }
  return sha256(`${req.method} ${req.originalUrl}\n${body}`);
}

/** Where a multipart POST's claim waits for its route to have read the body (res.locals). */
const PENDING_CLAIM = 'idempotencyPendingClaim';

/**
 * Claims the key of a multipart/form-data POST once its route has read the body (`mountRoutes`, right after the
 * multipart parser, before anything else of the route runs). Answers false when the request has been answered (a
 * replay, 422 `idempotency_key_reused`, 409 `idempotency_key_in_use`): the route then stops. Without a key, or for
 * any other request, true at once.
 */
export async function claimParsedMultipart(res: Response): Promise<boolean> {
  const claim = res.locals[PENDING_CLAIM] as (() => Promise<boolean>) | undefined;
  if (!claim) return true;
  delete res.locals[PENDING_CLAIM];
  return claim();
}

/**
 * `Idempotency-Key` on every POST of a REST API (mounted after authentication and the body parsers; issue 15). The
 * first request with a key runs and its answer is stored before it is sent; the same key and request within 24 h
 * answers that again (`Idempotent-Replayed: true`) without running anything; another request with the key is 422
 * `idempotency_key_reused`; while the first still runs, 409 `idempotency_key_in_use`. Keys are per token. A first
 * answer of 5xx or 429, or a connection dropped before the answer, frees the key for a retry; so does a key left
 * `running` for over 5 minutes (`IDEMPOTENCY_ABANDONED_MS`) by a process that died mid-request, where neither of
 * those could run. A multipart/form-data body is read by its route: the key of such a request is claimed there, once
 * the body is parsed (`claimParsedMultipart`), so that its fields and files are part of the request; a body the parser
 * refuses (413, 422) is answered without claiming the key, as a JSON body that cannot be read is.
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
    /** Claims the key for this request; true when the request goes on to run, false when it has been answered. */
    const claimKey = async (): Promise<boolean> => {
      const claim = await claimIdempotencyKey(caller, key, requestFingerprint(req), clock.now());
      if (claim.kind === 'replay') {
        res.setHeader('Idempotent-Replayed', 'true');
        res.status(claim.status).type('application/json').send(claim.body);
        return false;
      }
      if (claim.kind === 'reused') {
        sendError(res, ruleViolation('This Idempotency-Key was already used with another request (another path or body) in the last 24 hours.', 'idempotency_key_reused'));
        return false;
      }
      if (claim.kind === 'running') {
        sendError(res, new Conflict('A request with this Idempotency-Key is still being processed; retry when it has finished.', 'idempotency_key_in_use'));
        return false;
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
      return true;
    };
    // A multipart body is read by its route, after this: its request is known, and the key claimed, only then.
    if (req.is('multipart/form-data')) {
      res.locals[PENDING_CLAIM] = claimKey;
      return next();
    }
    claimKey()
      .then((proceed) => {
        if (proceed) next();
      })
      .catch((err: unknown) => sendError(res, err, opts.logger));
  };
}
