import { timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { Seams } from '../../src/context';
import { publicBaseUrl } from '../../src/config';
import { relayHostOf } from '../../src/crypto/relay-state';
import { mac, macsOf } from '../../src/crypto/secrets';
import type { Clock } from '../../src/domain/clock';
import { DomainError, SIGN_IN_FAILURES, type SignInFailure } from '../../src/domain/errors';
import { t, translator, type MessageKey } from '../../src/i18n';
import { edgeContext } from '../shared/auth';
import { execute, failureOf, type Operation } from '../shared/execute';
import { graphql } from '../shared/graphql';
import type { ConnectPageFieldsFragment } from '../shared/graphql/graphql';
import { LandingPage, MessagePage, providerLabels, SelectionPage, SuccessPage, type BusinessChoice, type SignInProvider } from './connect.views';
import { NO_BRAND, type Brand } from './layout';
import { formReadErrors, sendPage } from './respond';

/**
 * The customer-facing connect page, `/connect/{token}` (outside /api: HTML for a person, not JSON):
 *
 *   GET  /connect/{token}            landing page, branded with the agency, with a "Sign in" button
 *   POST /connect/{token}/start      stores state + PKCE verifier, sets the sign-in cookie, 303 to the provider
 *   GET  /connect/callback           with the browser's sign-in cookie of its state: finds the link by the state,
 *                                    exchanges the code, 303 to the selection (or relays it to the link domain)
 *   GET  /connect/{token}/select     the businesses the signed-in account manages
 *   POST /connect/{token}/select     attaches the chosen one to the link's location; success page
 *
 * The link token in the path is the credential (unguessable, single-use). CSRF: the start form carries a MAC of
 * the token, the selection form the link's selection nonce (made when the sign-in completed), and the callback
 * the OAuth state stored on the link; a cross-site page knows none of them. The sign-in is bound to the browser that
 * started it (`SIGN_IN_COOKIE`): whoever holds a link could otherwise start its sign-in, hand the provider's
 * authorization URL to a business owner, and take the owner's business once the owner consented. Every action is one GraphQL operation
 * (`connectPage`, `startConnectSignIn`, `completeConnectSignIn`, `connectSelection`, `selectConnectBusiness`) taking
 * the token (the callback: the state) as its argument; a failure page reads the link's brand with `connectPage`, or,
 * for a callback refused before it names its link, with `connectBrandForState` (read only).
 */
export interface ConnectPageDeps extends Seams {
  schema: GraphQLSchema;
  logger: Logger;
  clock?: Clock;
}

graphql(`fragment ConnectPageFields on ConnectPage { brand { name logoUrl language } provider locationName status signedIn startCsrf }`);
const LANDING = graphql(`query ConnectPage($token: String!) { page: connectPage(token: $token) { ...ConnectPageFields } }`);
const START = graphql(`mutation StartConnectSignIn($token: String!, $csrf: String!) { url: startConnectSignIn(token: $token, csrf: $csrf) }`);
const CALLBACK = graphql(`mutation CompleteConnectSignIn($state: String!, $callbackUrl: String!) {
  signIn: completeConnectSignIn(state: $state, callbackUrl: $callbackUrl) { token failure { code reason message } }
}`);
const STATE_BRAND = graphql(`query ConnectBrandForState($state: String!) { brand: connectBrandForState(state: $state) { name logoUrl language } }`);
const SELECTION = graphql(`query ConnectSelection($token: String!) {
  selection: connectSelection(token: $token) { page { ...ConnectPageFields } businesses { externalId name address } nonce }
}`);
const SELECT = graphql(`mutation SelectConnectBusiness($token: String!, $nonce: String!, $business: String!) {
  selected: selectConnectBusiness(token: $token, nonce: $nonce, business: $business) { page { ...ConnectPageFields } businessName integrationId reviewSyncFailure }
}`);

type LinkPage = ConnectPageFieldsFragment;

/** A domain error of a step: thrown by the operation, or the callback's `failure` (it knows its link). */
interface Failure {
  code: string;
  reason?: string | null;
  message: string;
}

const refusalOf = (err: unknown): Failure | null => (err instanceof DomainError ? err : null);

/** The link's own token, as the service stores it (UUIDs in lower case): the page's links and forms use it. */
const linkToken = (token: string) => token.toLowerCase();

const paths = (token: string) => {
  const base = `/connect/${encodeURIComponent(token)}`;
  return { landing: base, start: `${base}/start`, select: `${base}/select` };
};

const providerOf = (page: LinkPage): SignInProvider => (page.provider === 'facebook' ? 'facebook' : 'google');

// ---- the browser's sign-in cookie --------------------------------------------------------------------------------

/**
 * The sign-in cookie: `/start` adds a MAC (under the app key) of the attempt's OAuth state, `/callback` completes a
 * state only in a browser that holds its MAC, and removes it (the cookie goes with the last). HttpOnly, SameSite=Lax
 * (sent on the provider's top-level GET back to the callback), Path=/connect, host-only, Secure when PUBLIC_URL is
 * https; a few attempts at once (two links open in one browser), the newest first; a day at most.
 */
const SIGN_IN_COOKIE = 'connect_sign_in';
const SIGN_IN_PURPOSE = 'connect-sign-in-browser';
const SIGN_IN_ATTEMPTS = 4;
const SIGN_IN_MAX_AGE_MS = 24 * 60 * 60 * 1000;
const ATTEMPT = /^[A-Za-z0-9_-]{43}$/;

const cookieOptions = () => ({ httpOnly: true, sameSite: 'lax' as const, path: '/connect', secure: publicBaseUrl().startsWith('https:') });

/** The attempts (MACs of states) of the browser's sign-in cookie; every cookie of that name counts. */
function attemptsOf(req: Request): string[] {
  const found: string[] = [];
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== SIGN_IN_COOKIE) continue;
    for (const a of part.slice(at + 1).trim().split('.')) if (ATTEMPT.test(a) && !found.includes(a)) found.push(a);
  }
  return found;
}

