import type { Logger } from 'pino';

/**
 * The one line a process prints when it cannot start (invalid configuration, database or Temporal unreachable, a
 * mismatched APP_KEY): the error's message on one line, no stack (operators read it in `docker compose logs`).
 * LOG_LEVEL=debug (or trace) keeps the stack for developers.
 */
export function bootErrorLine(prefix: string, err: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const debug = env.LOG_LEVEL === 'debug' || env.LOG_LEVEL === 'trace';
  if (debug && err instanceof Error && err.stack) return `${prefix}: ${err.stack}`;
  const message = err instanceof Error ? err.message : String(err);
  const oneLine = message
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean)
    .join(' ');
  return `${prefix}: ${oneLine || (err instanceof Error ? err.name : 'unknown error')}`;
}

/** Prints the boot error line and ends the process with status 1. */
export function exitOnBootError(prefix: string): (err: unknown) => never {
  return (err) => {
    process.stderr.write(`${bootErrorLine(prefix, err)}\n`);
    process.exit(1);
  };
}

/**
 * A worker that ended while the process was not stopping (a fatal SDK error): one JSON line and exit 1, for the
 * supervisor to start a fresh process. Left up, the process stayed alive and healthy-looking and took no work.
 */
export function exitOnWorkerEnd(logger: Pick<Logger, 'fatal'>, stopping: () => boolean): (err: unknown) => void {
  return (err) => {
    if (stopping()) return;
    logger.fatal({ err }, 'temporal worker ended without a stop: exiting');
    process.exit(1);
  };
}

/** `mysql://user:secret@host/db` without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);

/** "Cannot reach the database at mysql://root@127.0.0.1:3399/x: ECONNREFUSED" from a driver error. */
export function databaseUnreachable(url: string, err: unknown): Error {
  const e = err as { code?: string; message?: string };
  const detail = e.code && NETWORK_CODES.has(e.code) ? e.code : (e.message ?? String(err));
  return new Error(`Cannot reach the database at ${redactUrl(url)}: ${detail}`, { cause: err });
}
