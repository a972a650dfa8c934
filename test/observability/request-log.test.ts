import { Writable } from 'node:stream';
import express from 'express';
import request from 'supertest';
import { createLogger } from '../../src/bootstrap';
import { getSchema } from '../../src/graphql/schema';
import { createApp } from '../../src/http/app';
import { requestLog } from '../../src/http/request-log';
import { useDatabase } from '../support/db';
import { makeWorld, tokenFor } from '../support/factories';
import { AI_READ, call, throwingMapper, TOOLS } from '../mcp/support';

/**
 * The request log (README, `LOG_LEVEL`): one JSON line per request with its id, method, URL, status and time (`req`, on
 * every line the request logs). The id is the caller's `X-Request-Id` when it is a safe token, and is echoed in the
 * answer.
 */
describe('request log', () => {
  useDatabase();
  const lines: string[] = [];
  const appAt = async (level: string, mcpTools?: typeof TOOLS) =>
    createApp({
      ...(mcpTools ? { mcp: { perToken: 100_000, perWorkspace: 100_000, auditFlushMs: 20, tools: mcpTools } } : {}),
      config: { RATE_LIMIT_PER_MINUTE: 100_000, AGENCY_RATE_LIMIT_PER_MINUTE: 100_000, BODY_LIMIT: '1mb', TRUST_PROXY: 'false' },
      schema: await getSchema(),
      logger: createLogger(
        { LOG_LEVEL: level as 'info', NODE_ENV: 'test' },
        new Writable({
          write(chunk, _enc, done) {
            lines.push(...String(chunk).split('\n').filter(Boolean));
            done();
          },
        }),
      ),
    });
  const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

  beforeEach(() => {
    lines.length = 0;
  });

  it('writes one line per request with its id, method, URL, status and time', async () => {
    const app = await appAt('info');
    try {
      const w = await makeWorld();
      const token = await tokenFor(w.owner);
      const ok = await request(app.app).get('/api/v1/reviews?page=1').set('Authorization', `Bearer ${token}`).set('X-Request-Id', 'trace-ok-1');
      expect(ok.status).toBe(200);
      expect(ok.headers['x-request-id']).toBe('trace-ok-1');
      const missing = await request(app.app).get('/api/v1/reviews/999999999').set('Authorization', `Bearer ${token}`);
      expect(missing.status).toBe(404);
      const generated = missing.headers['x-request-id'] as string;
      expect(generated).toMatch(/^[0-9a-f-]{36}$/);

      const done = logged().filter((l) => l.msg === 'request completed');
      expect(done).toEqual([
        expect.objectContaining({ req: { id: 'trace-ok-1', method: 'GET', url: '/api/v1/reviews?page=1' }, res: { statusCode: 200 }, responseTime: expect.any(Number) }),
        expect.objectContaining({ req: { id: generated, method: 'GET', url: '/api/v1/reviews/999999999' }, res: { statusCode: 404 } }),
      ]);
    } finally {
      await app.stop();
    }
  });

  it("redacts what route code logs through req.log, with the request's binding; the log's own lines hold only their fields", async () => {
    // The product's logger; a route that logs secrets and fails with a database error's fields on it.
    const logger = createLogger({ LOG_LEVEL: 'info', NODE_ENV: 'test' }, new Writable({ write: (chunk, _enc, done) => (lines.push(...String(chunk).split('\n').filter(Boolean)), done()) }));
    const app = express();
    app.use(requestLog(logger));
    app.get('/leaky', (req, res) => {
      req.log.warn({ token: 'rg_route_secret', err: { message: 'boom', sql: 'SELECT * FROM users WHERE email = ?', parameters: ['ada@example.test'] } }, 'route line');
      res.err = Object.assign(new Error('deadlock'), { sql: 'UPDATE api_tokens SET x = ?', parameters: ['rg_in_error'] });
      res.status(500).json({ message: 'Internal server error' });
    });
    const res = await request(app).get('/leaky?page=2').set('X-Request-Id', 'trace-leak-1');
    expect(res.status).toBe(500);
    const text = lines.join('\n');
    for (const secret of ['rg_route_secret', 'SELECT * FROM users', 'ada@example.test', 'UPDATE api_tokens', 'rg_in_error']) expect(text).not.toContain(secret);
    const [route] = logged().filter((l) => l.msg === 'route line');
    expect(route).toMatchObject({ req: { id: 'trace-leak-1', method: 'GET', url: '/leaky?page=2' }, token: '[redacted]', err: { message: 'boom', sql: '[redacted]', parameters: '[redacted]' } });
    const [done] = logged().filter((l) => l.msg === 'request errored');
    expect(done).toMatchObject({ req: { id: 'trace-leak-1', method: 'GET', url: '/leaky?page=2' }, res: { statusCode: 500 } });
    expect(done.err).toEqual({ type: 'Error', message: 'deadlock', stack: expect.any(String) });
  });

  it('logs nothing of a served request above the info level', async () => {
    const app = await appAt('warn');
    try {
      const w = await makeWorld();
      const res = await request(app.app).get('/api/v1/reviews').set('Authorization', `Bearer ${await tokenFor(w.owner)}`);
      expect(res.status).toBe(200);
      expect(logged().filter((l) => l.msg === 'request completed')).toEqual([]);
    } finally {
      await app.stop();
    }
  });

  it("logs an MCP call's internal error once, with the call's correlation id, and answers without its detail", async () => {
    const app = await appAt('info', [...TOOLS, throwingMapper]);
    try {
      const w = await makeWorld();
      const token = await tokenFor(w.owner, AI_READ, 'ai');
      const res = await request(app.app)
        .post('/api/mcp')
        .set('Authorization', `Bearer ${token}`)
        .set('X-Correlation-Id', 'corr-internal-1')
        .set('Content-Type', 'application/json')
        .set('Accept', 'application/json, text/event-stream')
        .send(call('fixture_throwing_mapper'));
      expect(res.status).toBe(500);
      expect(res.text).not.toContain('SELECT');
      const errors = logged().filter((l) => l.msg === 'MCP internal error');
      expect(errors).toEqual([expect.objectContaining({ correlationId: 'corr-internal-1', err: expect.objectContaining({ message: 'SELECT * FROM secret_table WHERE password = 42' }) })]);
    } finally {
      await app.stop();
    }
  });
});
