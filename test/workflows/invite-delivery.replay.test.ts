import fs from 'node:fs';
import path from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { HISTORIES_DIR } from '../support/temporal';
import { testWorkflowOptions } from '../support/workflow-bundle';

/**
 * Determinism guard for `inviteDelivery`: histories recorded from real runs of
 * test/workflows/invite-delivery.e2e.test.ts (`RECORD_HISTORIES=1`) replay against the current workflow code: a
 * single send, a rescheduled wait, two steps, a follow-up stopped by a click, a cancel signal, a failure without
 * credits, an activity retried after a crash, and a run held by a paused campaign.
 */
describe('inviteDelivery replay against recorded histories', () => {
  jest.setTimeout(60_000);

  it.each([
    'invite-delivery-sent',
    'invite-delivery-rescheduled',
    'invite-delivery-multistep',
    'invite-delivery-clicked',
    'invite-delivery-canceled',
    'invite-delivery-no-credits',
    'invite-delivery-crash-retried',
    'invite-delivery-held',
  ])('replays %s', async (name) => {
    const file = path.join(HISTORIES_DIR, `${name}.json`);
    expect(fs.existsSync(file)).toBe(true);
    const history = historyFromJSON(JSON.parse(fs.readFileSync(file, 'utf8')));
    const types = (history.events ?? []).map((e) => e.workflowExecutionStartedEventAttributes?.workflowType?.name).filter(Boolean);
    expect(types).toEqual(['inviteDelivery']);
    await Worker.runReplayHistory(testWorkflowOptions(), history, name);
  });
});
