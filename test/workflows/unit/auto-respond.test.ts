import { Context } from '@temporalio/activity';
import { ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import type { AutoRespondActivities, AutoResponsePlan } from '../../../workflows/activities/auto-respond';
import type { autoRespond } from '../../../workflows/auto-respond/respond.workflow';
import { retryFailure, useWorkflowTestEnv, workflowId } from './support';

/**
 * `autoRespond` with mocked activities: a skip ends it, a retried publish sends the text composed once, a refusal or
 * retries running out mark the run failed. The e2e tests (test/auto-respond) have the platforms' wire formats.
 */
jest.setTimeout(60_000);

describe('autoRespond (mocked activities)', () => {
  const temporal = useWorkflowTestEnv();
  const retry = { maximumAttempts: 3, initialIntervalMs: 20, maximumIntervalMs: 100 };

  function mocks(plan: AutoResponsePlan, publish: (attempt: number) => void) {
    const composed: number[] = [];
    const published: Array<{ message: string; attempt: number }> = [];
    const failed: Array<[number, string]> = [];
    const activities: AutoRespondActivities = {
      async prepareAutoResponse(reviewId) {
        composed.push(reviewId);
        return plan;
      },
      async publishAutoResponse({ message }) {
        const attempt = Context.current().info.attempt;
        published.push({ message, attempt });
        publish(attempt);
        return { status: 'replied', reason: null };
      },
      async failAutoResponse(reviewId, reason) {
        failed.push([reviewId, reason]);
      },
      async resumePendingAutoResponses() {
        return 0;
      },
    };
    return { composed, published, failed, activities };
  }

  const run = (activities: AutoRespondActivities) =>
    temporal.withWorker(activities, (taskQueue) =>
      temporal.client().workflow.execute<typeof autoRespond>('autoRespond', { taskQueue, workflowId: workflowId('auto-respond'), args: [{ reviewId: 42, retry }] }),
    );

  it('ends without publishing when the plan says skip', async () => {
    const m = mocks({ action: 'skip', reason: 'rule_disabled' }, () => undefined);
    expect(await run(m.activities)).toEqual({ status: 'skipped', reason: 'rule_disabled' });
    expect(m.published).toEqual([]);
  });

  it('publishes the text composed once, also on the attempt after an unavailable platform', async () => {
    const m = mocks({ action: 'reply', message: 'Thank you, Ada!', usedAi: false }, (attempt) => {
      if (attempt === 1) throw retryFailure('HTTP 503 from the platform');
    });
    expect(await run(m.activities)).toEqual({ status: 'replied', reason: null });
    expect(m.composed).toEqual([42]);
    expect(m.published).toEqual([
      { message: 'Thank you, Ada!', attempt: 1 },
      { message: 'Thank you, Ada!', attempt: 2 },
    ]);
  });

  it('marks the run failed at once when the platform refuses the reply', async () => {
    const m = mocks({ action: 'reply', message: 'Thanks', usedAi: true }, () => {
      throw ApplicationFailure.nonRetryable('The platform refused the reply: too long', 'AutoRespondRejected');
    });
    await expect(run(m.activities)).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(m.published).toHaveLength(1);
    expect(m.failed).toEqual([[42, 'The platform refused the reply: too long']]);
  });

  it('marks the run failed after the last attempt finds the platform unavailable', async () => {
    const m = mocks({ action: 'reply', message: 'Thanks', usedAi: false }, (attempt) => {
      throw retryFailure(`HTTP 503 on attempt ${attempt}`);
    });
    await expect(run(m.activities)).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(m.published.map((p) => p.attempt)).toEqual([1, 2, 3]);
    expect(m.failed).toEqual([[42, 'HTTP 503 on attempt 3']]);
  });
});
