import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { ensureReviewSync as startReviewSync, integrationLabel, type IntegrationLabel } from '../../workflows/client';
import { publicBaseUrl } from '../config';
import type { Clock } from '../domain/clock';
import { DomainError } from '../domain/errors';
import { ProviderRejected, ProviderUnavailable, type ReviewPlatformClient, type SignInProvider } from '../providers/types';
import * as links from '../services/connect-links.service';
import { SignInFailed } from '../services/provider-connections.service';
import { LandingPage, MessagePage, providerLabels, SelectionPage, SuccessPage } from '../../facades/pages/connect.views';
import { NO_BRAND, type Brand } from '../../facades/pages/layout';
import { formReadErrors, sendPage } from '../../facades/pages/respond';
import { t, translator, type MessageKey } from '../i18n';

/**
 * The customer-facing connect page, `/connect/{token}` (outside /api: HTML for a person, not JSON):
 *
 *   GET  /connect/{token}            landing page, branded with the agency, with a "Sign in" button
 *   POST /connect/{token}/start      stores state + PKCE verifier, 303 to the provider's sign-in
 *   GET  /connect/callback           finds the link by its state, exchanges the code, 303 to the selection
 *   GET  /connect/{token}/select     the businesses the signed-in account manages
 *   POST /connect/{token}/select     attaches the chosen one to the link's location; success page
 *
 * The link token in the path is the credential (unguessable, single-use). CSRF: the start form carries a MAC of
 * the token, the selection form the link's selection nonce (made when the sign-in completed), and the callback
 * the OAuth state stored on the link; a cross-site page knows none of them.
 */
export interface ConnectPageDeps {
  logger: Logger;
  clock?: Clock;
  /** The platform API client (default: `platformClient` of src/providers). */
  platformClient?: (provider: SignInProvider) => ReviewPlatformClient;
  /** Starts the periodic review sync of a new integration (default: `ensureReviewSync` of workflows/client). */
  ensureReviewSync?: (integrationId: number, label?: IntegrationLabel) => Promise<unknown>;
}

type Handler = (req: Request, res: Response) => Promise<void>;

const paths = (token: string) => {
  const base = `/connect/${encodeURIComponent(token)}`;
  return { landing: base, start: `${base}/start`, select: `${base}/select` };
};

const brandOf = (view: { tenant: { brandName: string; name: string; logoUrl: string | null }; language: string }): Brand => ({
  name: view.tenant.brandName || view.tenant.name,
  logoUrl: view.tenant.logoUrl,
  language: view.language,
});

