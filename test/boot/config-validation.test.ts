import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { bodyLimitBytes, loadConfig } from '../../src/config';
import { freePort } from '../../src/net/free-port';
import { ROOT } from '../support/spawn';

/**
 * Settings whose typo used to start a server anyway: NODE_ENV=Production ran in demo mode (demo tenant seeded with its
 * published password, bearer tokens printed, an app key generated), BODY_LIMIT=huge migrated the database and started
 * Temporal before body-parser refused it, REDIS_URL=notaurl started and then crashed. Each is refused by the schema:
 * one configuration line, exit 1, before anything touches the database (npm run build first, as `npm test` does).
 */
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const WORKER = path.join(ROOT, 'dist', 'src', 'worker-main.js');

function run(entry: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [entry], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('configuration values refused at boot', () => {
  const env = (vars: Record<string, string>) => ({ DATABASE_URL: 'mysql://root@127.0.0.1:3306/x', ...vars });
  const problem = (vars: Record<string, string>) => {
    try {
      loadConfig(env(vars));
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  };

  it('NODE_ENV: development, production or test (what the code, scripts, image, compose file and Jest use)', () => {
    expect(loadConfig(env({})).NODE_ENV).toBe('development');
    for (const value of ['development', 'production', 'test']) expect(loadConfig(env({ NODE_ENV: value, APP_KEY: 'x' })).NODE_ENV).toBe(value);
    for (const value of ['Production', 'prod', 'staging', '']) expect(problem({ NODE_ENV: value })).toMatch(/^Invalid configuration:\n {2}NODE_ENV: /);
  });

  it('BODY_LIMIT: a size body-parser reads (its `bytes`), above zero', () => {
    expect(loadConfig(env({})).BODY_LIMIT).toBe('1mb');
    for (const value of ['1mb', '512kb', '100KB', '1.5mb', '1048576', '2gb']) expect(problem({ BODY_LIMIT: value })).toBeNull();
    expect(bodyLimitBytes('1mb')).toBe(1_048_576);
    for (const value of ['huge', '', 'mb', '0', '-1mb']) expect(problem({ BODY_LIMIT: value })).toMatch(/^Invalid configuration:\n {2}BODY_LIMIT: /);
  });

  it('REDIS_URL: a redis:// or rediss:// URL; unset or empty keeps the limits in memory', () => {
    expect(loadConfig(env({})).REDIS_URL).toBeUndefined();
    for (const value of ['', 'redis://127.0.0.1:6379', 'rediss://user:pw@redis.example.com:6380/2', 'redis://redis:6379']) expect(problem({ REDIS_URL: value })).toBeNull();
    for (const value of ['notaurl', 'http://127.0.0.1:6379', '127.0.0.1:6379', 'redis//x']) expect(problem({ REDIS_URL: value })).toMatch(/^Invalid configuration:\n {2}REDIS_URL: /);
  });

  describe('the built entry points', () => {
    // A database nobody listens on: a check made after any database work would read "Cannot reach the database".
    let base: Record<string, string>;
    beforeAll(async () => {
      if (!fs.existsSync(MAIN)) throw new Error('dist/ is missing: run `npm run build` first');
      base = { DATABASE_URL: `mysql://root@127.0.0.1:${await freePort()}/x`, APP_KEY: randomBytes(32).toString('base64'), SEED_DEMO: 'false', WORKER_HTTP_PORT: '0' };
    });

    it.each([
      ['API', 'NODE_ENV', 'Production', MAIN, 'Failed to start'],
      ['API', 'BODY_LIMIT', 'huge', MAIN, 'Failed to start'],
      ['API', 'REDIS_URL', 'notaurl', MAIN, 'Failed to start'],
      ['worker', 'NODE_ENV', 'Production', WORKER, 'Worker failed to start'],
    ])('%s: %s=%s is one configuration line, exit 1, before the database', async (_kind, name, value, entry, prefix) => {
      const r = await run(entry, { ...base, [name]: value });
      expect(r.code).toBe(1);
      expect(r.stderr.endsWith('\n')).toBe(true);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^${prefix}: Invalid configuration: ${name}: `))]);
      expect(r.stderr).not.toContain('Cannot reach the database');
      // Nothing else was started or printed: no banner, no demo tokens, no log line.
      expect(r.stdout).toBe('');
    });
  });
});
