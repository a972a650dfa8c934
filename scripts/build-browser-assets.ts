import path from 'node:path';
import { GRAPHIQL_DIR, writeGraphiql } from '../src/http/graphiql-bundle';

/**
 * `npm run build` step: bundles the self-hosted GraphiQL (src/http/browser/graphiql.mjs with the `graphiql`, `react`
 * and `react-dom` packages) into dist/assets/graphiql, which `/graphql` serves in production without esbuild.
 */
async function main(): Promise<void> {
  const bundle = await writeGraphiql();
  const kb = (b: Buffer) => Math.round(b.length / 1024);
  process.stdout.write(`wrote ${path.relative(process.cwd(), GRAPHIQL_DIR)}/graphiql.{js,css} (${kb(bundle.js)} KB + ${kb(bundle.css)} KB)\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
