import * as oauth from 'oauth4webapi';
import type { Transaction } from 'sequelize';
import { loadConfig, publicBaseUrl, simulatorBaseUrl } from '../config';
import { decryptSecret, encryptSecret, mac } from '../crypto/secrets';
import { systemClock, type Clock } from '../domain/clock';
import { NotFound, SignInFailed, Upstream } from '../domain/errors';
import { Integration, ProviderConnection } from '../models';
import type { SignInProvider } from '../providers/types';
import { inTransaction } from './common';

/**
 * Provider sign-in (OAuth 2 authorization code with PKCE S256, through `oauth4webapi`) and the tokens it yields,
 * stored encrypted per synced integration. A provider whose CLIENT_ID is unset runs against the in-process
 * simulator (src/providers/oauth-simulator.ts) with a client id and secret derived here, so both sides agree.
 */

/** Scopes asked for: reading reviews and answering them. */
export const PROVIDER_SCOPES: Record<SignInProvider, readonly string[]> = {
  google: ['https://www.googleapis.com/auth/business.manage'],
  facebook: ['pages_show_list', 'pages_read_user_content', 'pages_manage_engagement', 'pages_read_engagement'],
};

/** Google separates scopes with spaces (RFC 6749), Facebook documents commas. */
const SCOPE_SEPARATOR: Record<SignInProvider, string> = { google: ' ', facebook: ',' };

/** Where the simulator is mounted (src/providers/simulators.ts). */
export const oauthSimulatorPath = (provider: SignInProvider): string => `/simulators/${provider}/oauth`;

export interface OAuthProviderSettings {
  provider: SignInProvider;
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  scope: string;
  /** Runs against the in-process simulator (CLIENT_ID unset). */
  simulated: boolean;
  /** Extra authorization request parameters (Google: offline access, so a refresh token comes back). */
  extraAuthParams: Record<string, string>;
}

export function isSimulated(provider: SignInProvider, env: NodeJS.ProcessEnv = process.env): boolean {
  const config = loadConfig(env);
  return !(provider === 'google' ? config.GOOGLE_CLIENT_ID : config.FACEBOOK_CLIENT_ID);
}

/** The simulator's client credentials: fixed per installation (derived from the app key), never configured. */
export const simulatorClient = (provider: SignInProvider) => ({
  clientId: `simulated-${provider}-client`,
  clientSecret: mac('oauth-simulator-client-secret', provider),
});

