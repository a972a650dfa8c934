import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { HISTORIES_DIR } from '../support/temporal';
import { testWorkflowOptions } from '../support/workflow-bundle';

/**
 * Determinism guard: histories recorded from real runs (test/workflows/histories) must replay against the
 * current workflow code. A change that would break running workflows fails here.
 */
describe('workflow replay against recorded histories', () => {
  jest.setTimeout(60_000);
  const files = fs.readdirSync(HISTORIES_DIR).filter((f) => f.endsWith('.json'));

  it('has recorded histories to replay', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  it.each(files)('replays %s', async (file) => {
    const history = historyFromJSON(JSON.parse(fs.readFileSync(path.join(HISTORIES_DIR, file), 'utf8')));
    await Worker.runReplayHistory(testWorkflowOptions(), history, path.basename(file, '.json'));
  });
});
