import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { HISTORIES_DIR } from '../support/temporal';
import { testWorkflowOptions } from '../support/workflow-bundle';

/**
 * Determinism guard for `runScan`: histories recorded from real runs of test/workflows/scan-run.e2e.test.ts
 * (`RECORD_HISTORIES=1`) replay against the current workflow code: a completed run and one the provider refused.
 */
describe('runScan replay against recorded histories', () => {
  jest.setTimeout(60_000);

  it.each(['scan-run-completed', 'scan-run-rejected'])('replays %s', async (name) => {
    const file = path.join(HISTORIES_DIR, `${name}.json`);
    expect(fs.existsSync(file)).toBe(true);
    const history = historyFromJSON(JSON.parse(fs.readFileSync(file, 'utf8')));
    const types = (history.events ?? []).map((e) => e.workflowExecutionStartedEventAttributes?.workflowType?.name).filter(Boolean);
    expect(types).toEqual(['runScan']);
    await Worker.runReplayHistory(testWorkflowOptions(), history, name);
  });
});
