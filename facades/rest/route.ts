import type {} from 'pino-http';
import express, { type Request, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import multer from 'multer';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Clock } from '../../src/domain/clock';
import { NotFound, Validation } from '../../src/domain/errors';
import { MAX_IMAGE_BYTES } from '../../src/domain/limits';
import { bodyLimitBytes } from '../../src/config';
import { claimParsedMultipart } from '../../src/http/idempotency';
import { contextOf } from '../shared/auth';
import { execute, type Operation } from '../shared/execute';
import { sendError } from '../shared/errors';
import { parseInput, presentOnly } from '../shared/input';
import { UUID } from '../../src/domain/ids';

export interface UploadedFile {
  filename: string;
  base64: string;
}

/**
 * A path parameter: `id` is a positive 32-bit integer (GraphQL Int), `uuid` a UUID; anything else names no resource
 * (404, as for an unknown one). `string` goes to the schema as sent (its 404 is decided after the permission check).
 */
export interface PathParam<K extends 'id' | 'uuid' | 'string' = 'id' | 'uuid' | 'string'> {
  kind: K;
  /** What the parameter names, for the 404 message and the docs ("Review"). */
  what: string;
  description?: string;
}
export const pathId = (what: string, description?: string): PathParam<'id'> => ({ kind: 'id', what, description });
export const pathUuid = (what: string, description?: string): PathParam<'uuid'> => ({ kind: 'uuid', what, description });
export const pathString = (what: string, description?: string): PathParam<'string'> => ({ kind: 'string', what, description });

type ParamValues<P extends Record<string, PathParam>> = { [K in keyof P]: P[K]['kind'] extends 'id' ? number : string };

/** What a route's `variables` reads: path, query and body already parsed by the route's own schemas. */
export interface RestRequest<P extends Record<string, PathParam> = Record<string, PathParam>, Q = Record<string, never>, B = Record<string, never>> {
  params: ParamValues<P>;
  query: Q;
  body: B;
  files: Record<string, UploadedFile>;
  raw: Request;
}

export interface ResponseDef {
  description: string;
  schema: z.ZodTypeAny;
  /** Media types other than JSON the response comes in (`text/html`, `application/pdf`); the schema describes each. */
  mediaTypes?: readonly string[];
}

/** What a route answers: JSON, or with `type` a body of that media type as it is (a page, a PDF). */
export interface Answer {
  status?: number;
  body: unknown;
  type?: string;
  headers?: Record<string, string>;
}

/** Error statuses a route can answer besides the ones every route documents (401, 403, 429; 404 with a path; 422 with input). */
export type ExtraError = 402 | 409 | 422 | 502;

/**
 * One REST route = its contract (permission, path/query/body schemas, responses) + one GraphQL document + how to
 * build its variables + how to shape its answer. The OpenAPI documents (facades/rest/openapi.ts) are generated from
 * these records; `mountRoutes` validates requests with the same schemas.
 */
export interface RouteDef<
  D = never,
  P extends Record<string, PathParam> = Record<string, PathParam>,
  Q extends z.ZodTypeAny = z.ZodTypeAny,
  B extends z.ZodTypeAny = z.ZodTypeAny,
> {
  method: 'get' | 'post' | 'put' | 'delete';
  /** Express syntax (`/reviews/:id`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** The token permissions the route needs (customer API), or null: any valid token / the agency token. */
  permissions: readonly string[] | null;
  params?: P;
  query?: Q;
  body?: B;
  /** Multipart file fields the route accepts (others are ignored); the body may then be multipart or JSON. */
  files?: readonly string[];
  /** An empty value counts as not sent (multipart cannot tell the two apart): applied to query and body. */
  blankIsAbsent?: boolean;
  /** false: a POST whose spec accepts no `Idempotency-Key` (the header is ignored and not documented). */
  idempotencyKey?: false;
  /** Reshape the raw query/body before the schema reads it (aliases such as `source_names[]`). */
  prepare?: { query?(q: Record<string, unknown>): Record<string, unknown>; body?(b: Record<string, unknown>): Record<string, unknown> };
  responses: Readonly<Record<number, ResponseDef>>;
  errors?: readonly ExtraError[];
  /**
   * The GraphQL operation, a typed document of `graphql()`; a function of the request choosing among typed documents
   * where one route answers two ways (POST /scans with `dry_run`). Its result type is `respond`'s data.
   */
  document: Operation<D> | ((req: RestRequest<P, z.infer<Q>, z.infer<B>>) => Operation<D>);
  variables(req: RestRequest<P, z.infer<Q>, z.infer<B>>): Record<string, unknown>;
  respond(data: D, req: Request): Answer | Promise<Answer>;
}

