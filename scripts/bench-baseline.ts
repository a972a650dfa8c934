import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import express, { type Express, type Request, type Response } from 'express';
import mysql, { type Pool, type RowDataPacket } from 'mysql2/promise';
import { bearerOf } from '../facades/shared/auth';
import { baseUrlOf, envelope } from '../facades/shared/pagination';
import { fileUrl, placeholderAvatarUrl, sourceLogoUrl } from '../src/graphql/urls';
import { hashToken } from '../src/services/auth.service';

/**
 * The baseline of `npm run bench` (scripts/bench.ts), in a process of its own as issue 17 asks: a bare Express app
 * with hand-written SQL through a mysql2 pool that authenticates the bearer token by its hash, reads the same page of
 * the same rows with their source (and the total from review_counts), and answers the same envelope as the facade.
 * Like the facade it leaves out reviews removed on their platform (`removed_at`).
 * Run as `node dist/scripts/bench-baseline.js` with BENCH_BASELINE_DATABASE_URL and BENCH_BASELINE_POOL; it prints
 * `listening <origin>` once it listens on a loopback port of its own.
 */

interface Caller {
  tenantId: number;
}

interface ReviewRow extends RowDataPacket {
  id: number;
  organization_id: number;
  location_id: number;
  integration_id: number;
  author: string;
  published_at: Date;
  rating: number;
  title: string | null;
  message: string;
  avatar_file_id: string | null;
  avatar_url: string | null;
  reply: string | null;
  reply_date: Date | null;
  hidden: number;
  verified: number;
}

const REVIEW_COLUMNS = `r.id, r.tenant_id, r.organization_id, r.location_id, r.integration_id, r.author, r.published_at, r.rating,
  r.title, r.message, r.avatar_file_id, r.avatar_url, r.reply, r.reply_date, r.hidden, r.verified`;

/** The same REST shape as facades/rest/customer/mappers.ts `review()` over the GraphQL ReviewType. */
function reviewJson(r: ReviewRow, source: { name: string; slug: string | null } | undefined, baseUrl: string) {
  return {
    id: r.id,
    organization_id: r.organization_id,
    location_id: r.location_id,
    integration_id: r.integration_id,
    author: r.author,
    date: r.published_at.toISOString(),
    rating: r.rating,
    title: r.title,
    message: r.message,
    source: source?.name ?? '',
    source_logo: sourceLogoUrl(baseUrl, source?.slug ?? 'custom'),
    avatar: r.avatar_file_id ? fileUrl(baseUrl, r.avatar_file_id) : (r.avatar_url ?? placeholderAvatarUrl(baseUrl, r.author)),
    reply: r.reply,
    reply_date: r.reply_date ? r.reply_date.toISOString() : null,
    hidden: Boolean(r.hidden),
    verified: Boolean(r.verified),
  };
}

