/**
 * The Node flags the production API and worker processes run with: docker-compose.yml's `api` and `worker` commands,
 * the Dockerfile's CMD and `npm run worker` (test/boot/production-node-flags.test.ts holds them to this list), and the
 * benchmarks' product processes. `--max-old-space-size=256` bounds the old generation: with Node's default (a limit
 * sized from the machine's RAM, about 4 GB here) V8 lets garbage grow to several times the live heap between full
 * collections, and the processes peaked at 430-530 MB in the benchmarks with 70-110 MB live; bounded, they stay under
 * 400 MB (README "Memory of the API and worker processes"). `--max-semi-space-size=16` keeps the young generation
 * at Node 20's 2 x 16 MB: Node 24's V8 (the image's runtime) lets it grow to several times that, and the API's peak RSS
 * in the REST benchmark went from about 235 MB on Node 20 to 355-380 MB on Node 24; with the flag 275 MB, at the same
 * throughput (2026-12-02). `--no-allocation-site-pretenuring` (both processes, 2026-12-04): V8 allocates the objects
 * of a code site directly in the old generation once most of them have survived a young collection; under load the
 * requests' objects (slow list requests, 32 at a time) survive the 16 MB young generation's collections, their sites
 * are pretenured, and from then on every request's garbage goes to the old generation: a full collection every
 * quarter second, 30 % of the API's CPU on `GET /health` after the list and detail runs against 4 % in a fresh process.
 * Without it the REST list and detail routes went from 74-80 % and 53-66 % of the bare baseline to 98-100 % and 85-89 %
 * (`npm run bench`, alternating), and the invites' batch route from 3.0 x the pooled loop to 2.7 x (README
 * "Benchmarks"). `npm start`, the quick start, runs the API and a worker in one process and keeps Node's default.
 */
export const PRODUCTION_NODE_FLAGS: readonly string[] = ['--max-old-space-size=256', '--max-semi-space-size=16', '--no-allocation-site-pretenuring'];

/**
 * The worker's: the same old-generation bound, and a young generation of 2 x 8 MB. The worker holds three V8 heaps
 * (its main thread, the Temporal SDK's workflow thread, which takes the process's flags, and the mail thread, bounded
 * on its own), and on Node 24 it peaked at 400-406 MB in the invite benchmark with 16 MB semi-spaces (2026-12-03);
 * with 8 MB, 337 MB in a run of the same set, its throughput within the runs' spread (README "Memory of the API and
 * worker processes"). The API keeps 16 MB: its REST requests allocate faster, and it peaks well under the target.
 */
export const PRODUCTION_WORKER_NODE_FLAGS: readonly string[] = ['--max-old-space-size=256', '--max-semi-space-size=8', '--no-allocation-site-pretenuring'];
