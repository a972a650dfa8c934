import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock';
import { unsubscribeByToken, unsubscribeViewOf } from '../services/unsubscribe.service';
import { escapeHtml as esc } from '../domain/html';
import { layout, NO_BRAND, type Brand } from './connect-page.views';
import { formReadErrors } from './form-errors';
import { t, tHtml, translator } from '../i18n';

/**
 * The unsubscribe link every review request carries, `/u/{token}` (public: the token is the credential, and it
 * cannot be forged, see src/messaging/links.ts):
 *
 *   GET  /u/{token}   a confirmation page in the agency's brand with an "Unsubscribe" button (a GET never
 *                     unsubscribes: mail scanners and link previews fetch links)
 *   POST /u/{token}   unsubscribes: the page's button (a form), or a mail client's one-click unsubscribe
 *                     (RFC 8058: body `List-Unsubscribe=One-Click`, announced by the List-Unsubscribe-Post
 *                     header). Idempotent; answers the "you are unsubscribed" page with 200.
 *
 * An unknown, malformed or forged token answers a 404 page.
 */
export interface UnsubscribePageDeps {
  logger: Logger;
  clock?: Clock;
}

const notFoundPage = (): string => {
  const tr = translator(NO_BRAND.language);
  return layout(NO_BRAND, tr.t('common.linkNotFound'), `<h1>${tr.html('common.linkNotFound')}</h1><p>${tr.html('unsubscribe.notFoundText')}</p>`);
};

function confirmPage(brand: Brand, business: string, token: string, already: boolean): string {
  if (already) return donePage(brand, business);
  const tr = translator(brand.language);
  return layout(
    brand,
    tr.t('unsubscribe.title'),
    `<h1>${tr.html('unsubscribe.heading')}</h1>
<p>${tr.html('unsubscribe.question', { business: `<strong>${esc(business)}</strong>` })}</p>
<form method="post" action="/u/${esc(encodeURIComponent(token))}"><input type="hidden" name="confirm" value="1"><button type="submit">${tr.html('unsubscribe.button')}</button></form>
<p class="notice">${tr.html('unsubscribe.notice', { business: esc(business) })}</p>`,
  );
}

function donePage(brand: Brand, business: string): string {
  const tr = translator(brand.language);
  return layout(
    brand,
    tr.t('unsubscribe.doneTitle'),
    `<h1>${tr.html('unsubscribe.doneHeading')}</h1>
<p>${tr.html('unsubscribe.notice', { business: `<strong>${esc(business)}</strong>` })} ${tr.html('common.closePage')}</p>`,
  );
}

export function unsubscribePages(deps: UnsubscribePageDeps): Router {
  const router = express.Router();
  router.use((_req: Request, res: Response, next) => {
    res.set({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex',
    });
    next();
  });
  // The button's form and RFC 8058 one-click bodies (both url-encoded; a multipart one-click body is not read:
  // the POST itself is the request, whatever it carries).
  router.use(express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 }));

  const html = (res: Response, status: number, body: string) => void res.status(status).type('html').send(body);
  const failed = (res: Response, err: unknown) => {
    deps.logger.error({ err }, 'unsubscribe page failed');
    html(res, 500, layout(NO_BRAND, t('en', 'common.somethingWrong'), `<h1>${tHtml('en', 'common.somethingWrong')}</h1><p>${tHtml('en', 'common.tryMoment')}</p>`));
  };

  router.get('/:token', async (req: Request, res: Response) => {
    try {
      const token = String(req.params.token);
      const view = await unsubscribeViewOf(token);
      if (!view) return html(res, 404, notFoundPage());
      html(res, 200, confirmPage(view.brand, view.businessName, token, view.contact.unsubscribedAt !== null));
    } catch (err) {
      failed(res, err);
    }
  });

  router.post('/:token', async (req: Request, res: Response) => {
    try {
      const result = await unsubscribeByToken(String(req.params.token), { clock: deps.clock });
      if (!result) return html(res, 404, notFoundPage());
      const oneClick = (req.body as Record<string, unknown> | undefined)?.['List-Unsubscribe'] === 'One-Click';
      deps.logger.info({ contact: result.contact.uuid, already: result.already, canceled: result.canceled, oneClick }, 'contact unsubscribed');
      html(res, 200, donePage(result.brand, result.businessName));
    } catch (err) {
      failed(res, err);
    }
  });

  // A form body too large or unreadable (a one-click unsubscribe is a few bytes): a page with its status.
  router.use(formReadErrors(() => layout(NO_BRAND, t('en', 'common.formUnreadable'), `<h1>${tHtml('en', 'common.formUnreadable')}</h1><p>${tHtml('en', 'common.goBack')}</p>`)));

  return router;
}
