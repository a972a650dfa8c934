import { createHash } from 'node:crypto';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import type Redis from 'ioredis';
import type { Logger } from 'pino';
import type { GraphQLSchema } from 'graphql';
import type { Context } from '../../src/context';
import type { Clock } from '../../src/domain/clock';
import { DomainError } from '../../src/domain/errors';
import { MAX_INBOUND_BODY_BYTES as MAX_BODY_BYTES } from '../../src/domain/limits';
import { rateLimited } from '../../src/observability/metrics';
import { loggable } from '../shared/errors';
import { execute, failureOf } from '../shared/execute';
import { graphql } from '../shared/graphql';
import type { ResultOf } from '@graphql-typed-document-node/core';
import { edgeContext } from '../shared/auth';
import { redisStore } from '../shared/rate-limit';

/**
 * `POST /api/webhooks/inbound/<endpoint token>`: the inbound contact webhook (spec: Inbound contact webhook).
 * Mounted before every API router, so no bearer auth and no other body parser touches it. Checks, in order:
 *
 *   429 rate limit (a known token: its own budget; anything else: per client address)   404 unknown or regenerated token
 *   415 content type other than JSON or form-encoded                                      413 body over 256 KB
 *   401 signature (when the connection has a secret)                                      400 malformed JSON / not an object
 *
 * then the submission is stored and answered: 202 accepted, 202 ignored, 200 skipped, 200 duplicate. Every answer
 * is JSON (docs/decisions/review-requests.md, "Inbound contact webhook"). The endpoint token is the credential of
 * its two GraphQL operations: `inboundEndpoint` (the look-up before any limit, and the 404 before the body is read)
 * and `receiveInboundSubmission` (signature, parsing and storage, on the raw body).
 *
 * A signed endpoint's budget counts only requests whose signature checked out; the others (401, 413, 415) are
 * counted per client address and endpoint (`signedLimits`), so whoever knows the URL but not the secret cannot
 * spend the real sender's budget.
 */
export interface InboundWebhookDeps {
  schema: GraphQLSchema;
  logger: Logger;
  clock?: Clock;
  redis?: Redis | null;
  /**
   * Submissions per minute per endpoint token (with a signing secret: those whose signature checked out), unknown
   * tokens per minute per client address, and a client address's unproven requests per minute to one signed endpoint
   * (default 120).
   */
  perMinute?: number;
  /** Requests per minute per client address that reach no endpoint: unknown tokens, other methods and paths (default 300). */
  perIpMinute?: number;
}

export const INBOUND_RATE_LIMIT_PER_MINUTE = 120;

type SignatureProblem = 'signature_required' | 'invalid_signature' | 'invalid_timestamp' | 'stale_timestamp';

const SIGNATURE_MESSAGES: Record<SignatureProblem, string> = {
  signature_required: 'This endpoint requires a signature: send X-Webhook-Signature.',
  invalid_signature: 'The signature does not match the body.',
  invalid_timestamp: 'X-Webhook-Timestamp must be Unix time in seconds.',
  stale_timestamp: 'X-Webhook-Timestamp is more than 5 minutes away from the server time.',
};

type BodyKind = 'json' | 'form';

/** JSON (`application/json`, `application/*+json`) or `application/x-www-form-urlencoded`, in UTF-8; else null. */
function bodyKindOf(header: string | undefined): BodyKind | null {
  if (!header) return null;
  const [type, ...params] = header.split(';').map((s) => s.trim().toLowerCase());
  const charset = params.find((p) => p.startsWith('charset='))?.slice(8).replace(/"/g, '');
  if (charset && charset !== 'utf-8' && charset !== 'utf8') return null;
  if (type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type)) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  return null;
}

const tokenKey = (token: string) => `t:${createHash('sha256').update(token).digest('hex')}`;

function storeFor(redis: Redis | null | undefined, prefix: string, log: Logger): Store | undefined {
  if (!redis) return undefined;
  // redisStore: its script loads at construction cannot reject unhandled (Redis down at start).
  return redisStore(redis, `${prefix}:`, log);
}

