import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { HISTORIES_DIR } from '../support/temporal';
import { testWorkflowOptions } from '../support/workflow-bundle';

/**
 * Determinism guard for `syncReviews`: histories recorded from real runs of test/workflows/review-sync.e2e.test.ts
 * (`RECORD_HISTORIES=1`) replay against the current workflow code: a sync that created reviews over pages, one
 * the platform refused (failed, recorded on the integration), and one skipped for a paused account.
 */
describe('syncReviews replay against recorded histories', () => {
  jest.setTimeout(60_000);
  const names = ['review-sync-created', 'review-sync-rejected', 'review-sync-skipped'];

  it.each(names)('replays %s', async (name) => {
    const file = path.join(HISTORIES_DIR, `${name}.json`);
    expect(fs.existsSync(file)).toBe(true);
    const history = historyFromJSON(JSON.parse(fs.readFileSync(file, 'utf8')));
    const types = (history.events ?? []).map((e) => e.workflowExecutionStartedEventAttributes?.workflowType?.name).filter(Boolean);
    expect(types).toEqual(['syncReviews']);
    await Worker.runReplayHistory(testWorkflowOptions(), history, name);
  });
});
