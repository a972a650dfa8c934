import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cleanEnv, extractWalkthroughs, runSession, sessionScript, startEnvironment, substitute } from './walkthroughs';

/** The runner of the README walkthroughs (test/readme/walkthroughs.test.ts) on small documents of its own. */
describe('README walkthrough runner', () => {
  const doc = [
    'Intro.',
    '<!-- walkthrough-start -->',
    '```sh',
    'WEBHOOK_ALLOW_PRIVATE_URLS=true RATE_LIMIT_PER_MINUTE=600 npm start',
    '```',
    '<!-- walkthrough: first -->',
    '```sh',
    'GREETING=hello; echo "$GREETING http://127.0.0.1:3000"',
    '```',
    '```sh',
    'echo not a walkthrough',
    '```',
    '1. A step:',
    '   <!-- walkthrough: second -->',
    '   ```sh',
    '   echo "$GREETING again"',
    '   false',
    '   echo never',
    '   ```',
    '<!-- walkthrough: third -->',
    '```sh',
    'echo never either',
    '```',
  ].join('\n');

  it('extracts the marked sh blocks in order, dedented, with their lines', () => {
    expect(extractWalkthroughs(doc)).toEqual([
      { name: 'first', line: 6, code: 'GREETING=hello; echo "$GREETING http://127.0.0.1:3000"' },
      { name: 'second', line: 14, code: 'echo "$GREETING again"\nfalse\necho never' },
      { name: 'third', line: 20, code: 'echo never either' },
    ]);
  });

  it('reads the environment of the walkthrough start line', () => {
    expect(startEnvironment(doc)).toEqual({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true', RATE_LIMIT_PER_MINUTE: '600' });
    expect(() => startEnvironment('<!-- walkthrough-start -->\n```sh\nnpm run start && rm -rf /\n```')).toThrow(/one `VAR=value/);
  });

  it('refuses a marker without an sh block after it, and a name used twice', () => {
    expect(() => extractWalkthroughs('<!-- walkthrough: x -->\n```\necho\n```')).toThrow(/line 1: walkthrough "x" must be followed by a ```sh block/);
    expect(() => extractWalkthroughs('<!-- walkthrough: x -->\n```sh\na\n```\n<!-- walkthrough: x -->\n```sh\nb\n```')).toThrow(/used twice/);
  });

  it('moves the documented addresses to the given ones and nothing else', () => {
    expect(substitute('curl http://127.0.0.1:3000/x; echo 3000', [['127.0.0.1:3000', '127.0.0.1:41234']])).toBe('curl http://127.0.0.1:41234/x; echo 3000');
  });

  it('runs the blocks in one session, keeps variables, and stops at the first failing command, naming its block', async () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewgrid-runner-'));
    try {
      const script = sessionScript(extractWalkthroughs(doc), [['127.0.0.1:3000', '127.0.0.1:41234']]);
      const result = await runSession(script, { cwd, env: cleanEnv({}), timeoutMs: 30_000 });
      expect(result.code).toBe(1);
      expect(result.blocks).toEqual([
        { name: 'first', output: 'hello http://127.0.0.1:41234', finished: true },
        { name: 'second', output: 'hello again', finished: false },
      ]);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('fails a curl on an HTTP error status and on a GraphQL or JSON-RPC error answer, printing the body', async () => {
    const http = await import('node:http');
    const server = http.createServer((req, res) => {
      const answers: Record<string, [number, string]> = {
        '/ok': [200, '{"data":{"x":1}}'],
        '/missing': [404, '{"message":"Not found."}'],
        '/graphql': [200, '{"errors":[{"message":"Unauthenticated."}],"data":null}'],
        '/mcp': [200, '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params"}}'],
      };
      const [status, body] = answers[req.url ?? ''] ?? [500, ''];
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewgrid-runner-'));
    try {
      for (const [route, ok] of [['/ok', true], ['/missing', false], ['/graphql', false], ['/mcp', false]] as const) {
        const script = sessionScript([{ name: 'call', line: 1, code: `curl -s ${base}${route}` }], []);
        const result = await runSession(script, { cwd, env: cleanEnv({}), timeoutMs: 30_000 });
        expect({ route, finished: result.blocks[0].finished }).toEqual({ route, finished: ok });
        if (!ok) expect(result.blocks[0].output).toMatch(/^\{.*\}\nwalkthrough: /);
      }
    } finally {
      server.close();
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});