/** What `lookUp` found for the limits and the handler after it (`res.locals.inbound`). */
interface Endpoint {
  /** The connection's uuid; null for an unknown, malformed or regenerated token. */
  connection: string | null;
  /** The connection has a signing secret. */
  signed: boolean;
  ctx: Context;
}

const endpointOf = (res: Response): Endpoint | undefined => res.locals.inbound as Endpoint | undefined;
const isKnown = (_req: Request, res: Response): boolean => Boolean(endpointOf(res)?.connection);
const isSigned = (res: Response): boolean => Boolean(endpointOf(res)?.connection && endpointOf(res)?.signed);
const addressKey = (req: Request): string => `ip:${ipKeyGenerator(req.ip ?? '0.0.0.0')}`;
/** One client address's requests to one endpoint (the token hashed, as in its budget's key). */
const failureKey = (req: Request): string => `${addressKey(req)}:${tokenKey(String(req.params.token))}`;

const WINDOW_MS = 60_000;

/** The answer past a limit: 429 JSON with `Retry-After` (the seconds until the window that refused it ends). */
function tooManyAttempts(res: Response, retryAfterSeconds: number): void {
  rateLimited('inbound_webhook');
  res.setHeader('Retry-After', String(retryAfterSeconds));
  res.status(429).json({ message: 'Too Many Attempts.', code: 'rate_limited' });
}

const secondsUntil = (info: ClientRateLimitInfo): number =>
  info.resetTime ? Math.max(1, Math.ceil((info.resetTime.getTime() - Date.now()) / 1000)) : WINDOW_MS / 1000;

/**
 * The limits of an endpoint with a signing secret. Its budget (`perMinute`, the same store and key as an unsigned
 * endpoint's) is spent only by requests whose signature checked out, counted once the check has passed: a request
 * without the secret cannot be told from the real sender's before its body is read and checked, and counted on
 * arrival, 120 badly signed POSTs a minute from anyone who knew the URL refused the real sender's with 429.
 *
 * What fails the check (401; and 413, 415 or an unreadable body, which never reach it), and a replay of a signed
 * request already received (a `duplicate` whose `reason` is `replay`: someone holding a copy of the sender's request,
 * or the sender retrying it), is counted per client address and endpoint instead, as failed authentications are
 * (facades/shared/rate-limit.ts): past `perMinute` in its window, each further failure of that address is answered
 * 429 instead of its 4xx, while a request from it that checks out still passes (senders share egress addresses:
 * Zapier, Make, cloud functions); past `INBOUND_FAILURE_CEILING_FACTOR` x `perMinute`, the address's requests to
 * that endpoint are refused before their body is read, whatever they carry, until its window ends (a flood then
 * reads no more bodies). Other addresses, the real sender's among them, are untouched by either.
 *
 * Both are checked before the body is read; the budget is charged after the check, so requests of the real sender
 * that arrive at the same instant can overshoot it by as many as are in flight. Stores fail open, like every limit.
 */
function signedLimits(deps: InboundWebhookDeps, perMinute: number, budget: Store) {
  const failures: Store = storeFor(deps.redis, 'rl:inbound-signature', deps.logger) ?? new MemoryStore();
  void failures.init?.({ windowMs: WINDOW_MS } as Options);
  // A store that fails is no limit (fail open); a key the store does not hold (Redis answers nil) is no hits yet.
  const safely = (run: () => Promise<ClientRateLimitInfo | undefined> | ClientRateLimitInfo | undefined): Promise<ClientRateLimitInfo | undefined> =>
    Promise.resolve()
      .then(run)
      .then((info) => (info && Number.isFinite(info.totalHits) ? info : undefined))
      .catch(() => undefined);
  const budgetHeaders = (res: Response, spent: ClientRateLimitInfo | undefined) => {
    res.setHeader('X-RateLimit-Limit', String(perMinute));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, perMinute - (spent?.totalHits ?? 0))));
  };
  return {
    /** Before the body: the address's failures for this endpoint, then the endpoint's budget (not charged here). */
    gate: (async (req, res, next) => {
      if (!isSigned(res)) return next();
      const [failed, spent] = await Promise.all([
        safely(() => failures.get?.(failureKey(req))),
        safely(() => budget.get?.(tokenKey(String(req.params.token)))),
      ]);
      if (failed && failed.totalHits >= INBOUND_FAILURE_CEILING_FACTOR * perMinute) return tooManyAttempts(res, secondsUntil(failed));
      budgetHeaders(res, spent);
      if (spent && spent.totalHits >= perMinute) return tooManyAttempts(res, secondsUntil(spent));
      next();
    }) satisfies RequestHandler,
    /** A request whose signature checked out: charged to the endpoint's budget. */
    async verified(req: Request, res: Response): Promise<void> {
      budgetHeaders(res, await safely(() => budget.increment(tokenKey(String(req.params.token)))));
    },
    /**
     * Counts a request that did not prove to be the sender's, for its address and this endpoint: the seconds it must
     * wait when that went past the limit (its answer is then 429), else null.
     */
    async failed(req: Request): Promise<number | null> {
      const info = await safely(() => failures.increment(failureKey(req)));
      return info && info.totalHits > perMinute ? secondsUntil(info) : null;
    },
  };
}

