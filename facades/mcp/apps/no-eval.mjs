// Imported before the MCP Apps client: zod (inside `@modelcontextprotocol/ext-apps`) probes whether `new Function` works
// the first time it parses an object, unless its global config says `jitless`. The App sets that in its constructor,
// after zod has already parsed; under the View's CSP (no 'unsafe-eval') the probe is refused and every host logs a CSP
// violation. Setting the shared config first skips the probe (test/mcp/scan-widget.test.ts fails on any violation).
globalThis.__zod_globalConfig = { ...(globalThis.__zod_globalConfig || {}), jitless: true };
