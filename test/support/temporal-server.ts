import { findTemporalCli, startDevServer, type DevServer } from '../../src/temporal/dev-server';

/** One Temporal dev server for the whole Jest run (global setup starts it, global teardown stops it). */
const KEY = '__reviewgridTemporal';
type Holder = typeof globalThis & { [KEY]?: DevServer };

export async function startTestTemporal(): Promise<string> {
  const port = 17_233 + (process.pid % 1000);
  const server = await startDevServer({
    cli: findTemporalCli(process.env.TEMPORAL_CLI),
    port,
    uiPort: null,
    namespace: 'default',
    dbFile: null,
  });
  (globalThis as Holder)[KEY] = server;
  process.env.REVIEWGRID_TEST_TEMPORAL = server.address;
  return server.address;
}

export async function stopTestTemporal(): Promise<void> {
  await (globalThis as Holder)[KEY]?.stop();
}