/**
 * The limits. Senders share egress addresses (Zapier, Make, cloud functions), so nothing counted per address may
 * refuse a known endpoint: one tenant's burst, or someone guessing tokens from the same platform, would otherwise
 * block every other tenant's submissions there. A known token is limited by its own budget only; a request that
 * reaches no endpoint is limited per client address, however many tokens it makes up.
 */
function limiters(deps: InboundWebhookDeps) {
  const tooMany: Options['handler'] = (_req, res, _next, options) => tooManyAttempts(res, Math.ceil(options.windowMs / 1000));
  const perMinute = deps.perMinute ?? INBOUND_RATE_LIMIT_PER_MINUTE;
  const budget: Store = storeFor(deps.redis, 'rl:inbound', deps.logger) ?? new MemoryStore();
  return {
    // The budget of one endpoint (a sender in a loop); the token is hashed so it never reaches the store. Only known
    // tokens are counted: a made-up one leaves no key behind. An endpoint without a secret is charged on arrival
    // (whoever has its URL is its sender); one with a secret only once the signature checked out (`signed`).
    endpoint: rateLimit({
      windowMs: WINDOW_MS,
      limit: perMinute,
      legacyHeaders: true,
      standardHeaders: false,
      keyGenerator: (req) => tokenKey(String(req.params.token)),
      skip: (req, res) => !isKnown(req, res) || isSigned(res),
      store: budget,
      passOnStoreError: true,
      handler: tooMany,
    }),
    signed: signedLimits(deps, perMinute, budget),
    // Guessing tokens: unknown tokens are counted per client address (each made-up token would have a fresh budget).
    guessing: rateLimit({
      windowMs: 60_000,
      limit: perMinute,
      legacyHeaders: false,
      standardHeaders: false,
      keyGenerator: addressKey,
      skip: isKnown,
      store: storeFor(deps.redis, 'rl:inbound-unknown', deps.logger),
      passOnStoreError: true,
      handler: tooMany,
    }),
    // Everything else under the mount (other methods and paths, and unknown tokens too): per client address.
    address: rateLimit({
      windowMs: 60_000,
      limit: deps.perIpMinute ?? 300,
      legacyHeaders: false,
      standardHeaders: false,
      keyGenerator: addressKey,
      skip: isKnown,
      store: storeFor(deps.redis, 'rl:inbound-source', deps.logger),
      passOnStoreError: true,
      handler: tooMany,
    }),
    // Before the look-up, every request under the mount from one address, known tokens included: a ceiling far above
    // what one sender's egress sends (10 x the per-address limit), so a flood of well-formed made-up tokens cannot
    // make the database look each one up, nor a path that cannot be decoded pass uncounted.
    ceiling: rateLimit({
      windowMs: 60_000,
      limit: INBOUND_CEILING_FACTOR * (deps.perIpMinute ?? 300),
      legacyHeaders: false,
      standardHeaders: false,
      keyGenerator: addressKey,
      store: storeFor(deps.redis, 'rl:inbound-ceiling', deps.logger),
      passOnStoreError: true,
      handler: tooMany,
    }),
  };
}

