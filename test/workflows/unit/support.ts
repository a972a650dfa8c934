import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { testWorkflowOptions } from '../../support/workflow-bundle';
import { quietRuntime } from '../../support/temporal';

/**
 * Workflow unit tests: the run's workflow bundle on a worker with mocked activities, on the run's Temporal dev server.
 * Temporal's time-skipping test server is a binary downloaded from outside at first use (not on npm), which this
 * machine cannot reach; the dev server does not skip time, so the tests shorten it: timers by input (poll intervals),
 * retries by `retryFailure` (an attempt's failure names its own next retry delay, as a `Retry-After` would).
 */
export function useWorkflowTestEnv() {
  let env: TestWorkflowEnvironment | undefined;

  beforeAll(async () => {
    quietRuntime();
    const address = process.env.REVIEWGRID_TEST_TEMPORAL;
    if (!address) throw new Error('no Temporal dev server: global setup sets REVIEWGRID_TEST_TEMPORAL');
    env = await TestWorkflowEnvironment.createFromExistingServer({ address, namespace: 'default' });
  }, 60_000);

  afterAll(async () => {
    await env?.teardown();
  });

  return {
    client: (): Client => env!.client,
    /** Runs `test` while a worker with `activities` polls a task queue of its own; the worker stops after it. */
    async withWorker<T>(activities: object, test: (taskQueue: string) => Promise<T>): Promise<T> {
      const taskQueue = `unit-${randomUUID().slice(0, 8)}`;
      const worker = await Worker.create({ connection: env!.nativeConnection, namespace: 'default', taskQueue, activities, ...testWorkflowOptions() });
      return worker.runUntil(test(taskQueue));
    },
  };
}

/** A retryable failure whose next attempt comes after `ms` instead of the workflow's (minutes long) backoff. */
export const retryFailure = (message: string, ms = 10): ApplicationFailure =>
  ApplicationFailure.create({ message, type: 'MockedFailure', nextRetryDelay: ms });

export const workflowId = (name: string): string => `unit-${name}-${randomUUID().slice(0, 8)}`;
