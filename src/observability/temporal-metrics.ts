import { DefaultLogger, Runtime, makeTelemetryFilterString, type LogEntry, type LogLevel } from '@temporalio/worker';
import { stdSerializers, type Level, type Logger } from 'pino';
import { freePort } from '../net/free-port';

/** The SDK level that lets through what pino's `level` (LOG_LEVEL) would log; `silent` keeps errors (pino drops them). */
function sdkLevelOf(level: string): LogLevel {
  switch (level) {
    case 'trace':
      return 'TRACE';
    case 'debug':
      return 'DEBUG';
    case 'info':
      return 'INFO';
    case 'warn':
      return 'WARN';
    default:
      return 'ERROR';
  }
}

const PINO_LEVEL: Record<LogLevel, Level> = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' };

/**
 * The Temporal SDK's logger for this process: every entry (the worker's own, workflow and activity `log` calls, and
 * Core's native entries, which the runtime forwards) becomes one pino record of `logger`, so every line of output is
 * JSON. `sdk: true` marks them; the entry's meta become fields (an Error among them is serialized like pino's `err`).
 */
export function temporalSdkLogger(logger: Logger): DefaultLogger {
  return new DefaultLogger(sdkLevelOf(logger.level), (entry: LogEntry) => {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(entry.meta ?? {})) fields[key] = value instanceof Error ? stdSerializers.err(value) : value;
    logger[PINO_LEVEL[entry.level]]({ ...fields, sdk: true }, entry.message);
  });
}

function install(logger: Logger, port: number | null): void {
  const level = sdkLevelOf(logger.level);
  Runtime.install({
    logger: temporalSdkLogger(logger),
    // The signals the processes stop on (src/main.ts, src/worker-main.ts). The SDK's default also shuts its workers
    // down on SIGQUIT and SIGUSR2, which took Node's own exit on them away: the process stayed up, its worker gone.
    shutdownSignals: ['SIGINT', 'SIGTERM'],
    telemetryOptions: {
      // Core's native entries go to the logger above (they would be written to the console as text otherwise): its own
      // at LOG_LEVEL, those of the libraries it uses (gRPC, HTTP/2) at ERROR only, as the SDK's default has it.
      logging: { filter: makeTelemetryFilterString({ core: level, other: 'ERROR' }), forward: {} },
      ...(port === null ? {} : { metrics: { prometheus: { bindAddress: `127.0.0.1:${port}` } } }),
    },
  });
}

/**
 * Installs the Temporal SDK runtime before any worker exists (the runtime is created once per process): its logger
 * writes the SDK's entries as this process's JSON log lines (`temporalSdkLogger`), and its Prometheus exporter listens
 * on a loopback port. `/metrics` of this process appends that page, so the exporter itself is never exposed.
 * `setting` is TEMPORAL_METRICS_PORT: `off`, `0` (any free port: several workers on one host) or a port.
 * Returns the exporter's URL, or null when off or when it could not start (the worker runs without SDK metrics, its
 * logs still JSON).
 */
export async function installTemporalRuntime(setting: string, logger: Logger): Promise<string | null> {
  if (setting === 'off') {
    install(logger, null);
    return null;
  }
  let port = Number(setting);
  try {
    if (port === 0) port = await freePort();
    try {
      install(logger, port);
    } catch (e) {
      // Another process holds the configured port (two workers on one host): any free port will do.
      if (Number(setting) === 0) throw e;
      logger.warn({ port, err: { message: (e as Error).message } }, 'Temporal metrics port taken: using a free one');
      port = await freePort();
      install(logger, port);
    }
  } catch (e) {
    logger.warn({ err: { message: (e as Error).message } }, 'Temporal SDK metrics are off: the exporter could not start');
    try {
      install(logger, null);
    } catch (again) {
      // A runtime that exists already (a worker created before this call) keeps its own logger.
      logger.warn({ err: { message: (again as Error).message } }, 'Temporal SDK logger not installed');
    }
    return null;
  }
  return `http://127.0.0.1:${port}/metrics`;
}
