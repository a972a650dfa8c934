import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { FacebookGraphSimulator, type FacebookSimulatorOptions } from '../../../src/providers/facebook/graph.simulator';
import { GoogleBusinessSimulator, type GoogleSimulatorOptions } from '../../../src/providers/google/business.simulator';

export interface ProviderApis {
  /** Base for GOOGLE_API_URL: every Google path (`/v1/accounts`, `/v4/...`) under it. */
  googleUrl: string;
  /** Base for FACEBOOK_GRAPH_URL. */
  facebookUrl: string;
  google: GoogleBusinessSimulator;
  facebook: FacebookGraphSimulator;
  close(): Promise<void>;
}

/**
 * The platform simulators on a loopback HTTP server of their own (port 0): the real clients talk to them over
 * HTTP in the providers' wire formats. They start empty (no seeded reviews, nothing arriving by itself) unless
 * told otherwise; tests add and edit reviews, read the replies and make replies fail through the simulators.
 */
export async function startProviderApis(
  opts: { google?: GoogleSimulatorOptions; facebook?: FacebookSimulatorOptions } = {},
): Promise<ProviderApis> {
  const google = new GoogleBusinessSimulator({ seed: false, growEveryMs: null, ...opts.google });
  const facebook = new FacebookGraphSimulator({ seed: false, growEveryMs: null, ...opts.facebook });
  const app = express();
  app.use('/google', google.router);
  app.use('/facebook', facebook.router);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    googleUrl: `${base}/google`,
    facebookUrl: `${base}/facebook`,
    google,
    facebook,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Points the platform clients at the loopback server for the duration of a test file. */
export function useProviderApis(opts: Parameters<typeof startProviderApis>[0] = {}) {
  const holder: { apis?: ProviderApis; saved?: Record<string, string | undefined> } = {};
  beforeAll(async () => {
    holder.apis = await startProviderApis(opts);
    holder.saved = { GOOGLE_API_URL: process.env.GOOGLE_API_URL, FACEBOOK_GRAPH_URL: process.env.FACEBOOK_GRAPH_URL };
    process.env.GOOGLE_API_URL = holder.apis.googleUrl;
    process.env.FACEBOOK_GRAPH_URL = holder.apis.facebookUrl;
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(holder.saved ?? {})) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await holder.apis?.close();
  });
  return () => {
    if (!holder.apis) throw new Error('provider APIs not started');
    return holder.apis;
  };
}
