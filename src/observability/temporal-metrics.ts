import { DefaultLogger, Runtime, makeTelemetryFilterString, type LogEntry, type LogLevel } from '@temporalio/worker';
import type { Level, Logger } from 'pino';
import { loggable } from '../../facades/shared/errors';
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

/** An Error, also one made in another realm (a workflow's sandbox), where `instanceof Error` is false. */
function isError(value: unknown): value is Error {
  return value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';
}

/** A driver's error code (`ER_LOCK_DEADLOCK`, `ECONNREFUSED`): a constant name, never a value of the failed statement. */
function codeOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= 64 && /^[A-Z_0-9]+$/.test(value) ? value : undefined;
}

/** An error as the SDK logger writes it (`safeError`). */
export interface SafeError {
  type: string;
  message: string;
  stack?: string;
  code?: string;
  cause?: SafeError;
}

/** An error-like object that is not an Error of this realm (a decoded Failure, a sandbox's error): name, message, stack. */
function safeObject(value: object): SafeError {
  const f = value as { name?: unknown; message?: unknown; stack?: unknown; stackTrace?: unknown };
  const stack = typeof f.stack === 'string' ? f.stack : typeof f.stackTrace === 'string' ? f.stackTrace : undefined;
  const safe: SafeError = {
    type: typeof f.name === 'string' ? f.name.slice(0, 100) : 'object',
    message: typeof f.message === 'string' ? f.message.slice(0, 500) : '',
  };
  if (stack) safe.stack = stack.split('\n').slice(0, 12).join('\n');
  return safe;
}

/**
 * What an error in an SDK entry may put in the log: `loggable` (type, message cut short, stack cut short), the code of
 * the error or of the driver error it wraps (a Sequelize DatabaseError keeps it in `parent`), and its `cause`s the
 * same way. Never the other properties: a Sequelize error carries the statement with its values written in (`sql`,
 * `parent.sql`, `original.sql`) and its `parameters`, i.e. reviewers' names, e-mail addresses, phone numbers, payloads
 * and tokens, which pino's `stdSerializers.err` copied into every 'Activity failed' line.
 */
export function safeError(err: unknown, depth = 0): SafeError {
  if (err === null || typeof err !== 'object') return loggable(err);
  const safe: SafeError = err instanceof Error ? loggable(err) : safeObject(err);
  const e = err as { code?: unknown; parent?: { code?: unknown }; original?: { code?: unknown }; cause?: unknown };
  const code = codeOf(e.code) ?? codeOf(e.parent?.code) ?? codeOf(e.original?.code);
  if (code) safe.code = code;
  if (e.cause !== undefined && e.cause !== null && depth < 3) safe.cause = safeError(e.cause, depth + 1);
  return safe;
}

/** The keys under which the SDK (and our own code) hands an error or a failure to the logger. */
const ERROR_KEYS = new Set(['error', 'err', 'failure', 'cause', 'reason']);

/**
 * One meta value of an SDK entry, fit for the log: every Error in it (plain objects and arrays are walked, 4 levels
 * deep), and any object with a `message` under an error key (`error`, `err`, `failure`, ...), becomes `safeError`;
 * the rest as it is.
 */
function safeMeta(value: unknown, key: string, depth: number): unknown {
  if (isError(value)) return safeError(value);
  if (value === null || typeof value !== 'object') return value;
  // A failure that is not an Error (a decoded Temporal Failure, a structured clone): as an error if it looks like one.
  if (ERROR_KEYS.has(key) && !Array.isArray(value) && typeof (value as { message?: unknown }).message === 'string') return safeError(value);
  if (depth >= 4) return Array.isArray(value) ? '[array]' : '[object]';
  if (Array.isArray(value)) return value.map((item) => safeMeta(item, key, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = safeMeta(v, k, depth + 1);
  return out;
}

/**
 * The Temporal SDK's logger for this process: every entry (the worker's own, workflow and activity `log` calls, and
 * Core's native entries, which the runtime forwards) becomes one pino record of `logger`, so every line of output is
 * JSON. `sdk: true` marks them; the entry's meta become fields, every error among them (`{ error }`, `{ err }`,
 * `failure`, nested ones too) reduced to `safeError`: its type, message, stack and code, none of its other properties.
 */
export function temporalSdkLogger(logger: Logger): DefaultLogger {
  // pino's own `err` serializer would take a `safeError` under `err` for an error and rewrite its `type` (`Object`).
  const out = logger.child({}, { serializers: { err: (value: unknown) => value } });
  return new DefaultLogger(sdkLevelOf(logger.level), (entry: LogEntry) => {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(entry.meta ?? {})) {
      try {
        fields[key] = safeMeta(value, key, 0);
      } catch {
        // A getter that throws: the entry is still written, without that field.
        fields[key] = '[unreadable]';
      }
    }
    out[PINO_LEVEL[entry.level]]({ ...fields, sdk: true }, entry.message);
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
