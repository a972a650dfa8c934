import { loadConfig, simulatorBaseUrl } from '../config';
import { FacebookGraphClient } from './facebook/graph.client';
import { GoogleBusinessClient } from './google/business.client';
import type { ReviewPlatformClient, SignInProvider } from './types';

export * from './types';
export { FacebookGraphClient } from './facebook/graph.client';
export { GoogleBusinessClient } from './google/business.client';

/** Where the in-process simulators are mounted (src/providers/simulators.ts). */
export const SIMULATOR_PATHS: Record<SignInProvider, string> = {
  google: '/simulators/google/api',
  facebook: '/simulators/facebook/graph',
};

/**
 * Base URL of a platform's API: the configured one (`GOOGLE_API_URL`, `FACEBOOK_GRAPH_URL`); else, while the
 * provider has no OAuth client (`GOOGLE_CLIENT_ID` / `FACEBOOK_CLIENT_ID` unset: the embedded default), the
 * in-process simulator; else the real platform (null: the client's own default hosts).
 */
export function platformBaseUrl(provider: SignInProvider, env: NodeJS.ProcessEnv = process.env): string | null {
  const config = loadConfig(env);
  const configured = provider === 'google' ? config.GOOGLE_API_URL : config.FACEBOOK_GRAPH_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const clientId = provider === 'google' ? config.GOOGLE_CLIENT_ID : config.FACEBOOK_CLIENT_ID;
  if (!clientId) return `${simulatorBaseUrl(env)}${SIMULATOR_PATHS[provider]}`;
  return null;
}

/** The API client of a review platform, configured from the environment (read per call, so tests can change it). */
export function platformClient(provider: SignInProvider, env: NodeJS.ProcessEnv = process.env): ReviewPlatformClient {
  const baseUrl = platformBaseUrl(provider, env);
  return provider === 'google' ? new GoogleBusinessClient({ baseUrl }) : new FacebookGraphClient({ baseUrl });
}
