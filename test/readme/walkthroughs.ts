import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The README's walkthrough blocks, extracted and run as a reader runs them: in document order, in one bash session
 * (variables set by one block are there for the next), in a second terminal next to a fresh `npm start`.
 *
 * A block is a fenced `sh` block right after a `<!-- walkthrough: <name> -->` comment. The only changes made to its
 * text are the product's addresses (`127.0.0.1:3000`, the Temporal ports, the local webhook receiver's port), moved to
 * ports of the test's own; everything else runs literally. The session is stricter than a reader's eye: `set -eo
 * pipefail`, and `curl` fails on an HTTP error status (>= 400) and on a GraphQL `errors` or JSON-RPC `error` answer.
 */

export interface Walkthrough {
  name: string;
  /** 1-based line of the marker in the README. */
  line: number;
  code: string;
}

const MARKER = /^\s*<!--\s*walkthrough:\s*([a-z0-9][a-z0-9-]*)\s*-->\s*$/;
const FENCE_OPEN = /^(\s*)```(\S*)\s*$/;

/** Every marked block, in document order. A marker not followed by an `sh` fence, or a name used twice, is an error. */
export function extractWalkthroughs(markdown: string): Walkthrough[] {
  const lines = markdown.split('\n');
  const blocks: Walkthrough[] = [];
  for (let i = 0; i < lines.length; i++) {
    const marker = MARKER.exec(lines[i]);
    if (!marker) continue;
    const name = marker[1];
    const open = FENCE_OPEN.exec(lines[i + 1] ?? '');
    if (!open || open[2] !== 'sh') throw new Error(`README line ${i + 1}: walkthrough "${name}" must be followed by a \`\`\`sh block`);
    if (blocks.some((b) => b.name === name)) throw new Error(`README line ${i + 1}: walkthrough name "${name}" is used twice`);
    const indent = open[1];
    const body: string[] = [];
    let j = i + 2;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++) body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    if (j >= lines.length) throw new Error(`README line ${i + 1}: walkthrough "${name}" has no closing fence`);
    blocks.push({ name, line: i + 1, code: body.join('\n') });
    i = j;
  }
  return blocks;
}

/**
 * The environment of the fresh start the walkthroughs expect: the `sh` block after `<!-- walkthrough-start -->` is
 * one line, `VAR=value ... npm start`.
 */
