import { Runtime } from '@temporalio/worker';
import type { Logger } from 'pino';
import { freePort } from '../net/free-port';

function install(port: number): void {
  Runtime.install({ telemetryOptions: { metrics: { prometheus: { bindAddress: `127.0.0.1:${port}` } } } });
}

/**
 * Installs the Temporal SDK runtime with its Prometheus exporter on a loopback port, before any worker exists (the
 * runtime is created once per process). `/metrics` of this process appends that page, so the exporter itself is never
 * exposed. `setting` is TEMPORAL_METRICS_PORT: `off`, `0` (any free port: several workers on one host) or a port.
 * Returns the exporter's URL, or null when off or when it could not start (the worker runs without SDK metrics).
 */
export async function installTemporalMetrics(setting: string, logger: Logger): Promise<string | null> {
  if (setting === 'off') return null;
  let port = Number(setting);
  try {
    if (port === 0) port = await freePort();
    try {
      install(port);
    } catch (e) {
      // Another process holds the configured port (two workers on one host): any free port will do.
      if (Number(setting) === 0) throw e;
      logger.warn({ port, err: { message: (e as Error).message } }, 'Temporal metrics port taken: using a free one');
      port = await freePort();
      install(port);
    }
  } catch (e) {
    logger.warn({ err: { message: (e as Error).message } }, 'Temporal SDK metrics are off: the exporter could not start');
    return null;
  }
  return `http://127.0.0.1:${port}/metrics`;
}
