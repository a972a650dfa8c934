import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { databaseUrlFor } from '../support/env';
import { ROOT } from '../support/spawn';

/** The built operator CLI: what `reviewgrid` and `npm run cli` run (`npm test` builds dist in pretest). */
export const CLI_BIN = path.join(ROOT, 'dist', 'src', 'cli', 'index.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The last stdout line parsed, for `--json` runs (null when it is not JSON). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test assertions read arbitrary output shapes
}

/** `input`: written to the command's stdin, which is then closed (else stdin stays open and unread). */
export function spawnCli(command: string, args: string[], env: Record<string, string | undefined> = {}, cwd = ROOT, input?: string): Promise<CliRun> {
  if (!fs.existsSync(CLI_BIN)) throw new Error(`${CLI_BIN} is missing: run \`npm run build\` first`);
  return new Promise((resolve, reject) => {
    const childEnv: Record<string, string | undefined> = { ...process.env, LOG_LEVEL: 'warn', ...env };
    // Readiness and Temporal settings of the test process must not leak into a command that did not ask for them.
    for (const key of ['TEMPORAL_ADDRESS', 'REDIS_URL'] as const) if (!(key in env)) delete childEnv[key];
    const child = spawn(command, args, { cwd, env: childEnv as NodeJS.ProcessEnv });
    if (input !== undefined) {
      // A command that exits without reading it (a refused option) closes the pipe: EPIPE is no test failure.
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    }
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').pop() ?? '';
      let json = null;
      try {
        json = last.startsWith('{') ? JSON.parse(last) : null;
      } catch {
        json = null;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}

/** `node dist/src/cli/index.js --json ...args` against this Jest worker's database (or `env.DATABASE_URL`). */
export function cli(args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<CliRun> {
  return spawnCli(process.execPath, [CLI_BIN, ...args], { DATABASE_URL: databaseUrlFor(process.env.JEST_WORKER_ID ?? '1'), ...env }, ROOT, input);
}

export const cliJson = (...args: string[]): Promise<CliRun> => cli(['--json', ...args]);