/** Declares a route; the types of `variables`' input come from the schemas, the GraphQL data from the document. */
export function route<D, P extends Record<string, PathParam> = Record<never, PathParam>, Q extends z.ZodTypeAny = z.ZodNever, B extends z.ZodTypeAny = z.ZodNever>(
  def: RouteDef<D, P, Q, B>,
): RouteDef<D, P, Q, B> {
  return def;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of routes of every shape
export type AnyRoute = RouteDef<any, any, any, any>;

export interface MountOptions {
  schema: GraphQLSchema;
  logger: Logger;
  clock?: Clock;
  /**
   * The largest multipart body read (a size as BODY_LIMIT spells it, '1mb'): the JSON and form parsers' limit, so an
   * upload takes no more memory than any other body. Unset: BODY_LIMIT from the environment, else 1 MB.
   */
  bodyLimit?: string;
}

/**
 * The longest multipart field value, in bytes. The longest text a route that takes a file is sent is a review's
 * `message` (POST and PUT /reviews; the spec sets it no limit): a TEXT column, at most 65,535 bytes, so a message any
 * JSON body can carry fits in a form too. The other fields are names (255 characters), dates and integers. Multer's
 * default was 1 MB a field, 50 fields: 49 MB held in memory per request, before the permission check.
 */
export const MAX_MULTIPART_FIELD_BYTES = 64 * 1024;

/** A multipart body past the body limit: 413, as the JSON and form parsers answer. */
class MultipartTooLarge extends Error {}
const TOO_LARGE = { message: 'The request body is too large.' };

/** What busboy is to the stream handler: a writable stream that stops with an error. */
type BusboyStream = NodeJS.WritableStream & { destroy(error?: Error): void };

/**
 * The multipart parser of the routes (a file where the route takes one, fields everywhere). Busboy has no limit of the whole body: it is counted as it
 * arrives, whatever its framing, and past `limitBytes` parsing stops with 413. A limit of one part met first (a file
 * over 250 KB, a field over MAX_MULTIPART_FIELD_BYTES) keeps its own 422, which names the field.
 */
function multipartParser(limitBytes: number) {
  const streamHandler = (req: Request, busboy: BusboyStream) => {
    let seen = 0;
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen <= limitBytes) return;
      req.off('data', count);
      req.unpipe(busboy);
      // Multer answers busboy's error once the rest of the body is drained (read and dropped, never kept).
      busboy.destroy(new MultipartTooLarge());
    };
    req.on('data', count);
    req.pipe(busboy);
  };
  const parse = multer({
    storage: multer.memoryStorage(),
    // One byte over the limit is enough to know it is too big; the service states the rule.
    limits: { fileSize: MAX_IMAGE_BYTES + 1, files: 5, fields: 50, fieldSize: MAX_MULTIPART_FIELD_BYTES, parts: 60 },
    // Multer 2.x feeds busboy through `streamHandler` (not in @types/multer).
    streamHandler,
  } as multer.Options).any();
  return { parse, limitBytes };
}

type MultipartParser = ReturnType<typeof multipartParser>;

function parseMultipart(req: Request, res: Response, def: AnyRoute, parser: MultipartParser): Promise<Record<string, UploadedFile>> {
  return new Promise((resolve, reject) => {
    if (!req.is('multipart/form-data')) return resolve({});
    // Any route reads its fields from a form too (as it always did), within the same bounds; only those that take a
    // file keep one.
    const accepted = def.files ?? [];
    parser.parse(req, res, (err: unknown) => {
      if (err) {
        if (err instanceof MultipartTooLarge) return reject(err);
        const e = err as { code?: string; field?: string; message?: string };
        if (e.code === 'LIMIT_FILE_SIZE') {
          const field = e.field ?? 'file';
          return reject(new Validation({ [field]: [`The ${field} must not be greater than 250 kilobytes.`] }));
        }
        return reject(new Validation({ body: [`The multipart body could not be read: ${e.message ?? 'malformed'}.`] }));
      }
      const files: Record<string, UploadedFile> = {};
      for (const f of (req.files as Express.Multer.File[] | undefined) ?? []) {
        if (accepted.includes(f.fieldname)) {
          files[f.fieldname] = { filename: f.originalname, base64: f.buffer.toString('base64') };
        }
      }
      resolve(files);
    });
  });
}