export function baselineApp(pool: Pool): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');

  /** One indexed lookup of the token hash (api_tokens_hash_unique) joined to its user, as the facade does. */
  async function authenticate(req: Request, res: Response): Promise<Caller | null> {
    const secret = bearerOf(req);
    if (secret) {
      const [rows] = await pool.execute<RowDataPacket[]>(
        `SELECT t.permissions, t.expires_at, t.revoked_at, u.tenant_id, u.role
           FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ? LIMIT 1`,
        [hashToken(secret)],
      );
      const t = rows[0];
      if (t && !t.revoked_at && !(t.expires_at && (t.expires_at as Date).getTime() <= Date.now())) {
        const permissions = JSON.parse(t.permissions as string) as string[];
        if (!permissions.includes('reviews:read')) {
          res.status(403).json({ message: 'This action is unauthorized: the token lacks reviews:read.' });
          return null;
        }
        // The baseline implements the tenant-owner scope only (the bench token's).
        if (t.role !== 'tenant_owner') {
          res.status(403).json({ message: 'The baseline serves tenant-owner tokens only.' });
          return null;
        }
        return { tenantId: t.tenant_id as number };
      }
    }
    res.status(401).json({ message: 'Unauthenticated.' });
    return null;
  }

  async function sourcesOf(ids: number[]): Promise<Map<number, { name: string; slug: string | null }>> {
    const map = new Map<number, { name: string; slug: string | null }>();
    if (!ids.length) return map;
    const [rows] = await pool.query<RowDataPacket[]>(
      'SELECT i.id, i.name, s.slug FROM integrations i LEFT JOIN review_sources s ON s.id = i.source_id WHERE i.id IN (?)',
      [ids],
    );
    for (const row of rows) map.set(row.id as number, { name: row.name as string, slug: row.slug as string | null });
    return map;
  }

  /** The cheapest answer: what bare Express costs per request before any route's own work (the facade's is /health). */
  app.get('/baseline/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  app.get('/baseline/reviews', async (req, res) => {
    try {
      const caller = await authenticate(req, res);
      if (!caller) return;
      const page = req.query.page === undefined ? 1 : Number(req.query.page);
      if (!Number.isInteger(page) || page < 1) {
        res.status(422).json({ message: 'The page must be at least 1.', errors: { page: ['The page must be at least 1.'] } });
        return;
      }
      const perPage = 10;
      const [[items], [counted]] = await Promise.all([
        pool.execute<ReviewRow[]>(
          `SELECT ${REVIEW_COLUMNS} FROM reviews r WHERE r.tenant_id = ? AND r.removed_at IS NULL ORDER BY r.published_at DESC, r.id DESC LIMIT 10 OFFSET ?`,
          [caller.tenantId, String((page - 1) * perPage)],
        ),
        pool.execute<RowDataPacket[]>('SELECT SUM(n) AS total FROM review_counts WHERE tenant_id = ?', [caller.tenantId]),
      ]);
      const sources = await sourcesOf([...new Set(items.map((r) => r.integration_id))]);
      const baseUrl = baseUrlOf(req);
      const pageResult = { items, total: Number(counted[0].total), page, perPage };
      res.json(envelope(req, pageResult, (r) => reviewJson(r, sources.get(r.integration_id), baseUrl)));
    } catch (err) {
      res.status(500).json({ message: 'Server Error', detail: String(err) });
    }
  });

  app.get('/baseline/reviews/:id', async (req, res) => {
    try {
      const caller = await authenticate(req, res);
      if (!caller) return;
      const id = /^\d{1,10}$/.test(req.params.id) ? Number(req.params.id) : 0;
      const [rows] = await pool.execute<(ReviewRow & { source_name: string | null; source_slug: string | null })[]>(
        `SELECT ${REVIEW_COLUMNS}, i.name AS source_name, s.slug AS source_slug
           FROM reviews r LEFT JOIN integrations i ON i.id = r.integration_id LEFT JOIN review_sources s ON s.id = i.source_id
          WHERE r.id = ? AND r.removed_at IS NULL`,
        [id],
      );
      const r = rows[0];
      if (!r || r.tenant_id !== caller.tenantId) {
        res.status(404).json({ message: 'Review not found.' });
        return;
      }
      const source = r.source_name === null ? undefined : { name: r.source_name, slug: r.source_slug };
      res.json({ data: reviewJson(r, source, baseUrlOf(req)) });
    } catch (err) {
      res.status(500).json({ message: 'Server Error', detail: String(err) });
    }
  });
  return app;
}

async function main(): Promise<void> {
  const uri = process.env.BENCH_BASELINE_DATABASE_URL;
  if (!uri) throw new Error('BENCH_BASELINE_DATABASE_URL is not set.');
  const pool = mysql.createPool({ uri, connectionLimit: Number(process.env.BENCH_BASELINE_POOL ?? 10), timezone: 'Z', supportBigNumbers: true });
  const server = baselineApp(pool).listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`listening http://127.0.0.1:${port}\n`);
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => void pool.end().then(() => process.exit(0)));
  });
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`Baseline failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
