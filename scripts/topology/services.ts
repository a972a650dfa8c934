import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import mysql from 'mysql2/promise';

/**
 * The compose topology as local processes: every service, command, environment and dependency comes from
 * `docker compose config --format json`; what this file adds is only what Docker itself would provide — an image's
 * binary on this machine, the network (service names become 127.0.0.1 and a free local port per published container
 * port), the first-start initialisation of the database images, and the restart policies.
 */

const run = promisify(execFile);
export const ROOT = path.resolve(__dirname, '..', '..', ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []));

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[] | null;
  entrypoint?: string[] | null;
  environment?: Record<string, string | null>;
  depends_on?: Record<string, { condition: 'service_started' | 'service_healthy' | 'service_completed_successfully' }>;
  healthcheck?: { test?: string[] };
  restart?: string;
  configs?: Array<{ source: string; target: string }>;
  ports?: Array<{ target: number; published?: string }>;
  profiles?: string[];
}
export interface ComposeFile {
  services: Record<string, ComposeService>;
  configs?: Record<string, { content?: string; file?: string }>;
}

export interface Binaries {
  TEMPORAL_SERVER_BIN: string;
  TEMPORAL_SQL_TOOL: string;
  MAILPIT_BIN: string;
  NODE24_BIN: string;
}

/** Local ports of the containers' ports, away from the development defaults (3000, 7233, 8025...). */
const LOCAL_PORTS: Record<string, number> = {
  'mariadb:3306': 3306, // the machine's MariaDB
  'temporal-db:5432': 5432, // the machine's PostgreSQL
  'redis:6379': 26379,
  'temporal:7233': 24233,
  'mailpit:1025': 21025,
  'mailpit:8025': 28025,
  'api:3000': 23000,
  'worker:3001': 23101,
};
export const localPort = (service: string, port: number): number => {
  const p = LOCAL_PORTS[`${service}:${port}`];
  if (!p) throw new Error(`topology: no local port for ${service}:${port}`);
  return p;
};

/**
 * What Docker's network does: `service:port` becomes a loopback address, and so does a bare service name in a
 * variable that names a host (`POSTGRES_SEEDS: temporal-db`; not `POSTGRES_USER: temporal`, a user that shares
 * its name with a service).
 */
export function rewriteValue(key: string, value: string, services: string[]): string {
  let out = value;
  for (const [hostPort, port] of Object.entries(LOCAL_PORTS)) out = out.split(hostPort).join(`127.0.0.1:${port}`);
  if (/(SEEDS|HOST|HOSTS)$/.test(key) && services.includes(out)) return '127.0.0.1';
  return out;
}

export interface Running {
  name: string;
  replica: number;
  child: ChildProcess | null;
  exits: number[];
  stoppedByUs: boolean;
  restarts: number;
  log: string;
  /** Port overrides of this replica (its listeners). */
  env: Record<string, string>;
}

/**
 * What `docker build` makes of the Dockerfile, without Docker: `npm ci --omit=dev` on Node 24 (exactly the lock file's
 * versions, the production dependencies the image keeps after `npm prune --omit=dev`) and the built `dist/`, in a
 * directory of its own. The services run from there, so a dependency missing from `dependencies` fails here too.
 */
export function buildImage(workDir: string, bins: Binaries, say: (line: string) => void): string {
  const app = path.join(workDir, 'image');
  fs.mkdirSync(app, { recursive: true });
  for (const f of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(ROOT, f), path.join(app, f));
  const npm = fs.realpathSync(execFileSync('bash', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim());
  const t0 = Date.now();
  execFileSync(bins.NODE24_BIN, [npm, 'ci', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: app,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PATH: `${path.dirname(bins.NODE24_BIN)}:${process.env.PATH}`, NODE_ENV: 'production' },
  });
  fs.cpSync(path.join(ROOT, 'dist'), path.join(app, 'dist'), { recursive: true });
  say(`image: npm ci --omit=dev on node 24 and dist/ in ${((Date.now() - t0) / 1000).toFixed(0)} s (${app})`);
  return app;
}

export class Topology {
  readonly running = new Map<string, Running[]>();
  private readonly binDir: string;
  private healthy = new Set<string>();

