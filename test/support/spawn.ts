import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

/** Runs a TypeScript entry point of the project from source, as a separate process. */
export function runTs(
  entry: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', path.join(ROOT, entry), ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function startTs(entry: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['-r', '@swc-node/register', path.join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
}
