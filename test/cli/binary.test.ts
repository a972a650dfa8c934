import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropDatabase } from '../../src/db/connection';
import { migrations } from '../../src/db/migrations';
import { databaseUrlFor, runId, TEST_SERVER_URL } from '../support/env';
import { ROOT } from '../support/spawn';
import { cli, CLI_BIN, spawnCli } from './binary';

/**
 * The CLI as an installed binary: the built file is executable with a shebang (package.json `bin`), `npm run cli`
 * runs it without building, and the migration commands work against a database of their own.
 */
jest.setTimeout(120_000);

describe('the reviewgrid binary', () => {
  it('is executable on its own (shebang, exec bit) and lists every operator command', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.bin).toEqual({ reviewgrid: 'dist/src/cli/index.js' });
    expect(fs.readFileSync(CLI_BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const res = await spawnCli(CLI_BIN, ['--help']);
    expect(res.code).toBe(0);
    for (const command of [
      'db:migrate', 'db:status', 'tenant:create', 'tenant:list', 'org:create', 'org:list', 'user:create', 'user:list',
      'token:create', 'token:list', 'token:revoke', 'plan:list', 'plan:features', 'credits:show', 'credits:grant',
      'demo:seed', 'doctor', 'temporal:setup',
    ]) {
      expect(res.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    }
  });

  it('answers an unknown command or option with exit 2', async () => {
    expect((await cli(['tenant:delete'])).code).toBe(2);
    const res = await cli(['tenant:list', '--colour']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/unknown option '--colour'/);
  });

  it('npm run cli runs the built file without building: one JSON line on stdout', async () => {
    const res = await spawnCli('npm', ['run', '-s', 'cli', '--', '--json', 'tenant:list', '--limit', '1'], { DATABASE_URL: databaseUrlFor(process.env.JEST_WORKER_ID ?? '1') });
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(res.stdout)).toMatchObject({ total: expect.any(Number), tenants: expect.any(Array) });
  });

  it('prints a validation error as one line on stderr (without --json), exit 2', async () => {
    const res = await cli(['tenant:list', '--limit', '5000'], { DATABASE_URL: databaseUrlFor(process.env.JEST_WORKER_ID ?? '1') });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('Error: The limit must be between 1 and 1000.\n');
  });

  it('npm run cli without dist says to build first and exits 1', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewgrid-nodist-'));
    try {
      fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
      const res = await spawnCli('npm', ['run', '-s', 'cli', '--', 'tenant:list'], {}, dir);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/run `npm run build` first/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('reviewgrid db:status and db:migrate', () => {
  const url = `${TEST_SERVER_URL}/reviewgrid_test_${runId()}_cli_${randomUUID().slice(0, 8).replace(/-/g, '')}`;
  const all = migrations.map((m) => m.name);
  afterAll(() => dropDatabase(url));

  it('lists every migration as pending on a fresh empty database, changing nothing; db:migrate applies them', async () => {
    const before = await cli(['--json', 'db:status'], { DATABASE_URL: url });
    expect(before.code).toBe(0);
    expect(before.json).toEqual({ database: expect.stringMatching(/_cli_/), exists: false, applied: [], pending: all, unknown: [] });
    // Read-only: still no database afterwards.
    expect((await cli(['--json', 'db:status'], { DATABASE_URL: url })).json.exists).toBe(false);
    const text = await cli(['db:status'], { DATABASE_URL: url });
    expect(text.stdout).toMatch(new RegExp(`0 applied, ${all.length} pending`));
    expect(text.stdout).toContain(`  pending  ${all[0]}`);
    expect(text.stdout).toMatch(/Run `reviewgrid db:migrate`/);

    const migrated = await cli(['--json', 'db:migrate'], { DATABASE_URL: url });
    expect(migrated.code).toBe(0);
    expect(migrated.json).toEqual({ applied: all, migrations: all });
    const after = await cli(['--json', 'db:status'], { DATABASE_URL: url });
    expect(after.json).toMatchObject({ exists: true, pending: [], unknown: [] });
    expect(after.json.applied.map((m: { name: string }) => m.name)).toEqual(all);
    expect(after.json.applied.every((m: { run_at: string }) => !Number.isNaN(Date.parse(m.run_at)))).toBe(true);

    // Again: nothing left to apply.
    const again = await cli(['--json', 'db:migrate'], { DATABASE_URL: url });
    expect(again.json).toEqual({ applied: [], migrations: all });
  });

  it('reports an unreachable database server in one line with exit 1', async () => {
    const res = await cli(['db:status'], { DATABASE_URL: 'mysql://root@127.0.0.1:1/reviewgrid' });
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toMatch(/^Error: Cannot reach the database at mysql:\/\/root@127\.0\.0\.1:1\/reviewgrid: ECONNREFUSED$/);
  });
});