  constructor(
    readonly compose: ComposeFile,
    readonly bins: Binaries,
    readonly workDir: string,
    readonly replicas: Record<string, number>,
    readonly say: (line: string) => void,
    /** Where the app image's files are (buildImage); the services' working directory, like the image's WORKDIR. */
    readonly appDir: string = ROOT,
  ) {
    this.binDir = path.join(workDir, 'bin');
    fs.mkdirSync(this.binDir, { recursive: true });
    fs.mkdirSync(path.join(workDir, 'logs'), { recursive: true });
    // The images' executables, by the names the compose commands use.
    const link = (name: string, target: string) => {
      fs.rmSync(path.join(this.binDir, name), { force: true });
      fs.symlinkSync(target, path.join(this.binDir, name));
    };
    link('temporal-sql-tool', bins.TEMPORAL_SQL_TOOL);
    link('temporal-server', bins.TEMPORAL_SERVER_BIN);
    link('mailpit', bins.MAILPIT_BIN);
    link('node', bins.NODE24_BIN);
    // The app image puts the operator CLI on PATH the same way (Dockerfile).
    fs.writeFileSync(path.join(this.binDir, 'reviewgrid'), `#!/bin/sh\nexec node "${appDir}/dist/src/cli/index.js" "$@"\n`, { mode: 0o755 });
  }

  get serviceNames(): string[] {
    return Object.keys(this.compose.services);
  }

