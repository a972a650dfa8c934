import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';

/**
 * `npm run build` step: bundles the workflow code once, so production workers start in a fraction of a second
 * instead of running webpack at every start.
 */
export const ROOT = path.resolve(__dirname, '..', ...(__dirname.includes(`${path.sep}dist${path.sep}`) || __dirname.endsWith(`${path.sep}dist${path.sep}scripts`) ? ['..'] : []));
export const BUNDLE_PATH = path.join(ROOT, 'dist', 'workflow-bundle.js');
export const WORKFLOWS_PATH = path.join(ROOT, 'workflows', 'index.ts');

async function main(): Promise<void> {
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: undefined });
  fs.mkdirSync(path.dirname(BUNDLE_PATH), { recursive: true });
  fs.writeFileSync(BUNDLE_PATH, code);
  process.stdout.write(`wrote ${path.relative(ROOT, BUNDLE_PATH)} (${Math.round(code.length / 1024)} KB)\n`);
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