/** OAuth settings of a provider, read from the environment per call (tests change it). */
export function oauthSettings(provider: SignInProvider, env: NodeJS.ProcessEnv = process.env): OAuthProviderSettings {
  const config = loadConfig(env);
  const scope = PROVIDER_SCOPES[provider].join(SCOPE_SEPARATOR[provider]);
  const extraAuthParams: Record<string, string> =
    provider === 'google' ? { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' } : {};
  if (isSimulated(provider, env)) {
    // The browser goes to the authorize page on the public origin; the code exchange is a server-side call.
    const path = oauthSimulatorPath(provider);
    const authUrl = `${publicBaseUrl(env)}${path}/authorize`;
    return { provider, ...simulatorClient(provider), authUrl, tokenUrl: `${simulatorBaseUrl(env)}${path}/token`, scope, simulated: true, extraAuthParams };
  }
  const google = provider === 'google';
  return {
    provider,
    clientId: (google ? config.GOOGLE_CLIENT_ID : config.FACEBOOK_CLIENT_ID)!,
    clientSecret: (google ? config.GOOGLE_CLIENT_SECRET : config.FACEBOOK_CLIENT_SECRET) ?? '',
    authUrl: google ? config.GOOGLE_AUTH_URL : config.FACEBOOK_AUTH_URL,
    tokenUrl: google ? config.GOOGLE_TOKEN_URL : config.FACEBOOK_TOKEN_URL,
    scope,
    simulated: false,
    extraAuthParams,
  };
}

/**
 * The redirect URI registered with the providers: ONE per installation, on `PUBLIC_URL` (providers such as Google
 * accept only exact, pre-registered redirect URIs). The link is found again from the single-use `state`.
 */
export const callbackUrlOf = (): string => `${publicBaseUrl()}/connect/callback`;

function authorizationServer(s: OAuthProviderSettings): oauth.AuthorizationServer {
  // The issuer is the authorization endpoint's origin: Google sends `iss` (RFC 9207) as https://accounts.google.com.
  return { issuer: new URL(s.authUrl).origin, authorization_endpoint: s.authUrl, token_endpoint: s.tokenUrl };
}

const clientOf = (s: OAuthProviderSettings): oauth.Client => ({ client_id: s.clientId });
const requestOptions = (s: OAuthProviderSettings) => ({
  // Plain http only for loopback simulators and test servers; production endpoints are https.
  [oauth.allowInsecureRequests]: new URL(s.tokenUrl).protocol === 'http:',
  signal: AbortSignal.timeout(15_000),
});

export interface PkcePair {
  verifier: string;
  challenge: string;
}

export async function newPkcePair(): Promise<PkcePair> {
  const verifier = oauth.generateRandomCodeVerifier();
  return { verifier, challenge: await oauth.calculatePKCECodeChallenge(verifier) };
}

export const newState = (): string => oauth.generateRandomState();

/** The provider's sign-in page for this attempt (state bound to the link, PKCE S256). */
export function authorizationUrl(s: OAuthProviderSettings, input: { redirectUri: string; state: string; codeChallenge: string }): string {
  const url = new URL(s.authUrl);
  url.searchParams.set('client_id', s.clientId);
  url.searchParams.set('redirect_uri', input.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', s.scope);
  url.searchParams.set('state', input.state);
  url.searchParams.set('code_challenge', input.codeChallenge);
  url.searchParams.set('code_challenge_method', 'S256');
  for (const [k, v] of Object.entries(s.extraAuthParams)) url.searchParams.set(k, v);
  return url.toString();
}

export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scope: string | null;
}

function tokensOf(r: oauth.TokenEndpointResponse, now: Date, previousRefresh: string | null = null): ProviderTokens {
  return {
    accessToken: r.access_token,
    // A refresh answer may omit the refresh token: the old one stays valid (RFC 6749 6).
    refreshToken: r.refresh_token ?? previousRefresh,
    expiresAt: typeof r.expires_in === 'number' ? new Date(now.getTime() + r.expires_in * 1000) : null,
    scope: typeof r.scope === 'string' ? r.scope : null,
  };
}

/**
 * Checks the callback (state, error) and exchanges the code for tokens with the PKCE verifier. A provider
 * that cannot be reached is `Upstream`; an answer refusing the grant is `SignInFailed`
 * (src/domain/errors.ts: shown to the customer, never retried).
 */
export async function exchangeCode(
  s: OAuthProviderSettings,
  input: { callbackUrl: URL; expectedState: string; redirectUri: string; codeVerifier: string; clock?: Clock },
): Promise<ProviderTokens> {
  const as = authorizationServer(s);
  const client = clientOf(s);
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, client, input.callbackUrl, input.expectedState);
  } catch (e) {
    if (e instanceof oauth.AuthorizationResponseError) {
      const denied = e.error === 'access_denied';
      throw new SignInFailed(denied ? 'The sign-in was cancelled.' : `The provider refused the sign-in (${e.error}).`, denied ? 'access_denied' : 'provider_error');
    }
    throw new SignInFailed('This sign-in answer does not belong to this link. Please start again.', 'state_mismatch');
  }
  const now = (input.clock ?? systemClock).now();
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.ClientSecretPost(s.clientSecret),
      params,
      input.redirectUri,
      input.codeVerifier,
      requestOptions(s),
    );
    return tokensOf(await oauth.processAuthorizationCodeResponse(as, client, response), now);
  } catch (e) {
    if (e instanceof oauth.ResponseBodyError) {
      throw new SignInFailed(`The provider did not accept the sign-in (${e.error}).`, 'exchange_failed');
    }
    throw new Upstream(`The ${s.provider} sign-in service could not be reached.`, 'provider_unavailable');
  }
}

