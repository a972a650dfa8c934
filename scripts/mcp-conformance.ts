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
import { startInProcessApi } from './bench-support';
import { FIXTURE_TOOLS } from './mcp-conformance-fixtures';

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

/**
 * The suite's 2026-07-28 line (0.2.0 prereleases, `MCP_CONFORMANCE_NEXT_DIR`): the stateless revision this server
 * also speaks, its HTTP binding, caching, resources and the multi-round-trip rules, run on their own as above. A
 * scenario here may hold checks that need a test-only diagnostic tool or a capability we do not declare: those check
 * ids are NOT_APPLICABLE_NEXT (with why) and do not fail the run; every other FAILURE does.
 */
export const APPLICABLE_NEXT = [
  'server-initialize',
  'server-stateless',
  'ping',
  'tools-list',
  'resources-list',
  'sep-2164-resource-not-found',
  'dns-rebinding-protection',
  'caching',
  'http-header-validation',
  'input-required-result-unsupported-methods',
  'input-required-result-validate-input',
  'sep-2640-skills-directory',
  'sep-2640-skills-enumeration',
  'sep-2640-skills-manifest',
] as const;

export const NOT_APPLICABLE_NEXT: Record<string, string> = {
  'sep-2575-server-rejects-undeclared-capability': 'needs the test-only diagnostic tool test_missing_capability',
  'sep-2575-missing-capability-http-400': 'needs the test-only diagnostic tool test_missing_capability (our -32021 is tested in test/mcp/tasks.test.ts)',
  'sep-2575-http-server-no-independent-requests-on-stream': 'needs the test-only diagnostic tool test_streaming_elicitation; the server never elicits',
  'sep-2575-server-no-log-without-loglevel': 'needs the test-only diagnostic tool test_logging_tool; the server sends no log messages',
  'sep-2549-prompts-list-caching-hints': 'no prompts capability (prompts/list is -32601)',
  'sep-2549-resources-templates-list-caching-hints': 'no resource templates (resources/templates/list is -32601)',
};

const FIXTURE_TOOL = 'run against a second app with the fixture tools (APPLICABLE_TASKS)';
const NO_MRTR = 'needs a tool that answers input_required (SEP-2322 multi-round-trip); no tool of ours asks the client for input';
export const SKIPPED_NEXT: Record<string, string> = {
  ...Object.fromEntries(Object.entries(SKIPPED).filter(([name]) => !(APPLICABLE_NEXT as readonly string[]).includes(name))),
  'server-session-lifecycle': 'sessions (Mcp-Session-Id): the endpoint is stateless on every revision',
  'http-custom-header-server-validation': 'no tool declares x-mcp-header parameters',
  'tasks-lifecycle': FIXTURE_TOOL,
  'tasks-capability-negotiation': FIXTURE_TOOL,
  'tasks-wire-fields': FIXTURE_TOOL,
  'tasks-request-state-removal': FIXTURE_TOOL,
  'tasks-request-headers': FIXTURE_TOOL,
  'tasks-dispatch-and-envelope': FIXTURE_TOOL,
  'tasks-required-task-error': FIXTURE_TOOL,
  'tasks-status-notifications': 'optional notifications/tasks on a subscriptions/listen stream: not sent (clients poll tasks/get)',
  'tasks-mrtr-input': NO_MRTR,
  'tasks-mrtr-composition': NO_MRTR,
  'input-required-result-basic-elicitation': NO_MRTR,
  'input-required-result-basic-sampling': NO_MRTR,
  'input-required-result-basic-list-roots': NO_MRTR,
  'input-required-result-request-state': NO_MRTR,
  'input-required-result-multiple-input-requests': NO_MRTR,
  'input-required-result-multi-round': NO_MRTR,
  'input-required-result-missing-input-response': NO_MRTR,
  'input-required-result-non-tool-request': `${NO_MRTR}; and no prompts`,
  'input-required-result-result-type': NO_MRTR,
  'input-required-result-tampered-state': NO_MRTR,
  'input-required-result-capability-check': NO_MRTR,
  'input-required-result-ignore-extra-params': NO_MRTR,
};

/**
 * The Tasks extension's scenarios, against a second app whose catalogue adds the fixture tools they call by name
 * (scripts/mcp-conformance-fixtures.ts: greet, slow_compute, failing_job, protocol_error_job) to the real one; the
 * fixtures' tasks go through the same task layer as create_scan's and run_scan's.
 */
export const APPLICABLE_TASKS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-required-task-error',
] as const;

export const NOT_APPLICABLE_TASKS: Record<string, string> = {
  'tasks-headers-tolerate-mcp-method-on-tools-call':
    'wants greet\'s text content to be the bare "Hello, sep-2243!"; every tool of ours answers the JSON of its structuredContent as text (the spec\'s tools/call result), here {"greeting":"Hello, sep-2243!"}',
  'tasks-result-type-complete-on-non-task-responses': 'drives tasks/update through confirm_delete, a fixture that parks for elicitation; no task of ours asks for input',
};

const DATABASE_URL = process.env.MCP_CONFORMANCE_DATABASE_URL || 'mysql://root@127.0.0.1:3306/reviewgrid_mcp_conformance';
const NODE_BIN = process.env.MCP_TOOLS_NODE_BIN ?? '';
const TOOLS_DIR = process.env.MCP_TOOLS_DIR ?? '';
const NEXT_DIR = process.env.MCP_CONFORMANCE_NEXT_DIR ?? '';

interface Suite {
  label: string;
  cli: string;
  applicable: readonly string[];
  /** Every offered scenario must be applicable or skipped (a new one gets a decision); null: a partial run. */
  skipped: Record<string, string> | null;
  notApplicableChecks: Record<string, string>;
}

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

