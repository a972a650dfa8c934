import fs from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ApiAnswer } from '../../src/http/observe-answers';

/**
 * The contract check: every JSON answer the REST test suite receives is compared with the committed OpenAPI documents
 * (schema/openapi/, kept equal to the route records by `npm run openapi:check`): its operation must exist, its status
 * must be documented, and its body must match the documented schema. `useApp`/`serveApp` record every answer here and
 * fail the test that received one the documents do not show. Webhook bodies are checked against the `webhooks`.
 */
type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>; webhooks?: Record<string, unknown> };

const DOCS: Array<{ id: string; base: string; file: string }> = [
  { id: 'agency', base: '/api/agency/v1', file: 'agency.json' },
  { id: 'customer', base: '/api/v1', file: 'customer.json' },
];

interface Loaded {
  ajv: Ajv2020;
  docs: Array<{ id: string; base: string; doc: Doc; templates: Array<{ template: string; re: RegExp; literal: number }> }>;
  validators: Map<string, ValidateFunction>;
}

let loaded: Loaded | null = null;

const pointer = (...parts: string[]) => parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

function load(): Loaded {
  if (loaded) return loaded;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const docs = DOCS.map(({ id, base, file }) => {
    const doc = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'schema', 'openapi', file), 'utf8')) as Doc;
    ajv.addSchema(doc as object, `${id}.json`);
    const templates = Object.keys(doc.paths).map((template) => ({
      template,
      // Express routes without case-sensitive routing too: `/INVITE` is `/invite`.
      re: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`, 'i'),
      literal: template.split('/').filter((s) => s && !s.startsWith('{')).length,
    }));
    // The most literal template first: `/reviews/sources` before `/reviews/{id}`.
    templates.sort((a, b) => b.literal - a.literal);
    return { id, base, doc, templates };
  });
  loaded = { ajv, docs, validators: new Map() };
  return loaded;
}

function validatorFor(l: Loaded, ref: string): ValidateFunction {
  let v = l.validators.get(ref);
  if (!v) {
    v = l.ajv.compile({ $ref: ref });
    l.validators.set(ref, v);
  }
  return v;
}

/** What is wrong with one answer, or null when the documents show it. */
export function contractViolation(a: ApiAnswer): string | null {
  const l = load();
  const api = l.docs.find((d) => a.path === d.base || a.path.startsWith(`${d.base}/`));
  if (!api) return null;
  // Express routes without strict routing: `/organizations/10/` is `/organizations/10` (a client resolving a `..`
  // segment of a string path parameter sends such paths).
  const rel = (a.path.slice(api.base.length) || '/').replace(/(.)\/+$/, '$1');
  const where = `${a.method} ${a.path} -> ${a.status}`;
  const match = api.templates.find((t) => t.re.test(rel) && api.doc.paths[t.template][a.method.toLowerCase()]);
  // An unknown path or method answers the documented 404 body (or 401 first); nothing else is allowed there, except
  // the refusals of a body that are made before any routing (too large 413, unreadable 400, not valid JSON 422): a
  // client that resolves a `..` segment (as the fuzz's do) sends a hostile body to a path no route has.
  if (!match) {
    const bodyRefused = a.status === 422 && Boolean((a.body as { errors?: { body?: unknown } } | null)?.errors?.body);
    if ((a.status === 404 || a.status === 401 || a.status === 429 || a.status === 413 || a.status === 400 || bodyRefused) && isError(a.body)) return null;
    return `${where}: no operation in the ${api.id} document`;
  }
  const op = api.doc.paths[match.template][a.method.toLowerCase()];
  const response = op.responses[String(a.status)];
  if (!response) return `${where}: status ${a.status} is not documented for ${a.method} ${match.template}`;
  if (!response.content?.['application/json']) return null;
  const ref = `${api.id}.json#/${pointer('paths', match.template, a.method.toLowerCase(), 'responses', String(a.status), 'content', 'application/json', 'schema')}`;
  const validate = validatorFor(l, ref);
  if (validate(a.body)) return null;
  const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
  return `${where}: body does not match ${a.method} ${match.template} ${a.status}: ${errors.join('; ')}`;
}

function isError(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string';
}

/** What is wrong with one webhook delivery body, or null when the customer document's `webhooks` show it. */
export function webhookContractViolation(body: unknown): string | null {
  const l = load();
  const event = (body as { webhook_event?: unknown } | null)?.webhook_event;
  const customer = l.docs.find((d) => d.id === 'customer')!;
  if (typeof event !== 'string' || !customer.doc.webhooks?.[event]) return `webhook body: unknown event ${JSON.stringify(event)}`;
  const ref = `customer.json#/${pointer('webhooks', event, 'post', 'requestBody', 'content', 'application/json', 'schema')}`;
  const validate = validatorFor(l, ref);
  if (validate(body)) return null;
  const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
  return `webhook ${event}: body does not match the documented payload: ${errors.join('; ')}`;
}

/** Collects violations of the answers a test's app gives; `take` empties the list. */
export class ContractRecorder {
  private violations: string[] = [];
  readonly observe = (a: ApiAnswer): void => {
    const v = contractViolation(a);
    if (v) this.violations.push(v);
  };
  readonly observeWebhook = (raw: string): void => {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      this.violations.push(`webhook body is not JSON: ${raw.slice(0, 80)}`);
      return;
    }
    const v = webhookContractViolation(body);
    if (v) this.violations.push(v);
  };
  take(): string[] {
    const out = this.violations;
    this.violations = [];
    return out;
  }
}

/** The one recorder of a test file: the apps of test/support/app.ts feed it, test/support/contract-hooks.ts drains it. */
export const contractRecorder = new ContractRecorder();
