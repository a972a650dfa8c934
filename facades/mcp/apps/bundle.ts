import fs from 'node:fs';
import path from 'node:path';
import { BROWSER_BUNDLE } from '../../../src/http/browser-bundle';

/**
 * The scan-grid View's script: scan-grid.view.mjs with the MCP Apps client (`@modelcontextprotocol/ext-apps`, its
 * self-contained `app-with-deps` build) bundled by esbuild into one IIFE the resource inlines. `npm run build` writes
 * it to dist/assets/mcp-apps (scripts/build-browser-assets.ts) and the built server reads that file; run from the
 * sources (tests, `ts-node`), it is bundled in memory on first use, so a test never meets a stale build.
 */
const FROM_DIST = __dirname.includes(`${path.sep}dist${path.sep}`);
const ROOT = path.resolve(__dirname, '..', '..', '..', ...(FROM_DIST ? ['..'] : []));
export const SCAN_GRID_ENTRY = path.join(ROOT, 'facades', 'mcp', 'apps', 'scan-grid.view.mjs');
export const MCP_APPS_DIR = path.join(ROOT, 'dist', 'assets', 'mcp-apps');
const SCAN_GRID_FILE = path.join(MCP_APPS_DIR, 'scan-grid.js');

/** Bundles the View with esbuild (a devDependency: only where the source tree and dev packages are). */
export async function buildScanGridScript(): Promise<string> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    // The host's frame runs it under the MCP Apps default CSP: no eval, no network.
    ...BROWSER_BUNDLE,
    entryPoints: [SCAN_GRID_ENTRY],
  });
  return result.outputFiles[0].text;
}

/** Writes the bundle where `scanGridScript()` finds it (the build step). */
export async function writeScanGridScript(dir = MCP_APPS_DIR): Promise<string> {
  const script = await buildScanGridScript();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'scan-grid.js'), script);
  return script;
}

let loading: Promise<string> | null = null;

/** The View's script: the built file in a built server, else (or when it is missing) a bundle made now; once per process. */
export function scanGridScript(): Promise<string> {
  loading ??= (async () => (FROM_DIST && fs.existsSync(SCAN_GRID_FILE) ? fs.readFileSync(SCAN_GRID_FILE, 'utf8') : buildScanGridScript()))().catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}
