import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';

/** An activity context for a unit test (`attempt`: Temporal's attempt number); failed activities' logs kept out of the output. */
export const activityEnv = (attempt = 1): MockActivityEnvironment =>
  new MockActivityEnvironment({ attempt }, { logger: new DefaultLogger('ERROR', () => undefined) });

/** The ApplicationFailure an activity run ended with (the test fails if it completed or threw something else). */
export async function failureOf(run: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  return err as ApplicationFailure;
}