export function startEnvironment(markdown: string): Record<string, string> {
  const lines = markdown.split('\n');
  const at = lines.findIndex((l) => /^\s*<!--\s*walkthrough-start\s*-->\s*$/.test(l));
  if (at < 0) throw new Error('README: no <!-- walkthrough-start --> block');
  const command = /^\s*```sh\s*$/.test(lines[at + 1] ?? '') && /^\s*```\s*$/.test(lines[at + 3] ?? '') ? lines[at + 2].trim() : '';
  const m = /^((?:[A-Z][A-Z0-9_]*=\S+\s+)*)npm start$/.exec(command);
  if (!m) throw new Error(`README line ${at + 1}: the walkthrough start must be one \`VAR=value ... npm start\` line in an sh block`);
  return Object.fromEntries(
    m[1]
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

/** Literal replacements (the documented addresses -> the test's). */
export type Substitutions = Array<[from: string, to: string]>;

export function substitute(code: string, subs: Substitutions): string {
  return subs.reduce((text, [from, to]) => text.split(from).join(to), code);
}

const BEGIN = '::walkthrough-begin::';
const END = '::walkthrough-end::';

/**
 * `curl` of the session: the real one with --fail-with-body (an HTTP status >= 400 fails the command, its body still
 * printed), and an answer carrying GraphQL `errors` or a JSON-RPC `error` fails too. Output goes through unchanged.
 */
const PRELUDE = String.raw`
exec 2>&1
set -eo pipefail
shopt -s inherit_errexit
curl() {
  local out rc=0
  out=$(command curl --fail-with-body "$@") || rc=$?
  printf '%s\n' "$out"
  if [ "$rc" -ne 0 ]; then echo "walkthrough: curl failed (exit $rc): curl $*" >&2; return "$rc"; fi
  if printf '%s' "$out" | grep -qE '"errors"[[:space:]]*:[[:space:]]*\[|"jsonrpc"[[:space:]]*:[[:space:]]*"2\.0".*"error"[[:space:]]*:[[:space:]]*\{|"isError"[[:space:]]*:[[:space:]]*true'; then
    echo "walkthrough: the answer carries an error: curl $*" >&2; return 1
  fi
}
`;

/** The bash script of the session: the prelude, then each block between markers the runner reads back. */
export function sessionScript(blocks: Walkthrough[], subs: Substitutions): string {
  const parts = [PRELUDE];
  for (const b of blocks) {
    parts.push(`printf '\\n${BEGIN} %s\\n' '${b.name}'`, substitute(b.code, subs), `printf '\\n${END} %s\\n' '${b.name}'`);
  }
  parts.push('exit 0');
  return parts.join('\n') + '\n';
}

export interface BlockResult {
  name: string;
  output: string;
  finished: boolean;
}

export interface SessionResult {
  code: number | null;
  timedOut: boolean;
  blocks: BlockResult[];
  /** Output before the first block (the prelude's own, normally nothing). */
  preamble: string;
}

/** Splits the session's output at the markers. */
export function splitOutput(output: string): { preamble: string; blocks: BlockResult[] } {
  const blocks: BlockResult[] = [];
  let preamble = '';
  let current: BlockResult | null = null;
  for (const line of output.split('\n')) {
    if (line.startsWith(`${BEGIN} `)) {
      current = { name: line.slice(BEGIN.length + 1), output: '', finished: false };
      blocks.push(current);
    } else if (line.startsWith(`${END} `) && current && line.slice(END.length + 1) === current.name) {
      current.finished = true;
      current = null;
    } else if (current) current.output += `${line}\n`;
    else preamble += `${line}\n`;
  }
  // The markers are printed on lines of their own: the blank line before each is not the block's.
  for (const b of blocks) b.output = b.output.replace(/\n+$/, '');
  return { preamble: preamble.trim(), blocks };
}

/** Runs the session in `cwd` with `env`; kills it (and what it started in the background) after `timeoutMs`. */
export function runSession(script: string, opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; onOutput?: (chunk: string) => void }): Promise<SessionResult> {
  const file = path.join(opts.cwd, 'walkthroughs.sh');
  fs.writeFileSync(file, script);
  return new Promise((resolve, reject) => {
    // Its own process group, so the background receiver a block starts goes with it.
    const child = spawn('bash', [file], { cwd: opts.cwd, env: opts.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (d: Buffer) => {
      output += d.toString();
      opts.onOutput?.(d.toString());
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, opts.timeoutMs);
    child.on('error', reject);
    // When bash is done, what it left running in the background (the webhook receiver) goes too; only then do the
    // pipes close, which is when every line of output has been read.
    let code: number | null = null;
    child.on('exit', (c) => {
      code = c;
      clearTimeout(timer);
      killGroup(child);
    });
    child.on('close', () => resolve({ code, timedOut, ...splitOutput(output) }));
  });
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * A directory that looks like the checkout to `npm start` and `npm run cli` (package.json, dist, node_modules, docs
 * and scripts linked) with a `data/` of its own, so the walkthroughs' `data/...` paths are the fresh start's, never
 * the developer's own `./data`.
 */
export function makeWorkspace(root: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reviewgrid-readme-'));
  for (const entry of ['package.json', 'dist', 'node_modules', 'docs', 'scripts']) fs.symlinkSync(path.join(root, entry), path.join(dir, entry));
  return dir;
}

/** What a reader's terminal has: the machine's basics, none of the test run's settings. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const keep = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'SHELL', 'GOPATH', 'GOROOT', 'GOCACHE', 'GOMODCACHE', 'XDG_CACHE_HOME', 'REVIEWGRID_CACHE', 'TEMPORAL_CLI'];
  const env: NodeJS.ProcessEnv = {};
  for (const key of keep) if (process.env[key] !== undefined) env[key] = process.env[key];
  return { ...env, ...extra };
}