function parseParam(p: PathParam, value: string | undefined): number | string {
  switch (p.kind) {
    case 'id':
      if (!value || !/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) throw new NotFound(p.what);
      return Number(value);
    case 'uuid':
      if (!value || !UUID.test(value)) throw new NotFound(p.what);
      return value.toLowerCase();
    case 'string':
      return value ?? '';
  }
}

/**
 * Path first (404), then query, then body (422), each with the route's own schema: what `variables` reads. Exported for
 * the isolation sweep, which builds each route's GraphQL variables exactly as a request would.
 */
export function parseRequest(def: AnyRoute, req: Pick<Request, 'params' | 'query' | 'body'>, files: Record<string, UploadedFile>): RestRequest {
  const params: Record<string, number | string> = {};
  for (const [name, p] of Object.entries((def.params ?? {}) as Record<string, PathParam>)) params[name] = parseParam(p, req.params[name] as string | undefined);
  if (Array.isArray(req.body)) throw new Validation({ body: ['The request body must be a JSON object.'] });
  const rawBody = req.body && typeof req.body === 'object' ? (req.body as Record<string, unknown>) : {};
  const read = (schema: z.ZodTypeAny | undefined, raw: Record<string, unknown>, prepare?: (v: Record<string, unknown>) => Record<string, unknown>) => {
    if (!schema) return {};
    const prepared = prepare ? prepare(raw) : raw;
    return parseInput(schema, def.blankIsAbsent ? presentOnly(prepared) : prepared) as Record<string, unknown>;
  };
  const query = read(def.query, { ...(req.query as Record<string, unknown>) }, def.prepare?.query);
  const body = read(def.body, rawBody, def.prepare?.body);
  return { params, query, body, files, raw: req as Request } as unknown as RestRequest;
}

/** The route's GraphQL operation for this (parsed) request. */
export function documentOf(def: AnyRoute, parsed: RestRequest): Operation<unknown> {
  return typeof def.document === 'function' ? def.document(parsed) : def.document;
}

/** MountOptions.bodyLimit in bytes: as set, else BODY_LIMIT from the environment, else 1 MB (the configuration's default). */
function multipartLimitOf(opts: MountOptions): number {
  return bodyLimitBytes(opts.bodyLimit ?? process.env.BODY_LIMIT ?? '1mb') ?? 1024 * 1024;
}

export function mountRoutes(router: Router, routes: readonly AnyRoute[], opts: MountOptions): Router {
  const multipart = multipartParser(multipartLimitOf(opts));
  for (const def of routes) {
    router[def.method](def.path, async (req: Request, res: Response) => {
      try {
        const ctx = contextOf(res);
        const files = await parseMultipart(req, res, def, multipart);
        // A multipart POST's Idempotency-Key is claimed once its fields and files are read (src/http/idempotency.ts).
        if (!(await claimParsedMultipart(res))) return;
        const parsed = parseRequest(def, req, files);
        const variables = def.variables(parsed);
        const data = await execute(opts.schema, documentOf(def, parsed), variables, ctx);
        const { status, body: out, type, headers } = await def.respond(data, req);
        if (headers) res.set(headers);
        if (type) res.status(status ?? 200).type(type).send(out);
        else res.status(status ?? 200).json(out);
      } catch (err) {
        if (err instanceof MultipartTooLarge) res.status(413).json(TOO_LARGE);
        else sendError(res, err, req.log ?? opts.logger);
      }
    });
  }
  return router;
}

export const jsonBody = (limit: string) => express.json({ limit, type: ['application/json', 'application/*+json'] });
