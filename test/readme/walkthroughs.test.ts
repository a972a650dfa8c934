import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dropDatabase } from '../../src/db/connection';
import { freePort } from '../../src/net/free-port';
import { runId, TEST_SERVER_URL } from '../support/env';
import { ROOT } from '../support/spawn';
import {
  cleanEnv,
  extractWalkthroughs,
  makeWorkspace,
  runSession,
  sessionScript,
  startEnvironment,
  type Substitutions,
  type Walkthrough,
} from './walkthroughs';

/**
 * The README's walkthroughs run as written (README "Walkthroughs"): a fresh `npm start` of the built product
 * (`npm test` builds it in pretest; alone: `npm run build` first) on ports and a database of its own, with the
 * environment of the README's walkthrough start line, and the marked blocks in order in one bash session next to it.
 * The one step a block cannot do, the browser part of the connect walkthrough, is done as written in headless Chromium.
 * `WALKTHROUGH_OUTPUT=<file>` keeps what the session printed.
 */
const README = path.join(ROOT, 'README.md');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');

describe('README walkthroughs', () => {
  jest.setTimeout(15 * 60_000);
  const databaseUrl = `${TEST_SERVER_URL}/reviewgrid_test_${runId()}_readme`;
  let workspace = '';
  let server: ChildProcess | null = null;
  let serverLog = '';

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 60_000)))]);
      clearTimeout(timer);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    await dropDatabase(databaseUrl);
    if (workspace) fs.rmSync(workspace, { recursive: true, force: true });
  });

  it('every marked block runs in order against a fresh start, and none fails', async () => {
    const markdown = fs.readFileSync(README, 'utf8');
    const blocks = extractWalkthroughs(markdown);
    expect(blocks.length).toBeGreaterThan(10);
    if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run \`npm run build\` first`);

    const [port, temporalPort, uiPort, hooksPort] = await distinctFreePorts(4);
    await dropDatabase(databaseUrl);
    workspace = makeWorkspace(ROOT);

    // The fresh start: `npm start` is `npm run build && node dist/src/main.js`; the build is pretest's.
    server = spawn(process.execPath, [MAIN], {
      cwd: workspace,
      env: cleanEnv({
        ...startEnvironment(markdown),
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        TEMPORAL_DEV_PORT: String(temporalPort),
        TEMPORAL_UI_PORT: String(uiPort),
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d) => (serverLog += d));
    server.stderr!.on('data', (d) => (serverLog += d));
    const deadline = Date.now() + 180_000;
    while (!serverLog.includes('Try: curl') && server.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    if (!serverLog.includes('Try: curl')) throw new Error(`npm start did not come up:\n${serverLog.slice(-5000)}`);

    const subs: Substitutions = [
      ['127.0.0.1:3000', `127.0.0.1:${port}`],
      ['127.0.0.1:7233', `127.0.0.1:${temporalPort}`],
      ['127.0.0.1:8233', `127.0.0.1:${uiPort}`],
      ['127.0.0.1:3499', `127.0.0.1:${hooksPort}`],
    ];
    const session = withBrowserStep(blocks);
    const result = await runSession(sessionScript(session, subs), {
      cwd: workspace,
      // A second terminal: the machine's PATH and HOME; DATABASE_URL because this start's database is not the default.
      env: cleanEnv({ DATABASE_URL: databaseUrl }),
      timeoutMs: 10 * 60_000,
      // WALKTHROUGH_OUTPUT=<file> keeps the whole session's output, to read what each block printed.
      onOutput: process.env.WALKTHROUGH_OUTPUT ? (chunk) => fs.appendFileSync(process.env.WALKTHROUGH_OUTPUT!, chunk) : undefined,
    });

    const failed = result.blocks.find((b) => !b.finished);
    const missing = session.filter((b) => !result.blocks.some((r) => r.name === b.name)).map((b) => b.name);
    if (failed || result.code !== 0 || missing.length > 0) {
      const where = failed ? session.find((b) => b.name === failed.name) : undefined;
      throw new Error(
        [
          failed
            ? `walkthrough "${failed.name}" (README line ${where?.line ?? '?'}) ${result.timedOut ? 'timed out' : `failed (exit ${result.code})`}; its output:`
            : `the session ended with exit ${result.code}${result.timedOut ? ' (timed out)' : ''}; blocks not run: ${missing.join(', ') || 'none'}`,
          failed?.output ?? result.preamble,
          '--- npm start, last lines:',
          serverLog.slice(-3000),
        ].join('\n'),
      );
    }
    expect(result.blocks.map((b) => b.name)).toEqual(session.map((b) => b.name));
  });
});

/** After the connect walkthrough's first block, its step 2 in Chromium, as the README describes it. */
function withBrowserStep(blocks: Walkthrough[]): Walkthrough[] {
  const at = blocks.findIndex((b) => b.name === 'connect-1-link');
  if (at < 0) return blocks;
  const step: Walkthrough = {
    name: 'connect-2-browser (Chromium)',
    line: blocks[at].line,
    code: `node -r @swc-node/register ${JSON.stringify(path.join(__dirname, 'connect-in-browser.ts'))} "$CONNECT_URL"`,
  };
  return [...blocks.slice(0, at + 1), step, ...blocks.slice(at + 1)];
}

async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}