  /** The service's environment as its container would see it, on this machine's network. */
  environment(name: string, replica = 1): Record<string, string> {
    const svc = this.compose.services[name];
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(svc.environment ?? {})) env[k] = rewriteValue(k, v ?? '', this.serviceNames);
    // Files the compose `configs` mount: written here, and paths pointing at their targets follow.
    for (const c of svc.configs ?? []) {
      const def = this.compose.configs?.[c.source];
      const file = path.join(this.workDir, 'configs', name, path.basename(c.target));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (def?.content !== undefined) fs.writeFileSync(file, def.content);
      else if (def?.file) fs.copyFileSync(path.resolve(ROOT, def.file), file);
      for (const [k, v] of Object.entries(env)) if (v === c.target) env[k] = file;
    }
    Object.assign(env, this.listenerEnv(name, replica, env));
    return env;
  }

  /** Where each image listens: the container's ports moved to this machine's free ones. */
  private listenerEnv(name: string, replica: number, env: Record<string, string>): Record<string, string> {
    const image = this.compose.services[name].image ?? '';
    const out: Record<string, string> = {};
    if (env.HOST === '0.0.0.0') out.HOST = '127.0.0.1';
    if (env.BIND_ON_IP === '0.0.0.0') out.BIND_ON_IP = '127.0.0.1';
    if (image.startsWith('temporalio/server')) {
      Object.assign(out, {
        FRONTEND_GRPC_PORT: '24233', FRONTEND_HTTP_PORT: '24243', INTERNAL_FRONTEND_GRPC_PORT: '24236', INTERNAL_FRONTEND_HTTP_PORT: '24246',
        HISTORY_GRPC_PORT: '24234', MATCHING_GRPC_PORT: '24235', WORKER_GRPC_PORT: '24239',
        FRONTEND_MEMBERSHIP_PORT: '24933', HISTORY_MEMBERSHIP_PORT: '24934', MATCHING_MEMBERSHIP_PORT: '24935',
        INTERNAL_FRONTEND_MEMBERSHIP_PORT: '24936', WORKER_MEMBERSHIP_PORT: '24939',
      });
    }
    if (image.startsWith('axllent/mailpit')) {
      out.MP_SMTP_BIND_ADDR = `127.0.0.1:${localPort('mailpit', 1025)}`;
      out.MP_UI_BIND_ADDR = `127.0.0.1:${localPort('mailpit', 8025)}`;
      out.MP_DATABASE = path.join(this.workDir, 'mailpit.db');
    }
    if (name === 'api' && env.PORT) out.PORT = String(localPort('api', Number(env.PORT)));
    if (env.DATA_DIR) out.DATA_DIR = path.join(this.workDir, 'data', `${name}-${replica}`);
    // Replicas of one service each need their own listeners (containers would each have their own address).
    if (env.WORKER_HTTP_PORT) out.WORKER_HTTP_PORT = String(localPort('worker', Number(env.WORKER_HTTP_PORT)) + replica - 1);
    return out;
  }

  private pathEnv(): Record<string, string> {
    return { PATH: `${this.binDir}:${path.dirname(this.bins.NODE24_BIN)}:${process.env.PATH}` };
  }

  /** The command line the container runs: entrypoint + command, or the image's own default. */
  argv(name: string): string[] {
    const svc = this.compose.services[name];
    // Compose escapes `$` as `$$` in the JSON it prints and unescapes it when it creates the container.
    const unescape = (a: string) => a.replace(/\$\$/g, '$');
    const entry = (svc.entrypoint ?? []).map(unescape);
    const cmd = (svc.command ?? []).map(unescape);
    const image = svc.image ?? '';
    if (entry.length) return [...entry, ...cmd];
    if (image.startsWith('temporalio/server')) return ['temporal-server', 'start'];
    if (image.startsWith('axllent/mailpit')) return ['mailpit', ...cmd];
    if (image.startsWith('redis')) return [...cmd, '--bind', '127.0.0.1', '--port', String(localPort('redis', 6379))];
    return cmd;
  }

  /** Services the machine already runs (MariaDB, PostgreSQL): what their images do on a first start, done here. */
  async initialiseExternal(name: string): Promise<boolean> {
    const svc = this.compose.services[name];
    const image = svc.image ?? '';
    const env = svc.environment ?? {};
    if (image.startsWith('mariadb') || image.startsWith('mysql')) {
      const db = env.MARIADB_DATABASE ?? 'reviewgrid';
      const user = env.MARIADB_USER ?? 'reviewgrid';
      const conn = await mysql.createConnection('mysql://root@127.0.0.1:3306');
      try {
        await conn.query(`DROP DATABASE IF EXISTS \`${db}\``);
        await conn.query(`CREATE DATABASE \`${db}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
        for (const host of ['localhost', '127.0.0.1', '%']) {
          await conn.query(`CREATE USER IF NOT EXISTS ?@? IDENTIFIED BY ?`, [user, host, env.MARIADB_PASSWORD ?? '']);
          await conn.query(`ALTER USER ?@? IDENTIFIED BY ?`, [user, host, env.MARIADB_PASSWORD ?? '']);
          await conn.query(`GRANT ALL PRIVILEGES ON \`${db}\`.* TO ?@?`, [user, host]);
        }
      } finally {
        await conn.end();
      }
      this.say(`${name}: database ${db} and user ${user} created on the machine's MariaDB (127.0.0.1:3306)`);
      return true;
    }
    if (image.startsWith('postgres')) {
      const user = env.POSTGRES_USER ?? 'postgres';
      const psql = (sql: string) => run('psql', ['-h', '127.0.0.1', '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-qAtc', sql]);
      await psql(`DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${user}') THEN CREATE ROLE "${user}" LOGIN CREATEDB; END IF; END$$`);
      await psql(`ALTER ROLE "${user}" PASSWORD '${(env.POSTGRES_PASSWORD ?? '').replace(/'/g, "''")}'`);
      // A fresh installation: the databases Temporal's schema job will create.
      for (const db of this.temporalDatabases()) await psql(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`);
      this.say(`${name}: role ${user} ready on the machine's PostgreSQL (127.0.0.1:5432)`);
      return true;
    }
    return false;
  }

  temporalDatabases(): string[] {
    const names = new Set<string>();
    for (const svc of Object.values(this.compose.services)) {
      if (svc.environment?.DBNAME) names.add(svc.environment.DBNAME);
      if (svc.environment?.VISIBILITY_DBNAME) names.add(svc.environment.VISIBILITY_DBNAME);
    }
    return [...names];
  }

  /** Images that are a view only, or not part of the default profile. */
  skipped(name: string): string | null {
    const svc = this.compose.services[name];
    if (svc.profiles?.length) return `profile ${svc.profiles.join(',')}`;
    if ((svc.image ?? '').startsWith('temporalio/ui')) return 'the Temporal UI is a view of the server; not built here';
    return null;
  }

  start(name: string, replica = 1): Running {
    const list = this.running.get(name) ?? [];
    const env = { ...process.env, ...this.environment(name, replica), ...this.pathEnv() };
    const entry: Running = list[replica - 1] ?? { name, replica, child: null, exits: [], stoppedByUs: false, restarts: 0, log: path.join(this.workDir, 'logs', `${name}-${replica}.log`), env: {} };
    entry.env = this.environment(name, replica);
    entry.stoppedByUs = false;
    const out = fs.openSync(entry.log, 'a');
    const [cmd, ...args] = this.argv(name);
    if (env.DATA_DIR) fs.mkdirSync(env.DATA_DIR, { recursive: true });
    const child = spawn(cmd, args, { cwd: this.appDir, env, stdio: ['ignore', out, out], detached: true });
    fs.closeSync(out);
    entry.child = child;
    child.on('exit', (code, signal) => {
      entry.exits.push(code ?? (signal ? 128 : 1));
      this.healthy.delete(`${name}-${replica}`);
      if (entry.stoppedByUs) return;
      // Docker's restart policies: long-running services come back; one-shots retry a failure a few times.
      const policy = this.compose.services[name].restart ?? 'no';
      const onFailure = /^on-failure(?::(\d+))?$/.exec(policy);
      const again = policy === 'always' || policy === 'unless-stopped' || (onFailure && code !== 0 && entry.restarts < Number(onFailure[1] ?? Infinity));
      if (again) {
        entry.restarts += 1;
        this.say(`${name}-${replica}: exited (${code ?? signal}); restart policy "${policy}" starts it again`);
        setTimeout(() => {
          if (!entry.stoppedByUs) this.start(name, replica);
        }, 1_000);
      }
    });
    list[replica - 1] = entry;
    this.running.set(name, list);
    return entry;
  }

  /** The compose healthcheck, run as a local command against this replica's listeners; TCP for images without one here. */
  async isHealthy(name: string, replica = 1): Promise<boolean> {
    const svc = this.compose.services[name];
    const image = svc.image ?? '';
    const entry = this.running.get(name)?.[replica - 1];
    if (image.startsWith('mariadb')) {
      const env = svc.environment ?? {};
      const conn = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: env.MARIADB_USER ?? 'root', password: env.MARIADB_PASSWORD ?? '' }).catch(() => null);
      await conn?.end();
      return conn !== null;
    }
    if (image.startsWith('postgres')) return run('pg_isready', ['-h', '127.0.0.1', '-U', svc.environment?.POSTGRES_USER ?? 'postgres']).then(() => true, () => false);
    if (image.startsWith('redis')) return tcpOpen(localPort('redis', 6379));
    if (image.startsWith('temporalio/server')) return tcpOpen(localPort('temporal', 7233));
    const test = svc.healthcheck?.test;
    if (!test || test[0] === 'NONE') return entry?.child?.exitCode === null;
    const argv = test[0] === 'CMD-SHELL' ? ['sh', '-c', test[1]] : test.slice(1);
    // Ports inside the test are the container's: point them at this replica's.
    const fix = (a: string) =>
      a
        .replace(/127\.0\.0\.1:(\d+)|localhost:(\d+)/g, (m, p1, p2) => {
          const port = Number(p1 ?? p2);
          if (name === 'worker' && entry?.env.WORKER_HTTP_PORT) return `127.0.0.1:${entry.env.WORKER_HTTP_PORT}`;
          return LOCAL_PORTS[`${name}:${port}`] ? `127.0.0.1:${LOCAL_PORTS[`${name}:${port}`]}` : m;
        })
        .replace(/^\/mailpit$/, 'mailpit');
    const env = { ...process.env, ...(entry?.env ?? this.environment(name, replica)), ...this.pathEnv() };
    return new Promise((resolve) => {
      const [cmd, ...args] = argv.map(fix);
      execFile(cmd, args, { env, timeout: 10_000 }, (err) => resolve(!err));
    });
  }

  async waitHealthy(name: string, replica = 1, timeoutMs = 180_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (await this.isHealthy(name, replica)) {
        this.healthy.add(`${name}-${replica}`);
        return;
      }
      if (Date.now() > deadline) throw new Error(`${name}-${replica} did not become healthy in ${timeoutMs / 1000} s\n${this.tail(name, replica)}`);
      await sleep(1_000);
    }
  }

  async waitCompleted(name: string, timeoutMs = 300_000): Promise<void> {
    const entry = this.running.get(name)?.[0];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (entry?.exits.includes(0) && entry.child?.exitCode === 0) return;
      const policy = this.compose.services[name].restart ?? 'no';
      const limit = Number(/^on-failure:(\d+)$/.exec(policy)?.[1] ?? 0);
      if (entry && entry.child?.exitCode !== null && entry.child?.exitCode !== 0 && entry.restarts >= limit) {
        throw new Error(`${name} failed (exit ${entry.child?.exitCode})\n${this.tail(name, 1)}`);
      }
      if (Date.now() > deadline) throw new Error(`${name} did not complete in ${timeoutMs / 1000} s\n${this.tail(name, 1)}`);
      await sleep(250);
    }
  }

  tail(name: string, replica: number, lines = 40): string {
    const file = path.join(this.workDir, 'logs', `${name}-${replica}.log`);
    if (!fs.existsSync(file)) return '(no output)';
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  }

  /** Brings every service up in dependency order, each waiting for its `depends_on` conditions, like `compose up`. */
  async up(): Promise<void> {
    // A port already taken would make a service "healthy" on someone else's process (a run killed before cleanup).
    const taken: number[] = [];
    for (const port of [...Object.values(LOCAL_PORTS).filter((p) => p > 20_000), 24234, 24235, 24239, 24933]) if (await tcpOpen(port)) taken.push(port);
    if (taken.length) throw new Error(`ports ${taken.join(', ')} are in use: stop what holds them (a topology run killed before its cleanup?)`);
    // Whatever way this process ends, no service outlives it (they run in process groups of their own).
    process.once('exit', () => {
      for (const e of [...this.running.values()].flat()) if (e.child?.pid && e.child.exitCode === null) try { process.kill(-e.child.pid, 'SIGKILL'); } catch { /* gone */ }
    });
    const started = new Map<string, Promise<void>>();
    const bring = (name: string): Promise<void> => {
      if (!started.has(name)) started.set(name, this.bringUp(name, bring));
      return started.get(name)!;
    };
    await Promise.all(this.serviceNames.filter((n) => !this.skipped(n)).map(bring));
  }

  private async bringUp(name: string, bring: (n: string) => Promise<void>): Promise<void> {
    const svc = this.compose.services[name];
    for (const [dep, { condition }] of Object.entries(svc.depends_on ?? {})) {
      if (this.skipped(dep)) continue;
      await bring(dep);
      if (condition === 'service_healthy') await this.waitHealthy(dep);
      if (condition === 'service_completed_successfully') await this.waitCompleted(dep);
    }
    if (await this.initialiseExternal(name)) return;
    const n = this.replicas[name] ?? 1;
    for (let r = 1; r <= n; r += 1) this.start(name, r);
    this.say(`${name}: started ${n > 1 ? `${n} replicas` : ''}(${this.argv(name).join(' ').slice(0, 90)})`);
  }

  /** The equivalent of `docker compose run --rm <service> <argv>`: the service's environment, another command. */
  async runIn(name: string, argv: string[], override: Record<string, string> = {}): Promise<string> {
    const env = { ...process.env, ...this.environment(name), ...override, ...this.pathEnv() };
    const { stdout } = await run(argv[0], argv.slice(1), { env, cwd: this.appDir, maxBuffer: 16 * 1024 * 1024 }).catch((e: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`${argv.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    });
    return stdout;
  }

  /** SIGKILL (a crash) or SIGTERM (a stop) of one replica's process group; the restart policy may bring it back. */
  signal(name: string, replica: number, signal: NodeJS.Signals): void {
    const child = this.running.get(name)?.[replica - 1]?.child;
    if (child?.pid && child.exitCode === null) process.kill(-child.pid, signal);
  }

  async down(): Promise<void> {
    const all = [...this.running.values()].flat();
    for (const e of all) {
      e.stoppedByUs = true;
      if (e.child?.pid && e.child.exitCode === null) process.kill(-e.child.pid, 'SIGTERM');
    }
    const deadline = Date.now() + 50_000;
    while (all.some((e) => e.child && e.child.exitCode === null && e.child.signalCode === null) && Date.now() < deadline) await sleep(200);
    for (const e of all) if (e.child?.pid && e.child.exitCode === null && e.child.signalCode === null) process.kill(-e.child.pid, 'SIGKILL');
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function tcpOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

/** `scripts/ensure-topology.sh --print-env`: the cached binaries (built once from Go modules / fetched from npm). */
export function ensureBinaries(): Binaries {
  const out = execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-topology.sh'), '--print-env'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const vars = Object.fromEntries(out.trim().split('\n').map((l) => l.split(/=(.*)/s).slice(0, 2)));
  return vars as unknown as Binaries;
}

/** The compose file as compose resolves it, with the given env file. */
export function composeConfig(envFile: string): ComposeFile {
  const out = execFileSync('docker', ['compose', '--env-file', envFile, 'config', '--format', 'json'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(out) as ComposeFile;
}
