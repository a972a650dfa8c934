import path from 'node:path';
import { MCP_APPS_DIR, writeScanGridScript } from '../facades/mcp/apps/bundle';
import { GRAPHIQL_DIR, writeGraphiql } from '../src/http/graphiql-bundle';

/**
 * `npm run build` step: bundles the self-hosted GraphiQL (src/http/browser/graphiql.mjs with the `graphiql`, `react`
 * and `react-dom` packages) into dist/assets/graphiql, which `/graphql` serves in production without esbuild, and the
 * MCP App's scan-grid View (facades/mcp/apps/scan-grid.view.mjs with `@modelcontextprotocol/ext-apps`) into
 * dist/assets/mcp-apps, which the `ui://reviewgrid/scan-grid.html` resource inlines.
 */
async function main(): Promise<void> {
  const bundle = await writeGraphiql();
  const kb = (b: Buffer | string) => Math.round(b.length / 1024);
  process.stdout.write(`wrote ${path.relative(process.cwd(), GRAPHIQL_DIR)}/graphiql.{js,css} (${kb(bundle.js)} KB + ${kb(bundle.css)} KB)\n`);
  const view = await writeScanGridScript();
  process.stdout.write(`wrote ${path.relative(process.cwd(), MCP_APPS_DIR)}/scan-grid.js (${kb(view)} KB)\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
