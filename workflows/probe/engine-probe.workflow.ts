import { proxyActivities } from '@temporalio/workflow';
import type { ProbeActivities } from '../activities/probe';

/**
 * The smallest durable unit of work: one workflow, one activity that does nothing. The benchmarks start many of them
 * on the same server and worker as the work they measure, to show the engine's own ceiling (workflows per second)
 * beside their rate; an operator can start one to see a worker answer end to end.
 */
export async function engineProbe(): Promise<void> {
  const { probe } = proxyActivities<ProbeActivities>({ startToCloseTimeout: '10s' });
  await probe();
}
