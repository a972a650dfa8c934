import type { BuildOptions } from 'esbuild';

/**
 * How the browser scripts we serve are bundled with esbuild (GraphiQL, the MCP App's view): one self-contained,
 * minified IIFE for current browsers, production React, no licence comments, no eval.
 */
export const BROWSER_BUNDLE = {
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'browser',
  target: ['chrome109', 'firefox115', 'safari16'],
  minify: true,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'silent',
} satisfies BuildOptions;
