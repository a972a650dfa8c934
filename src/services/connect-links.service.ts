import { customerLanguage } from './page-language';
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Op, type Transaction, type WhereOptions } from 'sequelize';
import { publicBaseUrl } from '../config';
import { relayHostOf, relayTagOf, RELAY_MAC_CHARS } from '../crypto/relay-state';
import { mac, macsOf } from '../crypto/secrets';
import { Forbidden, LinkUnavailable, NotFound, SignInFailed, SignInRequired, Upstream, Validation } from '../domain/errors';
import { isTenantOwner } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { ConnectLink, Integration, Location, Tenant } from '../models';
import { platformClient } from '../providers';
import { ProviderRejected, ProviderUnavailable, SIGN_IN_PROVIDERS, type ProviderBusiness, type ReviewPlatformClient, type SignInProvider } from '../providers/types';
import { clockOf, inTransaction, offset, type Page, type PageArgs, type ServiceOptions, tenantScoped } from './common';
import { recordConnectLink } from './agency-audit.service';
import { attachSynced } from './integrations.service';
import {
  authorizationUrl,
  callbackUrlOf,
  exchangeCode,
  newPkcePair,
  newState,
  oauthSettings,
  openTokens,
  saveConnection,
  sealTokens,
  type ProviderTokens,
} from './provider-connections.service';
import { UUID } from '../domain/ids';
import { tenantLinkBase } from './link-domain.service';

/**
 * Connect links (spec: Connect link, States > Connect link): single-use, location-scoped links to the
 * customer-facing page where the customer signs in to Google or Facebook and picks the business, which
 * attaches a synced integration to the link's location.
 */

export const CONNECT_LINK_STATUSES = ['active', 'used', 'expired', 'revoked'] as const;
export type ConnectLinkStatus = (typeof CONNECT_LINK_STATUSES)[number];

/** Connect link TTL (spec: Limits): 1-30 days, default 7. */
export const CONNECT_LINK_TTL_DAYS = { min: 1, max: 30, default: 7 } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

export const isSignInProvider = (value: string): value is SignInProvider =>
  (SIGN_IN_PROVIDERS as readonly string[]).includes(value);

/**
 * The status the timestamps tell at `now`. Used and revoked are final and win over the clock; an unused,
 * unrevoked link whose `expires_at` has passed is expired (so it stays expired even if the clock moved back).
 */
