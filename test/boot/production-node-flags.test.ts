import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PRODUCTION_NODE_FLAGS, PRODUCTION_WORKER_NODE_FLAGS } from '../../scripts/production-node-flags';

/**
 * The production processes run with the flags the benchmarks measured them with: docker-compose.yml's API and the
 * image's default command start `node` with PRODUCTION_NODE_FLAGS, compose's worker and `npm run worker` with
 * PRODUCTION_WORKER_NODE_FLAGS.
 */
describe('the production Node flags', () => {
  const root = path.resolve(__dirname, '..', '..');
  const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
  const flagsOf = (argv: string[]) => argv.slice(1, argv.findIndex((a) => a.startsWith('dist/')));

  it('are those of the compose services that run the API and the worker', () => {
    const compose = parse(read('docker-compose.yml')) as { services: Record<string, { command?: string[] }> };
    for (const [service, script, flags] of [['api', 'dist/src/main.js', PRODUCTION_NODE_FLAGS], ['worker', 'dist/src/worker-main.js', PRODUCTION_WORKER_NODE_FLAGS]] as const) {
      const command = compose.services[service].command!;
      expect(command[0]).toBe('node');
      expect(command.at(-1)).toBe(script);
      expect(flagsOf(command)).toEqual(flags);
    }
  });

  it('are those of the image\'s default command and of `npm run worker`', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'))![1];
    expect(flagsOf(JSON.parse(cmd) as string[])).toEqual(PRODUCTION_NODE_FLAGS);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(flagsOf(scripts.worker.split(' '))).toEqual(PRODUCTION_WORKER_NODE_FLAGS);
  });
});
