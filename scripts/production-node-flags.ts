/**
 * The Node flags the production API and worker processes run with: docker-compose.yml's `api` and `worker` commands,
 * the Dockerfile's CMD and `npm run worker` (test/boot/production-node-flags.test.ts holds them to this list), and the
 * benchmarks' product processes. `--max-old-space-size=256` bounds the old generation: with Node's default (a limit
 * sized from the machine's RAM, about 4 GB here) V8 lets garbage grow to several times the live heap between full
 * collections, and the processes peaked at 430-530 MB in the benchmarks with 70-110 MB live; bounded, they stay under
 * 400 MB (README "Memory of the API and worker processes"). `npm start`, the quick start, runs the API and a worker in
 * one process and keeps Node's default.
 */
export const PRODUCTION_NODE_FLAGS: readonly string[] = ['--max-old-space-size=256'];