/** The per-address ceiling before the token look-up, as a multiple of the per-address limit (`INBOUND_RATE_LIMIT_PER_IP`). */
export const INBOUND_CEILING_FACTOR = 10;

/**
 * Failed signatures of one address to one endpoint in a window, as a multiple of the endpoint's budget, past which the
 * address's requests to it are refused before their body is read (`signedLimits`).
 */
export const INBOUND_FAILURE_CEILING_FACTOR = 10;

/** Reads the raw body (inflating gzip/deflate/br) up to 256 KB; body-parser's errors carry the status. */
const rawBody = express.raw({ type: () => true, limit: MAX_BODY_BYTES });

function readBody(req: Request, res: Response): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    rawBody(req, res, (err?: unknown) => {
      if (err) return reject(err);
      resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
    });
  });
}

const ENDPOINT = graphql(`query InboundEndpoint($token: String!) { inboundEndpoint(token: $token) { connection signed } }`);
const RECEIVE = graphql(`mutation ReceiveInboundSubmission($token: String!, $kind: InboundBodyKind!, $body: String!, $signature: String, $timestamp: String) {
  receiveInboundSubmission(token: $token, kind: $kind, body: $body, signature: $signature, timestamp: $timestamp) {
    status connection submissionId contactId sendAt rescheduled reason duplicateOf
  }
}`);

/** What the operation answers for a body it read (the generated type of RECEIVE's result). */
type Receipt = NonNullable<ResultOf<typeof RECEIVE>['receiveInboundSubmission']>;

function answer(res: Response, result: Receipt): void {
  switch (result.status) {
    case 'SIGNATURE_REFUSED': {
      const problem = result.reason as SignatureProblem;
      res.status(401).json({ message: SIGNATURE_MESSAGES[problem], code: problem });
      return;
    }
    case 'MALFORMED_JSON':
      res.status(400).json({ message: 'The request body is not valid JSON.', code: 'malformed_json' });
      return;
    case 'NOT_AN_OBJECT':
      res.status(400).json({ message: 'The JSON body must be an object (or an array).', code: 'malformed_json' });
      return;
    case 'ACCEPTED':
      res.status(202).json({
        status: 'accepted',
        message: result.rescheduled ? 'Contact accepted; the waiting review request was rescheduled.' : 'Contact accepted; a review request is scheduled.',
        id: result.contactId,
        send_at: new Date(result.sendAt!).toISOString(),
        submission_id: result.submissionId,
      });
      return;
    case 'IGNORED':
      res.status(202).json({
        status: 'ignored',
        message: 'Received; no review request is scheduled for this contact.',
        id: result.contactId,
        reason: result.reason,
        submission_id: result.submissionId,
      });
      return;
    case 'SKIPPED':
      res.status(200).json({ status: 'skipped', message: 'Received; the payload has no usable email or phone, so it was skipped.', reason: result.reason, submission_id: result.submissionId });
      return;
    case 'DUPLICATE':
      res.status(200).json({
        status: 'duplicate',
        message:
          result.reason === 'replay'
            ? 'This signed request (the same timestamp and body) was already received; this one was ignored.'
            : 'An identical payload arrived less than 5 minutes ago; this one was ignored.',
        submission_id: result.submissionId,
        duplicate_of: result.duplicateOf,
      });
      return;
  }
}

