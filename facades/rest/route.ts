import type {} from 'pino-http';
import express, { type Request, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import multer from 'multer';
import type { Logger } from 'pino';
import type { Clock } from '../../src/domain/clock';
import { Validation } from '../../src/domain/errors';
import { MAX_IMAGE_BYTES } from '../../src/domain/limits';
import { contextOf } from '../shared/auth';
import { execute } from '../shared/execute';
import { sendError } from '../shared/errors';

export interface UploadedFile {
  filename: string;
  base64: string;
}

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  files: Record<string, UploadedFile>;
  raw: Request;
}

/** One REST route = one GraphQL document + how to build its variables + how to shape its answer. */
export interface RouteDef<D = never> {
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  /** Multipart file fields the route accepts (others are ignored). */
  files?: readonly string[];
  document: string;
  variables(req: RestRequest): Record<string, unknown>;
  respond(data: D, req: Request): { status?: number; body: unknown };
}

export function route<D>(def: RouteDef<D>): RouteDef<D> {
  return def;
}

export interface MountOptions {
  schema: GraphQLSchema;
  logger: Logger;
  clock?: Clock;
}

const upload = multer({
  storage: multer.memoryStorage(),
  // One byte over the limit is enough to know it is too big; the service states the rule.
  limits: { fileSize: MAX_IMAGE_BYTES + 1, files: 5, fields: 50, fieldSize: 1024 * 1024, parts: 60 },
}).any();

function parseMultipart(req: Request, res: Response, accepted: readonly string[]): Promise<Record<string, UploadedFile>> {
  return new Promise((resolve, reject) => {
    if (!req.is('multipart/form-data')) return resolve({});
    upload(req, res, (err: unknown) => {
      if (err) {
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

export function mountRoutes(router: Router, routes: ReadonlyArray<RouteDef<never>>, opts: MountOptions): Router {
  for (const def of routes) {
    router[def.method](def.path, async (req: Request, res: Response) => {
      try {
        const ctx = contextOf(res);
        const files = await parseMultipart(req, res, def.files ?? []);
        const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
        if (Array.isArray(req.body)) throw new Validation({ body: ['The request body must be a JSON object.'] });
        const variables = def.variables({ params: req.params as Record<string, string>, query: req.query as Record<string, unknown>, body, files, raw: req });
        const data = await execute<never>(opts.schema, def.document, variables, ctx);
        const { status, body: out } = def.respond(data, req);
        res.status(status ?? 200).json(out);
      } catch (err) {
        sendError(res, err, req.log ?? opts.logger);
      }
    });
  }
  return router;
}

export const jsonBody = (limit: string) => express.json({ limit, type: ['application/json', 'application/*+json'] });
