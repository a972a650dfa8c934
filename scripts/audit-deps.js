#!/usr/bin/env node
/* global require, process, __dirname */
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS, run by node without a build step */
'use strict';
/**
 * Dependency audit gate (issue 14): `npm run audit:deps`, and a step of .ci/run.
 *
 * Runs `npm audit --omit=dev --json` (the production dependency tree only) and fails when an advisory of severity
 * high or critical is not accepted in .ci/audit-allowlist.json:
 *
 *   {"advisories": [{"id": "GHSA-xxxx-xxxx-xxxx", "package": "name", "reason": "why accepted",
 *                    "reviewed": "YYYY-MM-DD", "expires": "YYYY-MM-DD"}]}
 *
 * An advisory is matched by its GHSA id, taken from the `url` (https://github.com/advisories/GHSA-...) of the
 * advisory objects in `vulnerabilities[*].via[*]` (the strings there only name another vulnerable package). An
 * entry is valid through its `expires` day (UTC); an expired entry fails the gate whether or not it still matches
 * anything, so that every acceptance is reviewed again. An entry that matches no high/critical advisory any more
 * is reported as stale: a warning, not a failure.
 *
 * Summary line: `audit: N production packages with advisories (H high/critical), A allowed, F failing`, where N
 * counts the packages that carry an advisory of their own (any severity), H the distinct high/critical advisories
 * among them, A those accepted by a valid entry and F the failures listed below it (advisories not accepted, and
 * expired entries that match nothing).
 *
 * Exit status: 0 pass; 1 failures, or an allow-list that cannot be read or has a malformed entry; 2 `npm audit`
 * gave no report (registry unreachable, an error object or output that is not JSON): not a finding either way.
 *
 * `--json-file PATH` reads a saved `npm audit --omit=dev --json` output instead of running npm (offline review);
 * `--allowlist PATH` reads another allow-list (the tests).
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const ALLOWLIST = path.join(ROOT, '.ci', 'audit-allowlist.json');
const GATED = new Set(['high', 'critical']);
const GHSA = /^GHSA(-[0-9a-z]{4}){3}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const out = (line) => process.stdout.write(`${line}\n`);
const err = (line) => process.stderr.write(`${line}\n`);

function validDate(s) {
  if (typeof s !== 'string' || !DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** The allow-list's entries, or the reasons it cannot be used. */
function readAllowlist(file) {
  let parsed;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    return { problems: [`cannot read ${path.relative(ROOT, file)}: ${e.message}`] };
  }
  if (!parsed || typeof parsed !== 'object' || !Array.isArray(parsed.advisories)) {
    return { problems: [`${path.relative(ROOT, file)} must be {"advisories": [...]}`] };
  }
  const problems = [];
  const seen = new Set();
  parsed.advisories.forEach((entry, i) => {
    const where = `advisories[${i}]`;
    if (!entry || typeof entry !== 'object') return void problems.push(`${where} is not an object`);
    if (typeof entry.id !== 'string' || !GHSA.test(entry.id)) problems.push(`${where}.id must be a GHSA id (GHSA-xxxx-xxxx-xxxx)`);
    else if (seen.has(entry.id)) problems.push(`${where}.id ${entry.id} is listed twice`);
    else seen.add(entry.id);
    if (typeof entry.package !== 'string' || !entry.package.trim()) problems.push(`${where}.package is required`);
    if (typeof entry.reason !== 'string' || !entry.reason.trim()) problems.push(`${where}.reason is required`);
    if (!validDate(entry.reviewed)) problems.push(`${where}.reviewed must be a date YYYY-MM-DD`);
    if (!validDate(entry.expires)) problems.push(`${where}.expires must be a date YYYY-MM-DD`);
    else if (validDate(entry.reviewed) && entry.expires < entry.reviewed) problems.push(`${where}.expires is before reviewed`);
  });
  return { entries: parsed.advisories, problems };
}

/** `npm audit --omit=dev --json` output: from npm (the one that runs this script when started by `npm run`). */
function auditOutput(argv) {
  const i = argv.indexOf('--json-file');
  if (i >= 0) {
    if (!argv[i + 1]) return { error: '--json-file needs a path' };
    try {
      return { stdout: fs.readFileSync(argv[i + 1], 'utf8') };
    } catch (e) {
      return { error: `cannot read ${argv[i + 1]}: ${e.message}` };
    }
  }
  const args = ['audit', '--omit=dev', '--json'];
  const npmCli = process.env.npm_execpath;
  const [cmd, cmdArgs] = npmCli && /\.c?js$/.test(npmCli) ? [process.execPath, [npmCli, ...args]] : ['npm', args];
  const run = spawnSync(cmd, cmdArgs, {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 5 * 60 * 1000,
    shell: process.platform === 'win32' && cmd === 'npm',
  });
  if (run.error) return { error: `npm audit did not run: ${run.error.message}` };
  // npm audit exits non-zero when it finds anything: the JSON says what, not the status.
  return { stdout: run.stdout, stderr: run.stderr };
}

