import 'reflect-metadata';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { TOOLS } from '../facades/mcp/tools';
import { openDatabase } from '../src/bootstrap';
import { loadConfig } from '../src/config';
import { Tenant, User } from '../src/models';
import { issueToken } from '../src/services/auth.service';
import { seedDemo } from '../src/services/demo.service';
import { startBenchApi } from './bench-support';

/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) and MCP Inspector's CLI against the real
 * app, run by `scripts/mcp-conformance.sh` (which provides Node >= 22 and the two packages, cached under
 * ~/.cache/reviewgrid) from `.ci/run`. The app runs on a database of its own with the demo tenant; the suite has no
 * bearer-token option, so a loopback proxy in front adds `Authorization: Bearer <AI token with mcp:access and
 * mcp:writes>` and forwards everything else unchanged (Host and Origin included: the dns-rebinding scenario sends its
 * own). Exit 1 when an applicable scenario or the Inspector check fails.
 *
 * Environment: MCP_TOOLS_NODE_BIN (the bin directory of Node >= 22), MCP_TOOLS_DIR (where the packages are installed),
 * MCP_CONFORMANCE_DATABASE_URL (default mysql://root@127.0.0.1:3306/reviewgrid_mcp_conformance).
 */

/** The server scenarios of conformance 0.1.16 that apply to this server, each run on its own. */
export const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'] as const;

/**
 * The other server scenarios of 0.1.16 and why they do not apply. Most want test-only primitives under fixed names
 * (`test_simple_text`, `test_prompt_with_image`, ...) that a production server must not publish; the rest need
 * capabilities this server does not declare. Kept in step with `conformance list` (the script fails on a scenario that
 * is in neither list, so a new one gets a decision).
 */
export const SKIPPED: Record<string, string> = {
  'logging-set-level': 'no logging capability: the server sends no log messages to clients',
  'completion-complete': 'no completions capability: no prompts or resource templates to complete',
  'tools-call-simple-text': 'needs the test-only tool test_simple_text',
  'tools-call-image': 'needs the test-only tool test_image_content (our tools return JSON text and structuredContent)',
  'tools-call-audio': 'needs the test-only tool test_audio_content',
  'tools-call-embedded-resource': 'needs the test-only tool test_embedded_resource',
  'tools-call-mixed-content': 'needs the test-only tool test_multiple_content_types',
  'tools-call-with-logging': 'needs the test-only tool test_tool_with_logging and the logging capability',
  'tools-call-error': 'needs the test-only tool test_error_handling (our tool errors are covered by test/mcp)',
  'tools-call-with-progress': 'needs the test-only tool test_tool_with_progress; our tools send no progress',
  'tools-call-sampling': 'needs the test-only tool test_sampling; the server never asks the client to sample',
  'tools-call-elicitation': 'needs the test-only tool test_elicitation; the server never elicits input',
  'json-schema-2020-12': 'needs the test-only tool json_schema_2020_12_tool',
  'elicitation-sep1034-defaults': 'needs the test-only tool test_elicitation_sep1034_defaults; no elicitation',
  'elicitation-sep1330-enums': 'needs the test-only tool test_elicitation_sep1330_enums; no elicitation',
  'server-sse-polling': 'needs the test-only tool test_reconnection and SSE answers; the endpoint answers JSON, stateless',
  'server-sse-multiple-streams': 'needs a GET SSE stream per session; the stateless endpoint answers GET with 405',
  'resources-read-text': 'needs the test-only resource test://static-text (our one resource, the scan-grid View, is read in test/mcp)',
  'resources-read-binary': 'needs the test-only resource test://static-binary',
  'resources-templates-read': 'no resource templates (needs test://template/{id}/data)',
  'resources-subscribe': 'no resource subscriptions: the one resource (the MCP Apps scan-grid View) changes only with a release',
  'resources-unsubscribe': 'no resource subscriptions (see resources-subscribe)',
  'prompts-list': 'no prompts capability',
  'prompts-get-simple': 'no prompts capability (needs test_simple_prompt)',
  'prompts-get-with-args': 'no prompts capability (needs test_prompt_with_arguments)',
  'prompts-get-embedded-resource': 'no prompts capability (needs test_prompt_with_embedded_resource)',
  'prompts-get-with-image': 'no prompts capability (needs test_prompt_with_image)',
};

const DATABASE_URL = process.env.MCP_CONFORMANCE_DATABASE_URL || 'mysql://root@127.0.0.1:3306/reviewgrid_mcp_conformance';
const NODE_BIN = process.env.MCP_TOOLS_NODE_BIN ?? '';
const TOOLS_DIR = process.env.MCP_TOOLS_DIR ?? '';

interface Outcome {
  name: string;
  ok: boolean;
  detail: string;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A command of the Node >= 22 tools, that Node first on PATH for this command only. */
function runTool(args: string[], cwd: string, env: Record<string, string> = {}, timeoutMs = 120_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(NODE_BIN, 'node'), args, { cwd, env: { ...process.env, PATH: `${NODE_BIN}${path.delimiter}${process.env.PATH ?? ''}`, NO_COLOR: '1', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}

/** The loopback proxy the suite talks to: the request as sent plus the bearer token. */
function startProxy(target: URL, token: string): Promise<{ url: string; stop(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, authorization: `Bearer ${token}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  return new Promise((resolve) =>
    server.once('listening', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop: () => new Promise<void>((r) => server.close(() => r())) }),
    ),
  );
}

async function conformance(url: string, work: string): Promise<Outcome[]> {
  const cli = path.join(TOOLS_DIR, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  const listed = await runTool([cli, 'list'], work);
  const serverSection = listed.stdout.split(/Client scenarios/)[0];
  const offered = [...serverSection.matchAll(/^\s+- ([a-z0-9-]+)/gm)].map((m) => m[1]);
  const outcomes: Outcome[] = [];
  const undecided = offered.filter((s) => !(APPLICABLE as readonly string[]).includes(s) && !(s in SKIPPED));
  if (undecided.length) outcomes.push({ name: 'scenario list', ok: false, detail: `not in APPLICABLE nor SKIPPED: ${undecided.join(', ')}` });
  for (const scenario of APPLICABLE) {
    if (!offered.includes(scenario)) {
      outcomes.push({ name: scenario, ok: false, detail: 'not offered by this version of the suite' });
      continue;
    }
    const out = path.join(work, scenario);
    const run = await runTool([cli, 'server', '--url', url, '--scenario', scenario, '--output-dir', out], work);
    const checks = readChecks(out);
    const failed = checks.filter((c) => c.status === 'FAILURE');
    const ok = run.code === 0 && checks.length > 0 && failed.length === 0;
    const detail = ok
      ? `${checks.filter((c) => c.status === 'SUCCESS').length} checks passed`
      : failed.length
        ? failed.map((c) => `${c.id}: ${c.errorMessage ?? 'failed'}`).join('; ')
        : `exit ${run.code}: ${(run.stderr || run.stdout).trim().split('\n').slice(-5).join(' | ')}`;
    outcomes.push({ name: scenario, ok, detail });
  }
  return outcomes;
}

type Check = { id: string; status: string; errorMessage?: string };

/** The checks.json the suite wrote under its --output-dir (in a subdirectory per run). */
function readChecks(dir: string): Check[] {
  if (!fs.existsSync(dir)) return [];
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => path.basename(f) === 'checks.json');
  return files.flatMap((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Check[]);
}

/** MCP Inspector's CLI lists every tool, with no schema portability finding (`--strict` exits 6 on an error). */
async function inspector(url: string, work: string): Promise<Outcome[]> {
  const cli = path.join(TOOLS_DIR, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
  // Its catalog of servers (~/.mcp-inspector) goes to the work directory, not the user's home.
  const env = { HOME: work };
  const list = await runTool([cli, '--cli', '--transport', 'http', '--server-url', url, '--method', 'tools/list', '--strict'], work, env);
  let names: string[] = [];
  try {
    names = (JSON.parse(list.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
  } catch {
    // reported below
  }
  const expected = TOOLS.map((t) => t.name);
  const findings = list.stderr.trim();
  fs.writeFileSync(path.join(work, 'inspector-tools-list.stderr.txt'), list.stderr);
  const listed = list.code === 0 && names.join() === expected.join() && findings === '';
  const count = (findings.match(/^(Warning|Error)\b/gm) ?? []).length;
  const outcomes: Outcome[] = [
    {
      name: 'inspector tools/list --strict',
      ok: listed,
      detail: listed
        ? `${names.length} tools, no schema warnings`
        : `exit ${list.code}; ${names.length}/${expected.length} tools; ${count} schema findings: ${findings.split('\n').slice(0, 4).join(' | ').slice(0, 600)} (all in inspector-tools-list.stderr.txt)`,
    },
  ];
  const call = await runTool([cli, '--cli', '--transport', 'http', '--server-url', url, '--method', 'tools/call', '--tool-name', 'list_organizations'], work, env);
  let called = false;
  try {
    const result = JSON.parse(call.stdout) as { isError?: boolean; structuredContent?: { data?: unknown[] } };
    called = call.code === 0 && !result.isError && Array.isArray(result.structuredContent?.data);
  } catch {
    called = false;
  }
  outcomes.push({ name: 'inspector tools/call list_organizations', ok: called, detail: called ? 'structured result' : `exit ${call.code}: ${(call.stderr || call.stdout).slice(0, 1000)}` });
  return outcomes;
}

async function main(): Promise<void> {
  if (!NODE_BIN || !TOOLS_DIR) throw new Error('Run scripts/mcp-conformance.sh (it sets MCP_TOOLS_NODE_BIN and MCP_TOOLS_DIR).');
  if (!/_mcp_conformance$/.test(new URL(DATABASE_URL).pathname)) throw new Error('MCP_CONFORMANCE_DATABASE_URL must name a database ending in _mcp_conformance.');
  const config = loadConfig({ ...process.env, DATABASE_URL, LOG_LEVEL: 'warn', REDIS_URL: '' });
  const sequelize = await openDatabase(config);
  let tenant = await Tenant.findOne({ order: [['id', 'ASC']] });
  if (!tenant) tenant = (await seedDemo({ reviews: 20, domain: 'mcp-conformance.localhost' })).tenant;
  const owner = (await User.findOne({ where: { tenantId: tenant.id, role: 'tenant_owner' }, order: [['id', 'ASC']] }))!;
  const ai = await issueToken(owner, {
    name: 'mcp-conformance',
    kind: 'ai',
    permissions: ['mcp:access', 'mcp:writes', 'reviews:read', 'reviews:update', 'organizations:read', 'request:read'],
  });
  const api = await startBenchApi(config);
  const proxy = await startProxy(new URL(api.origin), ai.plainText);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
  const url = `${proxy.url}/api/mcp`;
  let outcomes: Outcome[] = [];
  try {
    outcomes = [...(await conformance(url, work)), ...(await inspector(url, work))];
  } finally {
    await proxy.stop();
    await api.stop();
    await ai.token.destroy();
    await sequelize.close();
  }
  console.log(`MCP conformance (@modelcontextprotocol/conformance) and Inspector CLI against ${url}:`);
  for (const o of outcomes) console.log(`  ${o.ok ? 'PASS' : 'FAIL'}  ${o.name.padEnd(40)} ${o.detail}`);
  console.log('Skipped scenarios (not applicable):');
  for (const [name, why] of Object.entries(SKIPPED)) console.log(`  skip  ${name.padEnd(40)} ${why}`);
  const failed = outcomes.filter((o) => !o.ok);
  if (failed.length) {
    console.error(`mcp-conformance: ${failed.length} failed (results kept in ${work})`);
    process.exit(1);
  }
  fs.rmSync(work, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