export async function refreshTokens(s: OAuthProviderSettings, refreshToken: string, clock: Clock = systemClock): Promise<ProviderTokens> {
  const as = authorizationServer(s);
  const client = clientOf(s);
  const now = clock.now();
  try {
    const response = await oauth.refreshTokenGrantRequest(as, client, oauth.ClientSecretPost(s.clientSecret), refreshToken, requestOptions(s));
    return tokensOf(await oauth.processRefreshTokenResponse(as, client, response), now, refreshToken);
  } catch (e) {
    if (e instanceof oauth.ResponseBodyError) {
      throw new Upstream(`${s.provider} refused to refresh the access token (${e.error}); the customer must connect again.`, 'reconnect_required');
    }
    throw new Upstream(`The ${s.provider} token endpoint could not be reached.`, 'provider_unavailable');
  }
}

/** Tokens encrypted together, for the short wait between the callback and the business selection. */
export const sealTokens = (t: ProviderTokens): string =>
  encryptSecret(JSON.stringify({ a: t.accessToken, r: t.refreshToken, e: t.expiresAt?.toISOString() ?? null, s: t.scope }));

export function openTokens(sealed: string): ProviderTokens {
  const v = JSON.parse(decryptSecret(sealed)) as { a: string; r: string | null; e: string | null; s: string | null };
  return { accessToken: v.a, refreshToken: v.r, expiresAt: v.e ? new Date(v.e) : null, scope: v.s };
}

export interface SaveConnectionInput {
  integrationId: number;
  provider: SignInProvider;
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scope: string | null;
}

/** Stores (or replaces) the tokens of a synced integration, encrypted with the app key. */
export async function saveConnection(input: SaveConnectionInput, transaction?: Transaction): Promise<ProviderConnection> {
  const values = {
    provider: input.provider,
    accessTokenEnc: encryptSecret(input.accessToken),
    refreshTokenEnc: input.refreshToken ? encryptSecret(input.refreshToken) : null,
    expiresAt: input.expiresAt,
    scope: input.scope,
  };
  const existing = await ProviderConnection.findByPk(input.integrationId, { transaction });
  if (existing) return existing.update(values, { transaction });
  const integration = await Integration.findByPk(input.integrationId, { transaction });
  if (!integration) throw new NotFound('Integration');
  return ProviderConnection.create({ integrationId: input.integrationId, tenantId: integration.tenantId, ...values }, { transaction });
}

/** Refresh this long before the recorded expiry, so a token does not lapse between the check and the call. */
export const EXPIRY_MARGIN_MS = 60_000;

/**
 * A usable access token of the integration's provider sign-in: the stored one while it has not (nearly)
 * expired, else a fresh one from the token endpoint (the new tokens are stored). The row is locked while
 * refreshing, so two callers refresh once. `Upstream('reconnect_required')` when there is no refresh token
 * or the provider refuses it.
 */
export async function accessTokenFor(integrationId: number, opts: { clock?: Clock } = {}): Promise<string> {
  const clock = opts.clock ?? systemClock;
  const fresh = (c: ProviderConnection) => !c.expiresAt || c.expiresAt.getTime() - EXPIRY_MARGIN_MS > clock.now().getTime();
  const current = await ProviderConnection.findByPk(integrationId);
  if (!current) throw new NotFound('Provider connection');
  if (fresh(current)) return decryptSecret(current.accessTokenEnc);
  return inTransaction({}, async (transaction) => {
    const row = await ProviderConnection.findByPk(integrationId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!row) throw new NotFound('Provider connection');
    // Another caller may have refreshed while we waited for the lock.
    if (fresh(row)) return decryptSecret(row.accessTokenEnc);
    if (!row.refreshTokenEnc) {
      throw new Upstream(`The ${row.provider} access token expired and no refresh token is held; the customer must connect again.`, 'reconnect_required');
    }
    const tokens = await refreshTokens(oauthSettings(row.provider), decryptSecret(row.refreshTokenEnc), clock);
    await row.update(
      {
        accessTokenEnc: encryptSecret(tokens.accessToken),
        refreshTokenEnc: tokens.refreshToken ? encryptSecret(tokens.refreshToken) : row.refreshTokenEnc,
        expiresAt: tokens.expiresAt,
        scope: tokens.scope ?? row.scope,
      },
      { transaction },
    );
    return tokens.accessToken;
  });
}