function setAttempts(res: Response, attempts: string[]): void {
  if (attempts.length === 0) res.clearCookie(SIGN_IN_COOKIE, cookieOptions());
  else res.cookie(SIGN_IN_COOKIE, attempts.slice(0, SIGN_IN_ATTEMPTS).join('.'), { ...cookieOptions(), maxAge: SIGN_IN_MAX_AGE_MS });
}

const sameMac = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The browser's attempt of `state` (its MAC under any key of the ring: a sign-in that spans a rotation), or null. */
const attemptOf = (attempts: string[], state: string): string | null => {
  if (!state) return null;
  const macs = macsOf(SIGN_IN_PURPOSE, state);
  return attempts.find((a) => macs.some((m) => sameMac(a, m))) ?? null;
};

/** A sign-in answer that reached a browser without the sign-in cookie of its state: it completes nothing. */
const NOT_THIS_BROWSER: Failure = {
  code: 'FORBIDDEN',
  reason: 'state_mismatch',
  message: 'The sign-in answer reached a browser that did not start this sign-in (no sign-in cookie of its state).',
};

// ---- the callback relay to the agency's link domain -------------------------------------------------------------

/** The query parameter of a relayed callback: a callback is relayed once at most. */
const RELAYED = 'relayed';
/** PUBLIC_URL with `host` (scheme, port and path kept): the agency's link base, as `linkBaseOf` makes it. */
function baseOn(host: string): string {
  const url = new URL(publicBaseUrl());
  url.hostname = host;
  return url.toString().replace(/\/+$/, '');
}

/** The business picker of a link, with `error` above the list when the last choice was refused. */
const selection = (token: string, view: { page: LinkPage; businesses: BusinessChoice[]; nonce: string }, error?: string) => {
  const p = paths(linkToken(token));
  return (
    <SelectionPage
      brand={view.page.brand}
      provider={providerOf(view.page)}
      locationName={view.page.locationName}
      businesses={view.businesses}
      action={p.select}
      nonce={view.nonce}
      restartAction={p.start}
      csrf={view.page.startCsrf}
      error={error}
    />
  );
};

const UNAVAILABLE: Record<string, { status: number; title: MessageKey; message: MessageKey }> = {
  unknown: { status: 404, title: 'common.linkNotFound', message: 'connect.unknownText' },
  used: { status: 410, title: 'connect.usedTitle', message: 'connect.usedText' },
  expired: { status: 410, title: 'connect.expiredTitle', message: 'connect.expiredText' },
  revoked: { status: 410, title: 'connect.revokedTitle', message: 'connect.revokedText' },
};

/**
 * What a sign-in that did not complete says, by its reason (src/domain/errors.ts); `state_mismatch` of no link in the
 * request says `connect.otherBrowserText` when its state still names an open link (the answer reached another browser
 * than the one that started the sign-in), `connect.strayText` when it names none.
 */
const SIGN_IN_FAILURE_TEXT: Record<SignInFailure, MessageKey> = {
  access_denied: 'connect.cancelledText',
  provider_error: 'connect.refusedText',
  exchange_failed: 'connect.notAcceptedText',
  state_mismatch: 'connect.mismatchText',
};

const isSignInFailure = (reason: string): reason is SignInFailure => (SIGN_IN_FAILURES as readonly string[]).includes(reason);

