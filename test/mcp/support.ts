import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type Redis from 'ioredis';
import { parse } from 'graphql';
import { input, object, str } from '../../facades/mcp/schema';
import { defineTool, READ_ONLY, type AnyTool } from '../../facades/mcp/tool';
import type { Operation } from '../../facades/shared/execute';
import { TOOLS } from '../../facades/mcp/tools';
import { McpAuditEntry, Tenant } from '../../src/models';
import { configureGridProviders } from '../../src/services/grid-providers.service';
import { seedDemoScan } from '../../src/jobs/scan-runs';
import { serveApp, type ServedApp } from '../support/app';
import { useDatabase } from '../support/db';
import { makeReview, makeWorld, syncedSourceOf, testimonialsOf, tokenFor } from '../support/factories';
import { waitUntil } from '../support/wait';

export interface McpApp {
  db: ReturnType<typeof useDatabase>;
  origin: () => string;
  url: () => string;
  /** A raw POST of `body` (an object is sent as JSON, a string as is). */
  post: (body: unknown, opts?: { token?: string | null; headers?: Record<string, string> }) => Promise<RawAnswer>;
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of the wire, asserted field by field
  json: any;
}

/** The real app on a real loopback port (the SDK client needs one), with the MCP limits the test wants. */
export function useMcpApp(opts: { perToken?: number; perWorkspace?: number; redis?: () => Redis | null; redisPrefix?: string; tools?: readonly AnyTool[] } = {}): McpApp {
  const db = useDatabase();
  const state: { served?: ServedApp; origin?: string } = {};
  beforeAll(async () => {
    state.served = await serveApp({
      redis: opts.redis?.() ?? null,
      mcp: { perToken: opts.perToken ?? 100_000, perWorkspace: opts.perWorkspace ?? 100_000, redisPrefix: opts.redisPrefix, auditFlushMs: 20, tools: opts.tools },
    });
    state.origin = state.served.origin;
  });
  afterAll(async () => {
    await state.served?.close();
  });
  const url = () => `${state.origin}/api/mcp`;
  return {
    db,
    origin: () => state.origin!,
    url,
    post: async (body, o = {}) => {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...o.headers };
      if (o.token) headers.authorization = `Bearer ${o.token}`;
      const res = await fetch(url(), { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
      const text = await res.text();
      let json: unknown = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      return { status: res.status, headers: res.headers, text, json };
    },
  };
}

/** A JSON-RPC request body. */
export const rpc = (method: string, params?: object, id: number | string = 1) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });
export const call = (name: string, args?: object, id: number | string = 1) => rpc('tools/call', { name, arguments: args ?? {} }, id);

/** The official SDK client over Streamable HTTP with the bearer token, connected (initialize + initialized). */
export async function connect(app: McpApp, token: string): Promise<Client> {
  const client = new Client({ name: 'reviewgrid-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(app.url()), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return client;
}

export const AI_ALL = ['mcp:access', 'mcp:writes', 'reviews:pii', 'reviews:read', 'reviews:update', 'organizations:read', 'request:read'];
export const AI_READ = ['mcp:access', 'reviews:read', 'organizations:read'];

/** tools/list, in order, for an AI token of AI_READ (no mcp:writes) of a user who is not the tenant owner (no Local Search Grid). */
export const READ_TOOLS = [
  'list_reviews',
  'get_review',
  'list_organizations',
  'list_locations',
  'get_metrics',
  'get_ai_insights',
  'get_report',
  'list_private_feedback',
  'list_gbp_metrics',
  'list_gbp_search_terms',
];

/**
 * A tenant whose owner runs the Local Search Grid (simulated providers, one scan with a completed snapshot), an
 * organisation owner with an organisation of two locations and reviews in both, a team member on the branch, and
 * AI tokens for each.
 */
export async function mcpWorld(opts: { scan?: boolean } = {}) {
  const w = await makeWorld();
  await Tenant.update({ brandName: `Brand ${w.tenant.id}` }, { where: { id: w.tenant.id } });
  await configureGridProviders({ tenantId: w.tenant.id, mode: 'simulator' });
  // Seeding a scan computes a whole snapshot in-process (about a second): only where a test reads it.
  const scan = opts.scan === false ? null : await seedDemoScan(w.tenant.id, null);
  const homeSource = await testimonialsOf(w.home);
  const branchSource = await syncedSourceOf(w.branch);
  const reviews = [
    await makeReview(homeSource, { author: 'Ada Home', rating: 5, message: 'Great home visit.', publishedAt: new Date(Date.UTC(2026, 0, 10)) }),
    await makeReview(homeSource, { author: 'Bob Home', rating: 2, message: 'Slow.', publishedAt: new Date(Date.UTC(2026, 0, 11)) }),
    await makeReview(branchSource, { author: 'Cy Branch', rating: 4, message: 'Nice branch.', publishedAt: new Date(Date.UTC(2026, 0, 12)) }),
  ];
  return {
    ...w,
    scan: scan!,
    reviews,
    ai: {
      owner: await tokenFor(w.owner, AI_ALL, 'ai'),
      orgOwner: await tokenFor(w.orgOwner, AI_READ, 'ai'),
      member: await tokenFor(w.member, AI_READ, 'ai'),
    },
  };
}

/** Audit rows of a tenant once at least `n` are written (the writer flushes every 20 ms in tests). */
export async function auditRows(tenantId: number, n: number): Promise<McpAuditEntry[]> {
  await waitUntil(async () => (await McpAuditEntry.count({ where: { tenantId } })) >= n, 5_000, 20);
  return McpAuditEntry.findAll({ where: { tenantId }, order: [['id', 'ASC']] });
}

export { TOOLS };

/** Fixtures for the internal-error row: a document the schema refuses, and a mapping that throws. */
export const brokenDocument = defineTool<Record<string, never>, unknown>({
  name: 'fixture_broken_document',
  title: 'Broken',
  description: 'A test fixture whose GraphQL document does not validate against the schema.',
  inputSchema: input({}),
  outputSchema: object({ x: str() }),
  annotations: READ_ONLY,
  permission: null,
  document: parse('{ noSuchField }') as Operation<unknown>,
  variables: () => ({}),
  result: () => ({ x: 'never' }),
});
export const throwingMapper = defineTool<Record<string, never>, unknown>({
  ...brokenDocument,
  name: 'fixture_throwing_mapper',
  document: parse('{ tenant { id } }') as Operation<unknown>,
  result: () => {
    throw new Error('SELECT * FROM secret_table WHERE password = 42');
  },
});
