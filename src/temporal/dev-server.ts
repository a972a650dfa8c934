import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { devServerSearchAttributeFlags, ensureSearchAttributes } from './search-attributes';

/**
 * The Temporal CLI dev server (`temporal server start-dev`) for the embedded default and the tests: one
 * process on loopback with SQLite inside, started and stopped by us.
 */
export interface DevServerOptions {
  cli: string;
  port: number;
  uiPort: number | null;
  namespace: string;
  /** Persistent SQLite file; null keeps everything in memory (tests). */
  dbFile: string | null;
  log?: (line: string) => void;
}

export interface DevServer {
  address: string;
  uiUrl: string | null;
  process: ChildProcess;
  stop(): Promise<void>;
}

const ROOT = path.resolve(__dirname, '..', '..', ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []));

/** TEMPORAL_CLI, PATH, or the project's cache; installs into the cache with `scripts/ensure-temporal.sh` when missing. */
export function findTemporalCli(explicit?: string): string {
  const script = path.join(ROOT, 'scripts', 'ensure-temporal.sh');
  const out = execFileSync('bash', [script], {
    env: { ...process.env, ...(explicit ? { TEMPORAL_CLI: explicit } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  const cli = out.trim().split('\n').pop() ?? '';
  if (!cli || !fs.existsSync(cli)) throw new Error(`Temporal CLI not found (ensure-temporal.sh printed "${out.trim()}")`);
  return cli;
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  if (await portOpen(opts.port)) {
    throw new Error(`Port ${opts.port} is taken: is another Temporal dev server running? Set TEMPORAL_DEV_PORT or TEMPORAL_ADDRESS.`);
  }
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(opts.port), '--namespace', opts.namespace, '--log-level', 'warn'];
  // Registers our search attributes when the server creates its database; an existing SQLite file ignores
  // the flags, which is why startTemporal also runs ensureSearchAttributes.
  args.push(...devServerSearchAttributeFlags());
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort));
  else args.push('--headless');
  if (opts.dbFile) {
    fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
    args.push('--db-filename', opts.dbFile, '--sqlite-pragma', 'journal_mode=WAL');
  }
  // Its own process group: Ctrl+C reaches only us, and we stop the server after the worker has drained.
  const child = spawn(opts.cli, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  // Whatever way this process ends, the server does not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  const collect = (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
    opts.log?.(d.toString().trimEnd());
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`temporal server start-dev exited (${child.exitCode}):\n${output}`);
    if (await portOpen(opts.port)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`temporal server start-dev did not listen on ${opts.port} within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    // The port opens a moment before the flags' attributes are registered, and never for an older SQLite
    // file: a workflow started with an unknown attribute fails, so they are in place before anyone starts one.
    const connection = await Connection.connect({ address: `127.0.0.1:${opts.port}` });
    try {
      await ensureSearchAttributes(new Client({ connection, namespace: opts.namespace }), opts.namespace);
    } finally {
      await connection.close();
    }
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return {
    address: `127.0.0.1:${opts.port}`,
    uiUrl: opts.uiPort ? `http://127.0.0.1:${opts.uiPort}` : null,
    process: child,
    async stop() {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