/** A link that cannot be used (any more): 404 (unknown) or 410, with why. */
function unavailable(res: Response, brand: Brand, status: string): void {
  const u = UNAVAILABLE[status] ?? UNAVAILABLE.unknown;
  const tr = translator(brand.language);
  sendPage(res, u.status, <MessagePage brand={brand} title={tr.t(u.title)} message={tr.t(u.message)} />);
}

export function connectPages(deps: ConnectPageDeps): Router {
  const router = express.Router();
  const seams: Seams = { platformClient: deps.platformClient, ensureReviewSync: deps.ensureReviewSync };
  const run = <T,>(req: Request, document: Operation<T>, variables: Record<string, unknown>): Promise<T> =>
    execute(deps.schema, document, variables, edgeContext(req, deps.clock, seams));

  router.use((req: Request, res: Response, next: NextFunction) => {
    // The token is in the URL: never leak it through Referer; never cache or frame the page.
    res.set({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    });
    // On another host than PUBLIC_URL's (the agency's link domain), the sign-in form's redirects may reach the callback
    // on PUBLIC_URL at once (a provider that answers without a page of its own, the simulators' sign-in page there),
    // and Chrome checks every hop of a form's redirects against form-action.
    const csp = res.getHeader('Content-Security-Policy');
    const publicOrigin = new URL(publicBaseUrl()).origin;
    if (typeof csp === 'string' && req.hostname !== new URL(publicOrigin).hostname && !csp.split(/[ ;]/).includes(publicOrigin)) {
      res.setHeader('Content-Security-Policy', csp.replace(/form-action ([^;]*)/, `form-action $1 ${publicOrigin}`));
    }
    next();
  });
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }));

  /**
   * Every failure as a page with the right status, in the link's brand when `token` names a link: a domain error
   * (`failure`) by its code and reason; anything else (`err`) is logged and shown without detail.
   */
  const fail = async (req: Request, res: Response, token: string | undefined, failure: Failure | null, err?: unknown, known?: Brand | null): Promise<void> => {
    let link: LinkPage | null = null;
    try {
      if (token) link = (await run(req, LANDING, { token })).page;
    } catch {
      // unknown link: the neutral brand
    }
    const brand = link?.brand ?? known ?? NO_BRAND;
    const tr = translator(brand.language);
    const retry = token && link ? { url: paths(token).start, label: tr.t('connect.tryAgain'), csrf: link.startCsrf } : undefined;
    const reason = failure?.reason ?? '';
    if (failure?.code === 'NOT_FOUND' && reason.startsWith('link_')) return unavailable(res, brand, reason.slice('link_'.length));
    if (reason === 'sign_in_required' && token) return void res.redirect(303, paths(token).landing);
    if (failure?.code === 'FORBIDDEN' && isSignInFailure(reason)) {
      // The page speaks the link's language by the failure's reason; the service's (English) words go to the log only.
      req.log?.info({ err: { code: failure.code, reason, message: failure.message } }, 'connect page: sign-in did not complete');
      const title = tr.t(reason === 'access_denied' ? 'connect.cancelledTitle' : 'connect.incompleteTitle');
      // A state of no link in this request: an open link's attempt that reached another browser (`known`: its brand),
      // or one that names no open link at all.
      const text = tr.t(reason === 'state_mismatch' && !link ? (known ? 'connect.otherBrowserText' : 'connect.strayText') : SIGN_IN_FAILURE_TEXT[reason]);
      return sendPage(res, 400, <MessagePage brand={brand} title={title} message={text} action={retry} />);
    }
    if (failure?.code === 'UPSTREAM') {
      req.log?.warn({ err: { code: failure.code, reason: failure.reason, message: failure.message } }, 'connect page: provider failure');
      return sendPage(res, 502, <MessagePage brand={brand} title={tr.t('connect.providerDownTitle')} message={tr.t('connect.providerDownText')} action={retry} />);
    }
    (req.log ?? deps.logger).error({ err: failureOf(err) }, 'connect page failed');
    return sendPage(res, 500, <MessagePage brand={brand} title={tr.t('common.somethingWrong')} message={tr.t('common.tryLater')} />);
  };

  const page = (handler: (req: Request, res: Response, token: string) => Promise<void>) => async (req: Request, res: Response) => {
    const token = String(req.params.token);
    try {
      await handler(req, res, token);
    } catch (err) {
      await fail(req, res, token, refusalOf(err), err);
    }
  };

  /** The brand of the link whose open attempt has `state` (nothing changes), or null: the neutral page's then. */
  const brandOfState = async (req: Request, state: string): Promise<Brand | null> => {
    if (!state) return null;
    try {
      return (await run(req, STATE_BRAND, { state })).brand;
    } catch (err) {
      (req.log ?? deps.logger).warn({ err: failureOf(err) }, 'connect page: brand of a refused callback not read');
      return null;
    }
  };

  // Before `/:token`: the one registered redirect URI; the state says which link it belongs to.
  router.get('/callback', async (req: Request, res: Response) => {
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const relayed = req.query[RELAYED] !== undefined;
    const attempts = attemptsOf(req);
    const attempt = attemptOf(attempts, state);
    if (!attempt) {
      // Not this browser's attempt, or the page (and the cookie) is on the agency's link domain while the provider
      // called PUBLIC_URL: relay it there once, same path and query, to the host the platform signed into the state.
      const host = relayed ? null : relayHostOf(state);
      if (host && host !== (req.hostname ?? '').toLowerCase()) {
        const query = req.originalUrl.slice(req.originalUrl.indexOf('?') + 1);
        return void res.redirect(303, `${baseOn(host)}/connect/callback?${query}&${RELAYED}=1`);
      }
      // The link is not named: this browser never opened it, and a "Try again" here would start it in this browser.
      // The state may still be a link's open attempt (the provider's answer reached another browser, an app's own
      // browser on a phone): the page then wears that link's brand and speaks its account's language, read only.
      return fail(req, res, undefined, NOT_THIS_BROWSER, undefined, await brandOfState(req, state));
    }
    // The attempt ends here, whatever the answer: its state is consumed (or was not the link's).
    setAttempts(res, attempts.filter((a) => a !== attempt));
    const callbackUrl = new URL(req.originalUrl, publicBaseUrl());
    if (relayed) callbackUrl.searchParams.delete(RELAYED); // what the provider sent
    let signIn: { token: string; failure: Failure | null };
    try {
      ({ signIn } = await run(req, CALLBACK, { state, callbackUrl: callbackUrl.href }));
    } catch (err) {
      return fail(req, res, undefined, refusalOf(err), err); // no open link has this state
    }
    if (signIn.failure) return fail(req, res, signIn.token, signIn.failure);
    res.redirect(303, paths(signIn.token).select);
  });

  router.get(
    '/:token',
    page(async (req, res, token) => {
      const { page: view } = await run(req, LANDING, { token });
      if (view.status !== 'active') return unavailable(res, view.brand, view.status);
      const p = paths(linkToken(token));
      sendPage(
        res,
        200,
        <LandingPage
          brand={view.brand}
          provider={providerOf(view)}
          locationName={view.locationName}
          startAction={p.start}
          csrf={view.startCsrf}
          continueUrl={view.signedIn ? p.select : null}
        />,
      );
    }),
  );

  router.post(
    '/:token/start',
    page(async (req, res, token) => {
      const csrf = typeof req.body?.csrf === 'string' ? req.body.csrf : '';
      // A form from elsewhere (or a stale one) starts nothing: back to the page, which carries a good one.
      const { url } = await run(req, START, { token, csrf });
      const state = url ? new URL(url).searchParams.get('state') : null;
      // This browser's proof of the attempt, for the callback.
      if (state) setAttempts(res, [mac(SIGN_IN_PURPOSE, state), ...attemptsOf(req)]);
      res.redirect(303, url ?? paths(token).landing);
    }),
  );

  router.get(
    '/:token/select',
    page(async (req, res, token) => {
      sendPage(res, 200, selection(token, (await run(req, SELECTION, { token })).selection));
    }),
  );

  router.post(
    '/:token/select',
    page(async (req, res, token) => {
      const nonce = typeof req.body?.nonce === 'string' ? req.body.nonce : '';
      const business = typeof req.body?.business === 'string' ? req.body.business : '';
      let selected;
      try {
        ({ selected } = await run(req, SELECT, { token, nonce, business }));
      } catch (err) {
        if (!(err instanceof DomainError && err.code === 'VALIDATION')) throw err;
        const view = (await run(req, SELECTION, { token })).selection;
        const tr = translator(view.page.brand.language);
        return sendPage(res, 422, selection(token, view, tr.t('connect.chooseListed', { things: providerLabels(tr, providerOf(view.page)).things })));
      }
      if (selected.reviewSyncFailure) {
        (req.log ?? deps.logger).warn({ err: { message: selected.reviewSyncFailure }, integrationId: selected.integrationId }, 'review sync not started');
      }
      sendPage(
        res,
        200,
        <SuccessPage brand={selected.page.brand} provider={providerOf(selected.page)} businessName={selected.businessName} locationName={selected.page.locationName} />,
      );
    }),
  );

  // A form body too large or unreadable, or a path that cannot be decoded: a page with its status (people read these
  // answers), never a stack.
  router.use(
    formReadErrors(
      () => <MessagePage brand={NO_BRAND} title={t('en', 'common.formUnreadable')} message={t('en', 'common.goBack')} />,
      () => <MessagePage brand={NO_BRAND} title={t('en', 'common.linkUnreadable')} message={t('en', 'common.linkUnreadableText')} />,
    ),
  );

  return router;
}
