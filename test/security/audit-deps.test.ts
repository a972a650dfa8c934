import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../support/spawn';

/**
 * The dependency audit gate (`npm run audit:deps`, a step of .ci/run; docs/security.md "Standing suite") judged on
 * saved `npm audit --omit=dev --json` reports: the registry these machines reach has no advisory endpoint, so the
 * gate's decisions are tested here on the report format npm writes (npm 7+), and CI runs it for real where it can.
 */
const SCRIPT = path.join(ROOT, 'scripts', 'audit-deps.js');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-deps-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

const advisory = (name: string, ghsa: string, severity: string) => ({
  name,
  severity,
  isDirect: false,
  via: [{ source: 1, name, dependency: name, title: `${name} is vulnerable`, url: `https://github.com/advisories/${ghsa}`, severity, range: '<9.9.9' }],
  effects: [],
  range: '<9.9.9',
  nodes: [`node_modules/${name}`],
  fixAvailable: false,
});

function run(report: unknown, allowlist: unknown): { code: number | null; out: string } {
  const reportFile = path.join(dir, `report-${Math.random()}.json`);
  const allowFile = path.join(dir, `allow-${Math.random()}.json`);
  fs.writeFileSync(reportFile, typeof report === 'string' ? report : JSON.stringify(report));
  fs.writeFileSync(allowFile, JSON.stringify(allowlist));
  const r = spawnSync(process.execPath, [SCRIPT, '--json-file', reportFile, '--allowlist', allowFile], { encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const report = (vulnerabilities: Record<string, unknown>) => ({ auditReportVersion: 2, vulnerabilities, metadata: {} });

describe('dependency audit gate', () => {
  it('passes a clean report and one with only low and moderate advisories', () => {
    expect(run(report({}), { advisories: [] }).code).toBe(0);
    const moderate = run(report({ 'left-pad': advisory('left-pad', 'GHSA-aaaa-bbbb-cccc', 'moderate') }), { advisories: [] });
    expect(moderate.code).toBe(0);
    expect(moderate.out).toMatch(/audit: 1 production packages with advisories \(0 high\/critical\), 0 allowed, 0 failing/);
  });

  it('fails on a high or critical advisory that is not accepted, naming it', () => {
    const r = run(
      report({ 'evil-pkg': advisory('evil-pkg', 'GHSA-dddd-eeee-ffff', 'high'), worse: advisory('worse', 'GHSA-gggg-hhhh-jjjj', 'critical') }),
      { advisories: [] },
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain('GHSA-dddd-eeee-ffff');
    expect(r.out).toContain('https://github.com/advisories/GHSA-gggg-hhhh-jjjj');
    expect(r.out).toMatch(/2 failing/);
  });

  it('passes an accepted advisory until its acceptance expires; a stale acceptance warns', () => {
    const vulns = report({ 'evil-pkg': advisory('evil-pkg', 'GHSA-dddd-eeee-ffff', 'high') });
    const entry = (expires: string) => ({ id: 'GHSA-dddd-eeee-ffff', package: 'evil-pkg', reason: 'not reachable from our code', reviewed: day(-1), expires });
    expect(run(vulns, { advisories: [entry(day(30))] }).code).toBe(0);
    const expired = run(vulns, { advisories: [entry(day(-1))] });
    expect(expired.code).toBe(1);
    expect(expired.out).toMatch(/expired/i);
    const stale = run(report({}), { advisories: [entry(day(30))] });
    expect(stale.code).toBe(0);
    expect(stale.out).toMatch(/stale/i);
  });

  it('refuses a malformed allow-list (exit 1) and says when npm gave no report (exit 2)', () => {
    expect(run(report({}), { advisories: [{ id: 'not-a-ghsa', package: 'x', reason: '', reviewed: 'soon', expires: 'never' }] }).code).toBe(1);
    const refused = run({ message: '405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk', statusCode: 405 }, { advisories: [] });
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/NOT checked/);
    expect(run('npm ERR! something went wrong', { advisories: [] }).code).toBe(2);
  });
});