async function conformance(url: string, work: string, suite: Suite): Promise<Outcome[]> {
  const listed = await runTool([suite.cli, 'list'], work);
  const serverSection = listed.stdout.split(/Client scenarios/)[0];
  const offered = [...serverSection.matchAll(/^\s+- ([a-z0-9-]+)/gm)].map((m) => m[1]);
  const outcomes: Outcome[] = [];
  const undecided = suite.skipped ? offered.filter((s) => !suite.applicable.includes(s) && !(s in suite.skipped!)) : [];
  if (undecided.length) outcomes.push({ name: `${suite.label} scenario list`, ok: false, detail: `not in the applicable nor the skipped list: ${undecided.join(', ')}` });
  for (const scenario of suite.applicable) {
    const name = `${suite.label} ${scenario}`;
    if (!offered.includes(scenario)) {
      outcomes.push({ name, ok: false, detail: 'not offered by this version of the suite' });
      continue;
    }
    const out = path.join(work, `${suite.label}-${scenario}`);
    const run = await runTool([suite.cli, 'server', '--url', url, '--scenario', scenario, '--output-dir', out], work);
    const checks = readChecks(out);
    const failed = checks.filter((c) => c.status === 'FAILURE' && !(c.id in suite.notApplicableChecks));
    const waived = checks.filter((c) => c.status === 'FAILURE' && c.id in suite.notApplicableChecks);
    // The suite's exit code counts the waived checks too; the checks themselves decide.
    const ok = checks.length > 0 && failed.length === 0 && (run.code === 0 || waived.length > 0);
    const detail = ok
      ? `${checks.filter((c) => c.status === 'SUCCESS').length} checks passed${waived.length ? `, ${waived.length} not applicable` : ''}`
      : failed.length
        ? failed.map((c) => `${c.id}: ${c.errorMessage ?? 'failed'}`).join('; ')
        : `exit ${run.code}: ${(run.stderr || run.stdout).trim().split('\n').slice(-5).join(' | ')}`;
    outcomes.push({ name, ok, detail });
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
  // The suites send many calls a minute with one token: the rate limits are raised through configuration (still counted).
  const config = loadConfig({ ...process.env, DATABASE_URL, LOG_LEVEL: 'warn', REDIS_URL: '', MCP_RATE_LIMIT_PER_TOKEN: '1000000', MCP_RATE_LIMIT_PER_WORKSPACE: '1000000' });
  const sequelize = await openDatabase(config);
  let tenant = await Tenant.findOne({ order: [['id', 'ASC']] });
  if (!tenant) tenant = (await seedDemo({ reviews: 20, domain: 'mcp-conformance.localhost' })).tenant;
  const owner = (await User.findOne({ where: { tenantId: tenant.id, role: 'tenant_owner' }, order: [['id', 'ASC']] }))!;
  const ai = await issueToken(owner, {
    name: 'mcp-conformance',
    kind: 'ai',
    permissions: ['mcp:access', 'mcp:writes', 'reviews:read', 'reviews:update', 'organizations:read', 'request:read'],
  });
  const api = await startInProcessApi(config);
  const proxy = await startProxy(new URL(api.origin), ai.plainText);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-conformance-'));
  const url = `${proxy.url}/api/mcp`;
  const outcomes: Outcome[] = [];
  try {
    const suites: Suite[] = [
      { label: '0.1', cli: path.join(TOOLS_DIR, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'), applicable: APPLICABLE, skipped: SKIPPED, notApplicableChecks: {} },
    ];
    if (NEXT_DIR) {
      suites.push({
        label: '2026',
        cli: path.join(NEXT_DIR, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'),
        applicable: APPLICABLE_NEXT,
        skipped: SKIPPED_NEXT,
        notApplicableChecks: NOT_APPLICABLE_NEXT,
      });
    }
    for (const suite of suites) outcomes.push(...(await conformance(url, work, suite)));
    outcomes.push(...(await inspector(url, work)));
    if (NEXT_DIR) {
      const fixtures = await startInProcessApi(config, { tools: [...TOOLS, ...FIXTURE_TOOLS] });
      const fixtureProxy = await startProxy(new URL(fixtures.origin), ai.plainText);
      try {
        const tasks: Suite = { label: '2026 tasks', cli: suites[1].cli, applicable: APPLICABLE_TASKS, skipped: null, notApplicableChecks: NOT_APPLICABLE_TASKS };
        outcomes.push(...(await conformance(`${fixtureProxy.url}/api/mcp`, work, tasks)));
      } finally {
        await fixtureProxy.stop();
        await fixtures.stop();
      }
    }
  } finally {
    await proxy.stop();
    await api.stop();
    await ai.token.destroy();
    await sequelize.close();
  }
  console.log(`MCP conformance (@modelcontextprotocol/conformance) and Inspector CLI against ${url}:`);
  for (const o of outcomes) console.log(`  ${o.ok ? 'PASS' : 'FAIL'}  ${o.name.padEnd(40)} ${o.detail}`);
  console.log('Skipped scenarios of 0.1 (not applicable):');
  for (const [name, why] of Object.entries(SKIPPED)) console.log(`  skip  ${name.padEnd(40)} ${why}`);
  if (NEXT_DIR) {
    console.log('Skipped scenarios of the 2026-07-28 line (not applicable):');
    for (const [name, why] of Object.entries(SKIPPED_NEXT)) if (!(name in SKIPPED)) console.log(`  skip  ${name.padEnd(40)} ${why}`);
    console.log('Checks not applicable within its applicable scenarios:');
    for (const [id, why] of Object.entries({ ...NOT_APPLICABLE_NEXT, ...NOT_APPLICABLE_TASKS })) console.log(`  n/a   ${id.padEnd(56)} ${why}`);
  }
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