export function connectLinkStatus(
  link: Pick<ConnectLink, 'usedAt' | 'revokedAt' | 'expiresAt'>,
  now: Date,
): ConnectLinkStatus {
  if (link.usedAt) return 'used';
  if (link.revokedAt) return 'revoked';
  if (link.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

/**
 * The customer-facing landing page of a link: `{base}/connect/{token}`, the base being the agency's link base
 * (`tenantLinkBase`: PUBLIC_URL, on the agency's link domain when it has one). The provider's redirect URI stays on
 * PUBLIC_URL (`callbackUrlOf`); the sign-in's browser cookie is on the host the page was opened on, so a sign-in
 * started on the link domain has its callback relayed there (`signInState`, facades/pages/connect.tsx).
 */
export function connectUrlOf(token: string, base: string = publicBaseUrl()): string {
  return `${base}/connect/${encodeURIComponent(token)}`;
}

export interface IssueConnectLinkInput {
  tenantId: number;
  locationId: number;
  provider: SignInProvider;
  /** 1-30, default 7. */
  ttlDays?: number;
}

/** Where clause of the links that are still usable at `now` (not used, not revoked, not expired). */
export const activeWhere = (now: Date) => ({ usedAt: null, revokedAt: null, expiresAt: { [Op.gt]: now } });

/**
 * Issues a link for a location of the tenant (404 `Location` otherwise). Any other active link for the same
 * location and provider is revoked in the same transaction; links of the other provider are untouched.
 * No principal: the agency service (customer creation e-mails) and `createConnectLink` (REST, GraphQL) decide
 * who may call it. The location row is locked so two issues for one location cannot both stay active.
 */
export async function issueConnectLink(input: IssueConnectLinkInput, opts: ServiceOptions = {}): Promise<ConnectLink> {
  if (!isSignInProvider(input.provider)) {
    throw new Validation({ provider: ['The selected provider is invalid.'] });
  }
  const ttlDays = input.ttlDays ?? CONNECT_LINK_TTL_DAYS.default;
  if (!Number.isInteger(ttlDays) || ttlDays < CONNECT_LINK_TTL_DAYS.min || ttlDays > CONNECT_LINK_TTL_DAYS.max) {
    throw new Validation({
      ttl_days: [`The ttl days field must be between ${CONNECT_LINK_TTL_DAYS.min} and ${CONNECT_LINK_TTL_DAYS.max}.`],
    });
  }
  const now = clockOf(opts).now();
  return inTransaction(opts, async (transaction: Transaction) => {
    const location = await Location.findOne({
      where: { id: input.locationId, tenantId: input.tenantId },
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    if (!location) throw new NotFound('Location');
    await ConnectLink.update(
      { revokedAt: now },
      { where: { locationId: location.id, provider: input.provider, ...activeWhere(now) }, transaction },
    );
    return ConnectLink.create(
      {
        token: randomUUID(),
        tenantId: location.tenantId,
        customerId: location.customerId,
        locationId: location.id,
        provider: input.provider,
        expiresAt: new Date(now.getTime() + ttlDays * DAY_MS),
        createdAt: now,
        updatedAt: now,
      },
      { transaction },
    );
  });
}

// ---- agency API (tenant owner) ------------------------------------------------------------------------

/** Connect links are the agency's: only a tenant owner manages them (the agency facade takes agency tokens only). */
function assertTenantOwner(p: Principal): void {
  if (!isTenantOwner(p)) throw new Forbidden('Only the agency (tenant owner) can manage connect links.', 'tenant_owner_required');
}

function checkProvider(value: string): SignInProvider {
  if (!isSignInProvider(value)) throw new Validation({ provider: ['The selected provider is invalid. It must be google or facebook.'] });
  return value;
}

export async function createConnectLink(
  p: Principal,
  input: { provider: string; locationId: number; ttlDays?: number | null },
  opts: ServiceOptions = {},
): Promise<ConnectLink> {
  assertTenantOwner(p);
  const provider = checkProvider(input.provider);
  return inTransaction(opts, async (transaction) => {
    const link = await issueConnectLink({ tenantId: p.tenantId, locationId: input.locationId, provider, ttlDays: input.ttlDays ?? undefined }, { ...opts, transaction });
    await recordConnectLink(p, 'connect_link.created', link, { ...opts, transaction });
    return link;
  });
}

export interface ConnectLinkFilter extends PageArgs {
  locationId?: number | null;
  provider?: string | null;
  /** true: only usable links; false: only used, revoked or expired ones. */
  active?: boolean | null;
}

export async function listConnectLinks(p: Principal, f: ConnectLinkFilter, opts: ServiceOptions = {}): Promise<Page<ConnectLink>> {
  assertTenantOwner(p);
  const now = clockOf(opts).now();
  const where: WhereOptions<ConnectLink> & Record<string | symbol, unknown> = tenantScoped(p);
  if (f.locationId != null) where.locationId = f.locationId;
  if (f.provider != null) where.provider = checkProvider(f.provider);
  if (f.active === true) Object.assign(where, activeWhere(now));
  if (f.active === false) {
    where[Op.or] = [{ usedAt: { [Op.ne]: null } }, { revokedAt: { [Op.ne]: null } }, { expiresAt: { [Op.lte]: now } }];
  }
  const { rows, count } = await ConnectLink.findAndCountAll({
    where,
    order: [
      ['createdAt', 'DESC'],
      ['token', 'DESC'],
    ],
    ...offset(f),
    transaction: opts.transaction,
  });
  return { items: rows, total: count, page: f.page, perPage: f.perPage };
}

async function ownLink(p: Principal, token: string, transaction?: Transaction, lock = false): Promise<ConnectLink> {
  assertTenantOwner(p);
  if (!UUID.test(token)) throw new NotFound('Connect link');
  const link = await ConnectLink.findOne({
    where: { token: token.toLowerCase(), ...tenantScoped(p) },
    transaction,
    lock: lock && transaction ? transaction.LOCK.UPDATE : undefined,
  });
  if (!link) throw new NotFound('Connect link');
  return link;
}

export const getConnectLink = (p: Principal, token: string, opts: ServiceOptions = {}): Promise<ConnectLink> =>
  ownLink(p, token, opts.transaction);

/**
 * Revokes an active link (`revoked_at` set). A used, revoked or expired link is left as it is and returned
 * (no-op, 200): expired is as final as revoked, and stamping `revoked_at` on it would rewrite its history.
 */
export async function revokeConnectLink(p: Principal, token: string, opts: ServiceOptions = {}): Promise<ConnectLink> {
  const now = clockOf(opts).now();
  return inTransaction(opts, async (transaction) => {
    const link = await ownLink(p, token, transaction, true);
    if (connectLinkStatus(link, now) !== 'active') return link;
    const revoked = await link.update({ revokedAt: now, oauthState: null, pkceVerifier: null, selectionNonce: null, pendingCredentials: null }, { transaction });
    await recordConnectLink(p, 'connect_link.revoked', revoked, { ...opts, transaction });
    return revoked;
  });
}

// ---- the customer-facing connect page (the link token is the credential) --------------------------------

// LinkUnavailable, SignInRequired and SignInFailed are domain errors (src/domain/errors.ts): the page's GraphQL
// operations carry them to facades/pages/connect.tsx.
export { LinkUnavailable, SignInRequired };

export interface LinkView {
  link: ConnectLink;
  status: ConnectLinkStatus;
  tenant: Tenant;
  location: Location;
  /** The language of the location's account (else the agency's): the pages speak it. */
  language: string;
}

async function linkByToken(token: string, transaction?: Transaction, lock = false): Promise<ConnectLink> {
  if (!UUID.test(token)) throw new LinkUnavailable('unknown');
  const link = await ConnectLink.findByPk(token.toLowerCase(), {
    transaction,
    lock: lock && transaction ? transaction.LOCK.UPDATE : undefined,
  });
  if (!link) throw new LinkUnavailable('unknown');
  return link;
}

/** What the landing page shows: the link with its status, the agency's brand and the location. */
export async function viewLink(token: string, opts: ServiceOptions = {}): Promise<LinkView> {
  const link = await linkByToken(token, opts.transaction);
  const [tenant, location] = await Promise.all([
    Tenant.findByPk(link.tenantId, { transaction: opts.transaction }),
    Location.findByPk(link.locationId, { transaction: opts.transaction }),
  ]);
  if (!tenant || !location) throw new LinkUnavailable('unknown');
  const language = await customerLanguage(location.customerId, tenant, opts);
  return { link, status: connectLinkStatus(link, clockOf(opts).now()), tenant, location, language };
}

function assertActive(link: ConnectLink, now: Date): void {
  const status = connectLinkStatus(link, now);
  if (status !== 'active') throw new LinkUnavailable(status);
}

/** CSRF token of the landing page's start form: only a page that showed the link can start its sign-in. */
export const startFormToken = (token: string): string => mac('connect-link-start', token.toLowerCase());

/** Whether `csrf` is the start-form token of `token` under any key of the ring (a page shown before a rotation). */
export const isStartFormToken = (token: string, csrf: string): boolean =>
  macsOf('connect-link-start', token.toLowerCase()).some((m) => sameToken(csrf, m));

export const sameToken = (a: string, b: string): boolean => {
  const x = Buffer.from(mac('compare', a));
  const y = Buffer.from(mac('compare', b));
  return timingSafeEqual(x, y);
};

/** `connect_links.oauth_state` is VARCHAR(128). */
const STATE_MAX_CHARS = 128;
/** The relay MAC in a state: its first 128 bits (22 base64url characters). */
/** The least of the random part: 128 bits. */
const STATE_RANDOM_MIN_CHARS = 22;

/**
 * The OAuth state of a sign-in attempt. On PUBLIC_URL's host it is the random value alone (base64url). When the
 * agency's link base is on another host (its link domain), the page, and with it the browser's sign-in cookie, is
 * there, while the provider calls back on PUBLIC_URL: the state then names that host, signed, as
 * `<random>.<host>.<MAC of "<random>.<host>", 22 characters>` (neither the random part nor the MAC has a dot), and the
 * callback page relays the browser there (never to a host it did not sign). The whole string is the state: stored on
 * the link, sent and compared as one. A link base fits 52 characters (MAX_LINK_BASE_CHARS), so its host does too and
 * the state stays within the column with the random part whole; a longer host would shorten the random part, to 128
 * bits at least.
 */
export function signInState(random: string, linkBase: string, publicBase: string = publicBaseUrl()): string {
  const host = new URL(linkBase).hostname.toLowerCase();
  if (host === new URL(publicBase).hostname.toLowerCase()) return random;
  const room = STATE_MAX_CHARS - host.length - RELAY_MAC_CHARS - 2;
  const tagged = `${random.slice(0, Math.max(room, STATE_RANDOM_MIN_CHARS))}.${host}`;
  return `${tagged}.${relayTagOf(tagged)}`;
}

/**
 * The origin a sign-in's callback is relayed to (`signInState`: PUBLIC_URL with the agency's link-domain host, scheme
 * and port kept), or null for a state that names no host or whose tag the platform did not sign. The simulated
 * providers' sign-in page admits it in its `form-action` (src/providers/oauth-simulator.ts): Chrome checks every hop
 * of the form's redirects, the callback on PUBLIC_URL and the relay to the agency's host alike. The connect page reads
 * the same signed host before it relays (`relayHostOf`, src/crypto/relay-state.ts).
 */
export function callbackRelayOrigin(state: string, publicBase: string = publicBaseUrl()): string | null {
  const host = relayHostOf(state);
  if (!host) return null;
  const url = new URL(publicBase);
  url.hostname = host;
  return url.origin;
}

/**
 * Starts a sign-in attempt: sets `last_started_at`, stores a fresh state (`signInState`) and PKCE verifier on the
 * link (an earlier unfinished attempt is superseded), and answers the provider's authorization URL. The connect page
 * binds the attempt to the browser with a cookie of its state (facades/pages/connect.tsx).
 */
export async function startSignIn(token: string, opts: ServiceOptions = {}): Promise<string> {
  const now = clockOf(opts).now();
  const pkce = await newPkcePair();
  return inTransaction(opts, async (transaction) => {
    const link = await linkByToken(token, transaction, true);
    assertActive(link, now);
    const state = signInState(newState(), await tenantLinkBase(link.tenantId, { transaction }));
    await link.update(
      { lastStartedAt: now, oauthState: state, pkceVerifier: pkce.verifier, selectionNonce: null, pendingCredentials: null },
      { transaction },
    );
    return authorizationUrl(oauthSettings(link.provider), {
      redirectUri: callbackUrlOf(),
      state,
      codeChallenge: pkce.challenge,
    });
  });
}

/** The link a provider callback belongs to, found by its single-use OAuth `state` (the redirect URI carries no token). */
export async function linkTokenForState(state: string): Promise<string> {
  const link = state ? await ConnectLink.findOne({ where: { oauthState: state } }) : null;
  if (!link) throw new SignInFailed('This sign-in answer does not belong to any open connect link. Please open your link and start again.', 'state_mismatch');
  return link.token;
}

/**
 * The link whose open sign-in attempt has `state`, read only (nothing is consumed or changed), or null: what a refused
 * callback's page wears (the agency's brand, the account's language) when the state still names a link, as it does for
 * a provider's answer that reached another browser than the one that started the sign-in.
 */
export async function viewLinkOfState(state: string, opts: ServiceOptions = {}): Promise<LinkView | null> {
  const link = state ? await ConnectLink.findOne({ attributes: ['token'], where: { oauthState: state }, transaction: opts.transaction }) : null;
  if (!link) return null;
  try {
    return await viewLink(link.token, opts);
  } catch (e) {
    if (e instanceof LinkUnavailable) return null;
    throw e;
  }
}

/**
 * The provider sent the customer back. The state must be the one this link stored (it is consumed, so a
 * callback works once); the code is exchanged with the PKCE verifier; the tokens wait encrypted on the link
 * for the business selection, and `completed_oauth_at` is set.
 */
export async function completeSignIn(token: string, callbackUrl: URL, opts: ServiceOptions = {}): Promise<void> {
  const clock = clockOf(opts);
  const link = await linkByToken(token);
  assertActive(link, clock.now());
  const state = callbackUrl.searchParams.get('state') ?? '';
  if (!link.oauthState || !link.pkceVerifier || !sameToken(state, link.oauthState)) {
    throw new SignInFailed('This sign-in answer does not belong to this link. Please start again.', 'state_mismatch');
  }
  const expectedState = link.oauthState;
  const verifier = link.pkceVerifier;
  // Claim the state atomically: of two callbacks carrying it, one proceeds.
  const [claimed] = await ConnectLink.update(
    { oauthState: null, pkceVerifier: null },
    { where: { token: link.token, oauthState: expectedState } },
  );
  if (claimed !== 1) throw new SignInFailed('This sign-in answer was already used. Please start again.', 'state_mismatch');
  const tokens = await exchangeCode(oauthSettings(link.provider), {
    callbackUrl,
    expectedState,
    redirectUri: callbackUrlOf(),
    codeVerifier: verifier,
    clock,
  });
  await inTransaction(opts, async (transaction) => {
    const locked = await linkByToken(token, transaction, true);
    assertActive(locked, clock.now());
    await locked.update(
      { completedOauthAt: clock.now(), pendingCredentials: sealTokens(tokens), selectionNonce: randomBytes(24).toString('base64url') },
      { transaction },
    );
  });
}

export interface SelectionView extends LinkView {
  businesses: ProviderBusiness[];
  nonce: string;
}

type PlatformClientFactory = (provider: SignInProvider) => ReviewPlatformClient;

async function pendingTokensOf(link: ConnectLink): Promise<ProviderTokens> {
  if (!link.completedOauthAt || !link.pendingCredentials || !link.selectionNonce) throw new SignInRequired();
  return openTokens(link.pendingCredentials);
}

/** What the signed-in account manages; a platform that refuses or cannot be reached is `Upstream` (the page's 502). */
async function managedBusinesses(provider: SignInProvider, tokens: ProviderTokens, opts: { platformClient?: PlatformClientFactory }): Promise<ProviderBusiness[]> {
  try {
    return await (opts.platformClient ?? platformClient)(provider).listBusinesses(tokens.accessToken);
  } catch (e) {
    if (e instanceof ProviderRejected) throw new Upstream(e.message, 'provider_rejected');
    if (e instanceof ProviderUnavailable) throw new Upstream(e.message, 'provider_unavailable');
    throw e;
  }
}

/** The businesses (Google locations, Facebook pages) the signed-in account manages, for the selection form. */
export async function selectionFor(
  token: string,
  opts: ServiceOptions & { platformClient?: PlatformClientFactory } = {},
): Promise<SelectionView> {
  const view = await viewLink(token, opts);
  if (view.status !== 'active') throw new LinkUnavailable(view.status);
  const tokens = await pendingTokensOf(view.link);
  const businesses = await managedBusinesses(view.link.provider, tokens, opts);
  return { ...view, businesses, nonce: view.link.selectionNonce! };
}

/**
 * The customer picked a business: the synced integration is attached to the link's location, the tokens are
 * saved to it (encrypted), and the link is used, all in one transaction. The chosen business must be one the
 * account manages (asked again from the platform), and the form must carry the link's selection nonce.
 */
export async function selectBusiness(
  token: string,
  input: { nonce: string; externalId: string },
  opts: ServiceOptions & { platformClient?: PlatformClientFactory } = {},
): Promise<{ integration: Integration; business: ProviderBusiness; view: LinkView }> {
  const clock = clockOf(opts);
  const view = await viewLink(token, opts);
  if (view.status !== 'active') throw new LinkUnavailable(view.status);
  const tokens = await pendingTokensOf(view.link);
  if (!sameToken(input.nonce, view.link.selectionNonce!)) throw new SignInRequired();
  const businesses = await managedBusinesses(view.link.provider, tokens, opts);
  const business = businesses.find((b) => b.externalId === input.externalId);
  if (!business) throw new Validation({ business: ['Choose one of the listed businesses.'] });
  const integration = await inTransaction(opts, async (transaction) => {
    const link = await linkByToken(token, transaction, true);
    assertActive(link, clock.now());
    if (!link.selectionNonce || !sameToken(input.nonce, link.selectionNonce)) throw new SignInRequired();
    const location = await Location.findByPk(link.locationId, { transaction });
    if (!location) throw new LinkUnavailable('unknown');
    const created = await attachSynced(location, link.provider, business.externalId, transaction);
    await saveConnection({ integrationId: created.id, provider: link.provider, ...tokens }, transaction);
    await link.update(
      { usedAt: clock.now(), integrationId: created.id, pendingCredentials: null, selectionNonce: null, oauthState: null, pkceVerifier: null },
      { transaction },
    );
    return created;
  });
  return { integration, business, view };
}