/** The audit report, or why there is none (exit 2). */
function parseReport(result) {
  if (result.error) return { error: result.error };
  const text = (result.stdout || '').trim();
  const stderrTail = (result.stderr || '').trim().split('\n').slice(-5).join('\n');
  let report;
  try {
    report = JSON.parse(text);
  } catch {
    return { error: `npm audit did not answer JSON${text ? `: ${text.slice(0, 500)}` : ''}${stderrTail ? `\n${stderrTail}` : ''}` };
  }
  if (!report || typeof report !== 'object') return { error: 'npm audit answered no report' };
  // npm 7-10 put failures under `error` ({code, summary, detail}); npm 11 answers the failed request ({message,
  // statusCode, error}). Either way there is no `vulnerabilities` map.
  if (report.error || typeof report.vulnerabilities !== 'object' || report.vulnerabilities === null) {
    const e = report.error && typeof report.error === 'object' ? report.error : {};
    const what = [report.message, e.code, e.summary, e.detail].filter((s) => typeof s === 'string' && s.trim()).join(': ');
    return { error: `npm audit could not produce a report: ${what || JSON.stringify(report).slice(0, 500)}` };
  }
  return { report };
}

function ghsaOf(url) {
  const m = typeof url === 'string' ? /\/advisories\/(GHSA(?:-[0-9a-z]{4}){3})\b/i.exec(url) : null;
  return m ? `GHSA${m[1].slice(4).toLowerCase()}` : null;
}

/** Every advisory object of the report, once per (package, advisory). */
function advisoriesOf(report) {
  const found = new Map();
  for (const [name, vuln] of Object.entries(report.vulnerabilities)) {
    for (const via of (vuln && Array.isArray(vuln.via) ? vuln.via : [])) {
      if (!via || typeof via !== 'object') continue;
      const pkg = via.dependency || via.name || name;
      const id = ghsaOf(via.url);
      const key = `${pkg} ${id || via.url || via.source}`;
      if (found.has(key)) continue;
      found.set(key, { id, package: pkg, severity: String(via.severity || 'unknown'), title: String(via.title || ''), url: String(via.url || ''), range: via.range });
    }
  }
  return [...found.values()];
}

function main(argv) {
  const a = argv.indexOf('--allowlist');
  const allow = readAllowlist(a !== -1 && argv[a + 1] ? path.resolve(argv[a + 1]) : ALLOWLIST);
  if (allow.problems.length) {
    err('audit: the allow-list cannot be used:');
    for (const p of allow.problems) err(`  ${p}`);
    return 1;
  }

  const parsed = parseReport(auditOutput(argv));
  if (parsed.error) {
    err(`audit: ${parsed.error}`);
    err('audit: no result (exit 2): the production dependencies were NOT checked.');
    return 2;
  }

  const today = new Date().toISOString().slice(0, 10);
  const advisories = advisoriesOf(parsed.report);
  const packages = new Set(advisories.map((a) => a.package));
  const gated = advisories.filter((a) => GATED.has(a.severity.toLowerCase()));
  const byId = new Map(allow.entries.map((e) => [e.id, e]));
  const expired = (e) => e.expires < today;

  const allowed = [];
  const failing = [];
  const matched = new Set();
  for (const a of gated) {
    const entry = a.id ? byId.get(a.id) : undefined;
    if (entry) matched.add(entry.id);
    if (entry && !expired(entry)) allowed.push({ advisory: a, entry });
    else failing.push({ advisory: a, note: entry ? `allow-list entry expired ${entry.expires}` : a.id ? 'not in the allow-list' : 'no GHSA id: cannot be allow-listed' });
  }
  const stale = allow.entries.filter((e) => !matched.has(e.id));
  const staleExpired = stale.filter(expired);

  const failures = failing.length + staleExpired.length;
  out(`audit: ${packages.size} production packages with advisories (${gated.length} high/critical), ${allowed.length} allowed, ${failures} failing`);
  for (const { advisory: a, note } of failing) {
    out(`  FAIL ${a.package} ${a.severity}: ${a.title} ${a.url} (${note})`);
  }
  for (const e of staleExpired) {
    out(`  FAIL allow-list entry ${e.id} (${e.package}) expired ${e.expires} and matches nothing: remove it`);
  }
  for (const { advisory: a, entry } of allowed) {
    out(`  allowed ${a.package} ${a.severity}: ${a.title} ${a.url} (until ${entry.expires}: ${entry.reason})`);
  }
  for (const e of stale.filter((s) => !expired(s))) {
    out(`  stale (warning): allow-list entry ${e.id} (${e.package}) matches no high/critical production advisory: remove it`);
  }
  return failures > 0 ? 1 : 0;
}

process.exitCode = main(process.argv.slice(2));
