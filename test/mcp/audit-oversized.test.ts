import { Writable } from 'node:stream';
import pino from 'pino';
import { MAX_AUDIT_ARGUMENTS_BYTES, scrubArguments } from '../../facades/mcp/audit';
import type { McpAuditRecord } from '../../src/domain/mcp-audit';
import { McpAuditEntry } from '../../src/models';
import { createAuditWriter } from '../../src/services/mcp-audit.service';
import { serveApp, type ServedApp } from '../support/app';
import { useDatabase } from '../support/db';
import { makeTenant, tokenFor } from '../support/factories';
import { AI_READ, auditRows, call } from './support';

/**
 * The audit log's size bound: each call's arguments are stored within MAX_AUDIT_ARGUMENTS_BYTES (the column is a
 * 64 KB TEXT, and rows are written in one multi-row INSERT per flush, which STRICT mode fails as a whole for one row
 * too long), and a batch the database refuses is written again row by row, so a bad row loses only itself.
 */
describe('MCP audit log: oversized arguments', () => {
  useDatabase();

  /** 7 keys of 50 strings of 200 characters: 71 KB once scrubbed (each string and list is within the per-value cuts). */
  const oversized = () => Object.fromEntries(Array.from({ length: 7 }, (_, k) => [`k${k}`, Array.from({ length: 50 }, () => 'x'.repeat(200))]));

  describe('scrubArguments', () => {
    it('keeps arguments within the bound as they are, and stores larger ones as a marker with the first key names', () => {
      expect(scrubArguments({ review_id: 5, email: 'a@b.test' })).toEqual({ review_id: 5, email: '[redacted]' });
      expect(JSON.stringify(oversized()).length).toBeGreaterThan(70_000);
      expect(scrubArguments(oversized())).toEqual({ _truncated: true, keys: ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6'] });
      // 50 keys of 64 characters: only the first ten names are kept.
      const many = Object.fromEntries(Array.from({ length: 50 }, (_, k) => [`${String(k).padStart(2, '0')}${'n'.repeat(62)}`, 'y'.repeat(200)]));
      const marker = scrubArguments(many) as { _truncated: boolean; keys: string[] };
      expect(marker.keys).toHaveLength(10);
      expect(Buffer.byteLength(JSON.stringify(marker))).toBeLessThanOrEqual(MAX_AUDIT_ARGUMENTS_BYTES);
      // Multi-byte text counts in bytes: 30 strings of 200 three-byte characters are under 8 K characters but over 8 KB.
      const wide = Object.fromEntries(Array.from({ length: 30 }, (_, k) => [`w${k}`, '€'.repeat(200)]));
      expect(JSON.stringify(wide).length).toBeLessThan(MAX_AUDIT_ARGUMENTS_BYTES);
      expect(scrubArguments(wide)).toMatchObject({ _truncated: true });
    });
  });

  describe('through the endpoint', () => {
    // One flush window for the whole test: both calls' rows go into the same multi-row INSERT.
    let served: ServedApp;
    beforeAll(async () => {
      served = await serveApp({ mcp: { perToken: 100_000, perWorkspace: 100_000, auditFlushMs: 1_000 } });
    });
    afterAll(async () => {
      await served?.close();
    });
    const post = (token: string, body: unknown, correlationId: string) =>
      fetch(`${served.origin}/api/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-correlation-id': correlationId },
        body: JSON.stringify(body),
      });

    it('stores both rows of a flush when one call sent 71 KB of arguments for an unknown tool (the big one truncated)', async () => {
      const { tenant, owner } = await makeTenant();
      const other = await makeTenant();
      const [big, normal, elsewhere] = await Promise.all([
        post(await tokenFor(owner, AI_READ, 'ai'), call('no_such_tool', oversized()), 'big-1'),
        post(await tokenFor(owner, AI_READ, 'ai'), call('list_organizations', { per_page: 5 }), 'normal-1'),
        post(await tokenFor(other.owner, AI_READ, 'ai'), call('list_organizations'), 'other-1'),
      ]);
      expect([big.status, (await big.json()).error.code]).toEqual([200, -32601]);
      expect([normal.status, elsewhere.status]).toEqual([200, 200]);

      const rows = await auditRows(tenant.id, 2);
      expect(rows.map((r) => [r.correlationId, r.tool, r.resultCode, r.arguments])).toEqual(
        expect.arrayContaining([
          ['big-1', 'no_such_tool', -32601, { _truncated: true, keys: ['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6'] }],
          ['normal-1', 'list_organizations', 0, { per_page: 5 }],
        ]),
      );
      expect(rows).toHaveLength(2);
      // Another tenant's row of the same batch is kept too.
      expect((await auditRows(other.tenant.id, 1)).map((r) => r.correlationId)).toEqual(['other-1']);
    });
  });

  describe('the writer', () => {
    const record = (tenantId: number, correlationId: string, args: Record<string, unknown> | null): McpAuditRecord => ({
      tenantId,
      tokenId: 1,
      userId: 1,
      method: 'tools/call',
      tool: 'fixture',
      arguments: args,
      piiUnlocked: correlationId === 'pii-unlock',
      resultCode: 0,
      errorReason: null,
      durationMs: 1,
      correlationId,
      requestId: null,
      createdAt: new Date(),
    });

    it('writes a refused batch again row by row: a row the column cannot take loses only itself, and is logged', async () => {
      const lines: Array<Record<string, unknown>> = [];
      const logger = pino(
        { level: 'warn' },
        new Writable({
          write(chunk: Buffer, _enc, done) {
            lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
            done();
          },
        }),
      );
      const writer = createAuditWriter({ logger, flushMs: 60_000 });
      const a = await makeTenant();
      const b = await makeTenant();
      // A row past the TEXT column (what scrubArguments now prevents; any other value the table refuses does the same).
      writer.record(record(a.tenant.id, 'before', { n: 1 }));
      writer.record(record(b.tenant.id, 'too-long', { pad: 'x'.repeat(70_000) }));
      writer.record(record(a.tenant.id, 'pii-unlock', { include_pii: true }));
      writer.record(record(b.tenant.id, 'after', null));
      await writer.stop();

      const stored = await McpAuditEntry.findAll({ where: { tenantId: [a.tenant.id, b.tenant.id] }, order: [['id', 'ASC']] });
      expect(stored.map((r) => [r.correlationId, r.piiUnlocked])).toEqual([
        ['before', false],
        ['pii-unlock', true],
        ['after', false],
      ]);
      expect(lines.filter((l) => l.level === 50).map((l) => [l.msg, l.rows, l.correlationId])).toEqual([['MCP audit rows not written', 1, 'too-long']]);
      expect(JSON.stringify(lines)).not.toContain('xxxxxxxx');
    });
  });
});