export function inboundWebhook(deps: InboundWebhookDeps): Router {
  const router = express.Router();
  const limit = limiters(deps);
  router.use(limit.ceiling);

  // The token is looked up before any limit (a unique index): which budget applies depends on whether it is known.
  const lookUp: RequestHandler = async (req, res, next) => {
    // No principal: the endpoint token, an argument of both operations, is the credential.
    const ctx = edgeContext(req, deps.clock);
    try {
      const { inboundEndpoint } = await execute(deps.schema, ENDPOINT, { token: String(req.params.token) }, ctx);
      res.locals.inbound = { connection: inboundEndpoint?.connection ?? null, signed: inboundEndpoint?.signed ?? false, ctx } satisfies Endpoint;
    } catch (err) {
      (req.log ?? deps.logger).error({ err: loggable(failureOf(err)) }, 'inbound webhook: token look-up failed');
      return void res.status(500).json({ message: 'Server Error' });
    }
    next();
  };

  router.post('/:token', lookUp, limit.endpoint, limit.signed.gate, limit.guessing, limit.address, async (req: Request, res: Response) => {
    const log = req.log ?? deps.logger;
    const token = String(req.params.token);
    const { connection, signed, ctx } = endpointOf(res)!;
    // A signed endpoint's request that never reaches the signature check is no proof of its sender either: counted,
    // and answered 429 (true) once its address is past the limit of those.
    const unproven = async (): Promise<boolean> => {
      const wait = signed ? await limit.signed.failed(req) : null;
      if (wait !== null) tooManyAttempts(res, wait);
      return wait !== null;
    };
    try {
      if (!connection) return void res.status(404).json({ message: 'Not found.' });

      const kind = bodyKindOf(req.headers['content-type']);
      if (!kind) {
        if (await unproven()) return;
        return void res.status(415).json({
          message: 'Unsupported content type: send application/json or application/x-www-form-urlencoded (UTF-8).',
          code: 'unsupported_media_type',
        });
      }

      let raw: Buffer;
      try {
        raw = await readBody(req, res);
      } catch (err) {
        const e = err as { type?: string; status?: number };
        if (await unproven()) return;
        if (e.type === 'entity.too.large') {
          return void res.status(413).json({ message: `The request body is larger than ${MAX_BODY_BYTES / 1024} KB.`, code: 'payload_too_large' });
        }
        if (e.type === 'encoding.unsupported') return void res.status(415).json({ message: 'Unsupported Content-Encoding.', code: 'unsupported_media_type' });
        return void res.status(e.status && e.status >= 400 && e.status < 500 ? e.status : 400).json({ message: 'The request body could not be read.', code: 'unreadable_body' });
      }

      const header = (name: string) => {
        const v = req.headers[name];
        return Array.isArray(v) ? v[0] : (v ?? null);
      };
      const { receiveInboundSubmission: result } = await execute(
        deps.schema,
        RECEIVE,
        { token, kind: kind.toUpperCase(), body: raw.toString('base64'), signature: header('x-webhook-signature'), timestamp: header('x-webhook-timestamp') },
        ctx,
      );
      // Regenerated or deleted while the body was on its way.
      if (!result) return void res.status(404).json({ message: 'Not found.' });
      if (result.status === 'SIGNATURE_REFUSED') log.info({ connection: result.connection, problem: result.reason }, 'inbound webhook: signature refused');
      else if (result.submissionId !== null) log.info({ connection: result.connection, status: result.status.toLowerCase(), submission: result.submissionId }, 'inbound webhook: submission');
      // Refused, or a replay of a signed request already received: not the sender's budget (`signedLimits`). A secret
      // set while the request was on its way refuses it too (its budget was charged on arrival, as without a secret).
      if (result.status === 'SIGNATURE_REFUSED') {
        const wait = await limit.signed.failed(req);
        if (wait !== null) return tooManyAttempts(res, wait);
      } else if (result.status === 'DUPLICATE' && result.reason === 'replay') {
        // Stored already: answered as the duplicate it is, only counted.
        await limit.signed.failed(req);
      } else if (signed) {
        await limit.signed.verified(req, res);
      }
      answer(res, result);
    } catch (err) {
      // The connection (or its campaign) was deleted while this request was on its way.
      if (err instanceof DomainError && err.code === 'NOT_FOUND') return void res.status(404).json({ message: 'Not found.' });
      log.error({ err: loggable(failureOf(err)) }, 'inbound webhook failed');
      if (!res.headersSent) res.status(500).json({ message: 'Server Error' });
    }
  });

  // Any other method or path under the prefix: JSON, like the rest of the API, and limited per client address.
  router.use(limit.address, (_req: Request, res: Response) => {
    res.status(404).json({ message: 'Not found.' });
  });
  return router;
}