/** The business picker of a link, with `error` above the list when the last choice was refused. */
const selection = (view: links.SelectionView, error?: string) => {
  const p = paths(view.link.token);
  return (
    <SelectionPage
      brand={brandOf(view)}
      provider={view.link.provider}
      locationName={view.location.name}
      businesses={view.businesses}
      action={p.select}
      nonce={view.nonce}
      restartAction={p.start}
      csrf={links.startFormToken(view.link.token)}
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

export function connectPages(deps: ConnectPageDeps): Router {
  const router = express.Router();
  const opts = { clock: deps.clock, platformClient: deps.platformClient };
  const ensureReviewSync = deps.ensureReviewSync ?? ((id: number, label?: IntegrationLabel) => startReviewSync(id, { label }));

  router.use((_req: Request, res: Response, next: NextFunction) => {
    // The token is in the URL: never leak it through Referer; never cache or frame the page.
    res.set({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    });
    next();
  });
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 }));

  const html = sendPage;

  /** Every failure as a page with the right status; unexpected ones are logged and shown without detail. */
  const page = (handler: Handler) => async (req: Request, res: Response) => {
    try {
      await handler(req, res);
    } catch (err) {
      // The callback learns its link from the state (res.locals.linkToken); an unknown state has none.
      const token = (typeof req.params.token === 'string' ? req.params.token : undefined) ?? (res.locals.linkToken as string | undefined);
      let brand = NO_BRAND;
      try {
        if (token) brand = brandOf(await links.viewLink(token, opts));
      } catch {
        // unknown link: the neutral brand
      }
      const tr = translator(brand.language);
      const retry = token ? { url: paths(token).start, label: tr.t('connect.tryAgain'), csrf: links.startFormToken(token) } : undefined;
      if (err instanceof links.LinkUnavailable) {
        const u = UNAVAILABLE[err.status] ?? UNAVAILABLE.unknown;
        return html(res, u.status, <MessagePage brand={brand} title={tr.t(u.title)} message={tr.t(u.message)} />);
      }
      if (err instanceof links.SignInRequired && token) return void res.redirect(303, paths(token).landing);
      if (err instanceof SignInFailed) {
        return html(res, 400, <MessagePage brand={brand} title={tr.t(err.reason === 'access_denied' ? 'connect.cancelledTitle' : 'connect.incompleteTitle')} message={err.message} action={retry} />);
      }
      if (err instanceof ProviderRejected || err instanceof ProviderUnavailable || (err instanceof DomainError && err.code === 'UPSTREAM')) {
        req.log?.warn({ err: { name: (err as Error).name, message: (err as Error).message } }, 'connect page: provider failure');
        return html(res, 502, <MessagePage brand={brand} title={tr.t('connect.providerDownTitle')} message={tr.t('connect.providerDownText')} action={retry} />);
      }
      (req.log ?? deps.logger).error({ err }, 'connect page failed');
      return html(res, 500, <MessagePage brand={brand} title={tr.t('common.somethingWrong')} message={tr.t('common.tryLater')} />);
    }
  };

  // Before `/:token`: the one registered redirect URI; the state says which link it belongs to.
  router.get(
    '/callback',
    page(async (req, res) => {
      const token = await links.linkTokenForState(typeof req.query.state === 'string' ? req.query.state : '');
      res.locals.linkToken = token;
      await links.completeSignIn(token, new URL(req.originalUrl, publicBaseUrl()), opts);
      res.redirect(303, paths(token).select);
    }),
  );

  router.get(
    '/:token',
    page(async (req, res) => {
      const view = await links.viewLink(String(req.params.token), opts);
      if (view.status !== 'active') throw new links.LinkUnavailable(view.status);
      const p = paths(view.link.token);
      const signedIn = Boolean(view.link.completedOauthAt && view.link.pendingCredentials);
      html(
        res,
        200,
        <LandingPage
          brand={brandOf(view)}
          provider={view.link.provider}
          locationName={view.location.name}
          startAction={p.start}
          csrf={links.startFormToken(view.link.token)}
          continueUrl={signedIn ? p.select : null}
        />,
      );
    }),
  );

  router.post(
    '/:token/start',
    page(async (req, res) => {
      const token = String(req.params.token);
      const csrf = typeof req.body?.csrf === 'string' ? req.body.csrf : '';
      if (!links.isStartFormToken(token, csrf)) {
        // A form from elsewhere (or a stale one): back to the page, which carries a good one.
        await links.viewLink(token, opts);
        return void res.redirect(303, paths(token).landing);
      }
      res.redirect(303, await links.startSignIn(token, opts));
    }),
  );

  router.get(
    '/:token/select',
    page(async (req, res) => {
      html(res, 200, selection(await links.selectionFor(String(req.params.token), opts)));
    }),
  );

  router.post(
    '/:token/select',
    page(async (req, res) => {
      const token = String(req.params.token);
      const nonce = typeof req.body?.nonce === 'string' ? req.body.nonce : '';
      const externalId = typeof req.body?.business === 'string' ? req.body.business : '';
      let result: Awaited<ReturnType<typeof links.selectBusiness>>;
      try {
        result = await links.selectBusiness(token, { nonce, externalId }, opts);
      } catch (err) {
        if (!(err instanceof DomainError && err.code === 'VALIDATION')) throw err;
        const view = await links.selectionFor(token, opts);
        const tr = translator(view.language);
        return html(res, 422, selection(view, tr.t('connect.chooseListed', { things: providerLabels(tr, view.link.provider).things })));
      }
      // After the commit: the first sync is best effort here; the integration exists whatever happens.
      try {
        await ensureReviewSync(result.integration.id, integrationLabel(result.integration));
      } catch (err) {
        (req.log ?? deps.logger).warn({ err: { message: (err as Error).message }, integrationId: result.integration.id }, 'review sync not started');
      }
      html(
        res,
        200,
        <SuccessPage brand={brandOf(result.view)} provider={result.view.link.provider} businessName={result.business.name} locationName={result.view.location.name} />,
      );
    }),
  );

  // A form body too large or unreadable: a page with its status (people read these answers), never a stack.
  router.use(formReadErrors(() => <MessagePage brand={NO_BRAND} title={t('en', 'common.formUnreadable')} message={t('en', 'common.goBack')} />));

  return router;
}
