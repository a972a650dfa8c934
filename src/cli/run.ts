// The models' decorators read design-time metadata: installed before any command loads them.
import 'reflect-metadata';
import type { Command } from 'commander';
import type { Sequelize } from 'sequelize-typescript';
import type { Config } from '../config';

/** Bad arguments the command itself finds (a malformed id, a missing flag): exit code 2, like a parse error. */
export class CliInputError extends Error {}

export interface CliResult {
  /** What a person reads. */
  text: string;
  /** What `--json` prints, as one line. */
  data: Record<string, unknown>;
  /** Default 0; `doctor` answers 1 when a check failed, with its report still printed. */
  exitCode?: number;
}

export interface CliContext {
  config: Config;
  /** Open when the command asked for the database. */
  sequelize: Sequelize;
}

/**
 * `migrate`: open the database (created when missing) at the latest migration, as every command did before the CLI
 * was a binary, so an operator never writes into an older schema; `open`: connect only (db:migrate, db:status and
 * doctor decide themselves); `none`: no database.
 */
export type DatabaseUse = 'migrate' | 'open' | 'none';

export const list = (v: string): string[] =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A positive integer id, or exit 2 naming the flag. */
export function idOf(value: string, what: string): number {
  if (!/^\d{1,10}$/.test(value.trim()) || Number(value) < 1) throw new CliInputError(`${what} "${value}" is not a numeric id`);
  return Number(value);
}

export function ids(value: string, what: string): number[] {
  return list(value).map((s) => idOf(s, what));
}

/** The most `--password-stdin` reads: a password is a line, not a file. */
const MAX_STDIN_SECRET_BYTES = 64 * 1024;

/**
 * A secret piped in (`printf '%s\n' "$PW" | reviewgrid ... --password-stdin`), as `docker login --password-stdin` reads
 * it: stdin to its end, less one trailing line break. It stays out of argv, so out of shell history and of
 * /proc/<pid>/cmdline, which every local user can read. Nothing, several lines or more than 64 KB: exit 2.
 */
export async function stdinSecret(flag: string, stdin: AsyncIterable<Buffer | string> = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += bytes.length;
    if (size > MAX_STDIN_SECRET_BYTES) throw new CliInputError(`${flag}: stdin holds more than ${MAX_STDIN_SECRET_BYTES} bytes; give the secret alone, on one line`);
    chunks.push(bytes);
  }
  const secret = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  if (/[\r\n]/.test(secret)) throw new CliInputError(`${flag}: stdin holds several lines; give the secret alone, on one line`);
  if (!secret) throw new CliInputError(`${flag}: nothing was read from stdin`);
  return secret;
}

/** The options of a command with `--password <password>` (or REVIEWGRID_PASSWORD) and `--password-stdin`. */
export interface PasswordOpts {
  password?: string;
  passwordStdin?: boolean;
}

/** `o` with the password read from stdin when `--password-stdin` was given (commander refuses it with `--password`). */
export async function withStdinPassword<T extends PasswordOpts>(o: T): Promise<T> {
  return o.passwordStdin ? { ...o, password: await stdinSecret('--password-stdin') } : o;
}

function isInputError(err: unknown): boolean {
  if (err instanceof CliInputError) return true;
  // Domain errors carry `code` (src/domain/errors.ts); read it without loading that module for every command.
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && (code === 'VALIDATION' || code === 'NOT_FOUND');
}

async function openDb(config: Config, use: DatabaseUse): Promise<Sequelize> {
  const { createSequelize, ensureDatabase } = await import('../db/connection');
  const { databaseUnreachable } = await import('../observability/boot');
  if (use === 'migrate') {
    await ensureDatabase(config.DATABASE_URL).catch((e: unknown) => {
      throw databaseUnreachable(config.DATABASE_URL, e);
    });
  }
  // A command makes a handful of queries: two connections are plenty and leave the pool to the API and workers.
  const sequelize = createSequelize({ url: config.DATABASE_URL, poolMax: 2 });
  if (use === 'migrate' && (await hasPending(sequelize))) {
    const { migrate } = await import('../db/umzug');
    await migrate(sequelize);
  }
  return sequelize;
}

/** One read of the applied names: umzug (and the CLI framework it loads) is only needed when something is pending. */
async function hasPending(sequelize: Sequelize): Promise<boolean> {
  const { migrations } = await import('../db/migrations');
  const { QueryTypes } = await import('sequelize');
  try {
    const rows = await sequelize.query<{ name: string }>('SELECT name FROM schema_migrations', { type: QueryTypes.SELECT, logging: false });
    const applied = new Set(rows.map((r) => r.name));
    return migrations.some((m) => !applied.has(m.name));
  } catch (e) {
    if ((e as { original?: { code?: string } }).original?.code === 'ER_NO_SUCH_TABLE') return true;
    throw e;
  }
}

/**
 * Runs one command: loads the configuration, opens what it needs, prints its result (text, or one JSON line with
 * `--json`) and sets the exit code: 0 done, 1 failure, 2 invalid input. Errors print one line, never a stack.
 */
export async function run(program: Command, use: DatabaseUse, action: (ctx: CliContext) => Promise<CliResult>): Promise<void> {
  const json = Boolean(program.opts().json);
  let sequelize: Sequelize | null = null;
  try {
    const { loadConfig } = await import('../config');
    const config = loadConfig();
    if (use !== 'none') sequelize = await openDb(config, use);
    const result = await action({
      config,
      get sequelize(): Sequelize {
        if (!sequelize) throw new Error('this command runs without the database');
        return sequelize;
      },
    });
    process.stdout.write(json ? `${JSON.stringify(result.data)}\n` : `${result.text}\n`);
    process.exitCode = result.exitCode ?? 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const fields = (err as { fields?: Record<string, string[]> } | null)?.fields;
    if (json) process.stdout.write(`${JSON.stringify({ error: { message, fields: fields ?? null } })}\n`);
    else process.stderr.write(`${errorLine(message, fields)}\n`);
    process.exitCode = isInputError(err) ? 2 : 1;
  } finally {
    await sequelize?.close().catch(() => undefined);
  }
}

/** Columns padded to their widest cell; `-` for empty cells. */
export function table(rows: Array<Record<string, unknown>>, columns: Array<[header: string, key: string]>): string {
  const cell = (v: unknown): string => {
    if (v === null || v === undefined || v === '') return '-';
    if (v instanceof Date) return v.toISOString().replace(/\.\d{3}Z$/, 'Z');
    if (Array.isArray(v)) return v.length ? v.join(',') : '-';
    return String(v);
  };
  const cells = rows.map((r) => columns.map(([, key]) => cell(r[key])));
  const widths = columns.map(([h], i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((s, i) => (i === c.length - 1 ? s : s.padEnd(widths[i]))).join('  ');
  return [line(columns.map(([h]) => h)), ...cells.map(line)].join('\n');
}

/** Dates as ISO strings for `--json` (JSON.stringify would too; explicit keeps `null` for unset). */
export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/**
 * A failure for a person: one line, `Error: <message>`, then each field's messages that the message does not
 * already say (`(name: The name field is required.)`).
 */
export function errorLine(message: string, fields?: Record<string, string[]> | null): string {
  const main = message.split('\n').join(' ');
  const extra = Object.entries(fields ?? {})
    .map(([field, messages]) => [field, messages.filter((m) => !main.includes(m))] as const)
    .filter(([, messages]) => messages.length > 0)
    .map(([field, messages]) => `${field}: ${messages.join(' ')}`);
  return `Error: ${main}${extra.length ? ` (${extra.join('; ')})` : ''}`;
}
