import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { TrustProxy } from '../net/trust-proxy';
import { observabilityRoutes, type ObservabilityOptions } from './routes';

export interface ObservabilityServer {
  port: number;
  close(): Promise<void>;
}

/**
 * The worker process's small HTTP server (WORKER_HTTP_PORT): `/health`, `/health/ready` and `/metrics` only, so
 * orchestrators probe workers and Prometheus scrapes their activity and Temporal SDK metrics.
 */
export async function startObservabilityServer(
  opts: Omit<ObservabilityOptions, 'trustProxy'> & { port: number; host: string; trustProxy: TrustProxy },
): Promise<ObservabilityServer> {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', opts.trustProxy);
  app.use(observabilityRoutes({ ...opts, trustProxy: opts.trustProxy !== false }));
  app.use((_req, res) => {
    res.status(404).json({ message: 'Not found.' });
  });
  app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ message: 'Internal server error.' });
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(opts.port, opts.host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
