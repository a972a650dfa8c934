import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';

export const WORKFLOWS_PATH = path.resolve(__dirname, '..', '..', 'workflows', 'index.ts');

/** Global setup writes the run's bundle and passes its path to every test worker (and the processes they spawn). */
const BUNDLE_ENV = 'REVIEWGRID_TEST_WORKFLOW_BUNDLE';

/**
 * Bundles the current workflow code once per Jest run (about 1 s and 200 MB, where each test file used to pay it
 * again). Always built from the sources, never dist/workflow-bundle.js: that one is as old as the last build.
 */
export async function buildTestWorkflowBundle(): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: new DefaultLogger('WARN') });
  const file = path.join(os.tmpdir(), `reviewgrid-workflow-bundle-${process.pid}.js`);
  fs.writeFileSync(file, code);
  process.env[BUNDLE_ENV] = file;
  return file;
}

export function removeTestWorkflowBundle(): void {
  const file = process.env[BUNDLE_ENV];
  if (file) fs.rmSync(file, { force: true });
}

/** The run's bundle; outside a Jest run with our global setup, the sources (bundled at each worker start). */
export function testWorkflows(): { bundlePath: string } | { workflowsPath: string } {
  const bundlePath = process.env[BUNDLE_ENV];
  return bundlePath && fs.existsSync(bundlePath) ? { bundlePath } : { workflowsPath: WORKFLOWS_PATH };
}

/** The same, in the shape `Worker.create` and `Worker.runReplayHistory` take. */
export function testWorkflowOptions(): { workflowBundle: { codePath: string } } | { workflowsPath: string } {
  const workflows = testWorkflows();
  return 'bundlePath' in workflows ? { workflowBundle: { codePath: workflows.bundlePath } } : workflows;
}
