import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { HISTORIES_DIR } from '../support/temporal';
import { testWorkflowOptions } from '../support/workflow-bundle';

/**
 * Determinism guard for `runScan`: histories recorded from real runs (`RECORD_HISTORIES=1`) replay against the current
 * workflow code: a completed run and one the provider refused (test/workflows/scan-run.e2e.test.ts, recorded before the
 * `scan-run-turns` patch: they replay as they ran), and a run that waited for its tenant's turn and was woken by the
 * signal of one that ended (test/workflows/scan-fairness.e2e.test.ts, since the patch).
 */
describe('runScan replay against recorded histories', () => {
  jest.setTimeout(60_000);

  it.each(['scan-run-completed', 'scan-run-rejected', 'scan-run-waited-turn'])('replays %s', async (name) => {
    const file = path.join(HISTORIES_DIR, `${name}.json`);
    expect(fs.existsSync(file)).toBe(true);
    const history = historyFromJSON(JSON.parse(fs.readFileSync(file, 'utf8')));
    const types = (history.events ?? []).map((e) => e.workflowExecutionStartedEventAttributes?.workflowType?.name).filter(Boolean);
    expect(types).toEqual(['runScan']);
    await Worker.runReplayHistory(testWorkflowOptions(), history, name);
  });
});
