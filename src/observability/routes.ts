import express, { type Router } from 'express';
import { bearerMatches, isLoopbackClient } from './access';
import { registry } from './metrics';
import { checkReadiness, type ReadinessDeps } from './readiness';

export interface ObservabilityOptions {
  /** What the readiness probe checks, read per request (the Temporal client may connect after the app is built). */
  readiness: () => ReadinessDeps;
  /** When set, `/metrics` also answers `Authorization: Bearer <token>` from anywhere; else loopback only. */
  metricsToken?: string;
  trustProxy: boolean;
  /** The Temporal SDK's own Prometheus endpoint in this process (where a worker runs), appended to `/metrics`. */
  temporalMetricsUrl?: string | null;
}

/** The Temporal SDK's page, or a comment saying why it is missing (the app's own series still count). */
async function temporalMetrics(url: string): Promise<string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    if (!res.ok) return `# Temporal SDK metrics unavailable: ${url} answered ${res.status}\n`;
    return await res.text();
  } catch (e) {
    return `# Temporal SDK metrics unavailable: ${e instanceof Error ? e.message : String(e)}\n`;
  }
}

/** `/health` (alive), `/health/ready` (every dependency, 503 naming what failed) and `/metrics` (Prometheus). */
export function observabilityRoutes(opts: ObservabilityOptions): Router {
  const router = express.Router();
  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/health/ready', async (_req, res, next) => {
    try {
      const readiness = await checkReadiness(opts.readiness());
      res.setHeader('Cache-Control', 'no-store');
      res.status(readiness.status === 'ready' ? 200 : 503).json(readiness);
    } catch (e) {
      next(e);
    }
  });
  router.get('/metrics', async (req, res, next) => {
    const local = isLoopbackClient({ remoteAddress: req.socket.remoteAddress, ip: req.ip, trustProxy: opts.trustProxy });
    if (!local && !(opts.metricsToken && bearerMatches(req.get('authorization'), opts.metricsToken))) {
      res.status(403).json({
        message: opts.metricsToken ? 'Forbidden: send the metrics token as "Authorization: Bearer <METRICS_TOKEN>".' : 'Forbidden: /metrics answers local clients only (set METRICS_TOKEN to scrape from elsewhere).',
        code: 'metrics_forbidden',
      });
      return;
    }
    try {
      const [own, sdk] = await Promise.all([registry.metrics(), opts.temporalMetricsUrl ? temporalMetrics(opts.temporalMetricsUrl) : Promise.resolve('')]);
      res.setHeader('Content-Type', registry.contentType);
      res.setHeader('Cache-Control', 'no-store');
      res.send(sdk ? `${own.trimEnd()}\n${sdk}` : own);
    } catch (e) {
      next(e);
    }
  });
  return router;
}
