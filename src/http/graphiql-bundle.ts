import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BROWSER_BUNDLE } from './browser-bundle';

/**
 * The self-hosted GraphiQL as two browser files (script and stylesheet), bundled with esbuild from
 * src/http/browser/graphiql.mjs and the `graphiql`, `react` and `react-dom` packages. `npm run build` writes them to
 * dist/assets/graphiql (scripts/build-browser-assets.ts), which production serves; a checkout that has not been
 * built (tests, `ts-node` runs) bundles them in memory on first use, in about a second.
 */
const ROOT = path.resolve(__dirname, '..', '..', ...(__dirname.includes(`${path.sep}dist${path.sep}`) ? ['..'] : []));
export const GRAPHIQL_ENTRY = path.join(ROOT, 'src', 'http', 'browser', 'graphiql.mjs');
export const GRAPHIQL_DIR = path.join(ROOT, 'dist', 'assets', 'graphiql');

export interface BrowserBundle {
  js: Buffer;
  css: Buffer;
  /** A short hash of both files, for cache-busting URLs. */
  version: string;
}

const versionOf = (js: Buffer, css: Buffer) => createHash('sha256').update(js).update(css).digest('hex').slice(0, 12);

/** Bundles GraphiQL with esbuild (a devDependency: only where the source tree and dev packages are). */
export async function buildGraphiql(): Promise<BrowserBundle> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    ...BROWSER_BUNDLE,
    entryPoints: [GRAPHIQL_ENTRY],
    outdir: path.join(ROOT, 'dist', 'assets', 'graphiql'),
    entryNames: 'graphiql',
  });
  const file = (ext: string) => {
    const out = result.outputFiles.find((f) => f.path.endsWith(ext));
    if (!out) throw new Error(`esbuild produced no ${ext} file for GraphiQL`);
    return Buffer.from(out.contents);
  };
  const js = file('.js');
  const css = file('.css');
  return { js, css, version: versionOf(js, css) };
}

/** Writes the bundle where `graphiqlBundle()` finds it (the build step). */
export async function writeGraphiql(dir = GRAPHIQL_DIR): Promise<BrowserBundle> {
  const bundle = await buildGraphiql();
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'graphiql.js'), bundle.js);
  fs.writeFileSync(path.join(dir, 'graphiql.css'), bundle.css);
  return bundle;
}

let loading: Promise<BrowserBundle> | null = null;

/** The built files when `npm run build` wrote them, else a bundle made now; read once per process. */
export function graphiqlBundle(): Promise<BrowserBundle> {
  loading ??= (async () => {
    const js = path.join(GRAPHIQL_DIR, 'graphiql.js');
    const css = path.join(GRAPHIQL_DIR, 'graphiql.css');
    if (fs.existsSync(js) && fs.existsSync(css)) {
      const bundle = { js: fs.readFileSync(js), css: fs.readFileSync(css) };
      return { ...bundle, version: versionOf(bundle.js, bundle.css) };
    }
    return buildGraphiql();
  })().catch((err: unknown) => {
    loading = null;
    throw err;
  });
  return loading;
}
