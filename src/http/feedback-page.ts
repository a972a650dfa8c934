import { t } from '../i18n';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock';
import { DomainError } from '../domain/errors';
import * as feedback from '../services/private-feedback.service';
import type { Brand } from './connect-page.views';
import { feedbackFormPage, feedbackMessagePage, ratingPage, thanksPage, type FeedbackFormValues } from './feedback-page.views';
import { formReadErrors } from './form-errors';

/**
 * The public review page of an invite, `{PUBLIC_URL}/r/<invite uuid>` (the review link of every message):
 *
 *   GET  /r/{uuid}                first visit marks the invite clicked; the star rating (links, no script)
 *   GET  /r/{uuid}/rate/{1-5}     above the campaign's feedback_threshold: 303 to its review_url (or thanks);
 *                                 at or below: 303 to the private feedback form
 *   GET  /r/{uuid}/feedback       the form, prefilled from the contact (`?rating=` preselects the stars)
 *   POST /r/{uuid}/feedback       stores the private feedback; 303 to the thank-you page (422 form on errors)
 *   GET  /r/{uuid}/thanks
 *
 * The invite's random UUID is the key (like a scan report's); the page carries the agency's brand. Unknown or
 * malformed UUIDs are a 404 page.
 */
export interface FeedbackPageDeps {
  logger: Logger;
  clock?: Clock;
}

const paths = (uuid: string) => {
  const base = `/r/${encodeURIComponent(uuid)}`;
  return { page: base, rate: (n: number) => `${base}/rate/${n}`, form: `${base}/feedback`, thanks: `${base}/thanks` };
};

const NOT_FOUND = { title: t('en', 'common.linkNotFound'), message: t('en', 'feedback.notFoundText') };

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

export function feedbackPages(deps: FeedbackPageDeps): Router {
  const router = express.Router();
  const opts = { clock: deps.clock };
  const html = (res: Response, status: number, body: string) => void res.status(status).type('html').send(body);

  router.use((_req: Request, res: Response, next: NextFunction) => {
    // The UUID in the URL is the key: keep it out of Referer and search engines; nothing runs, nothing frames.
    res.set({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex, nofollow',
    });
    next();
  });

  const page =
    (handler: (req: Request, res: Response, view: feedback.FeedbackPage, brand: Brand) => Promise<void>) => async (req: Request, res: Response) => {
      try {
        const view = await feedback.feedbackPageOf(String(req.params.uuid));
        if (!view) return html(res, 404, feedbackMessagePage(null, NOT_FOUND.title, NOT_FOUND.message));
        await handler(req, res, view, view.brand);
      } catch (err) {
        (req.log ?? deps.logger).error({ err }, 'feedback page failed');
        if (!res.headersSent) html(res, 500, feedbackMessagePage(null, t('en', 'common.somethingWrong'), t('en', 'common.tryLater')));
      }
    };

  /** A scanner's HEAD (mail link checkers) is not a visit. */
  const click = async (req: Request, view: feedback.FeedbackPage) => {
    if (req.method === 'GET') await feedback.recordClick(view, opts);
  };

  router.get(
    '/:uuid',
    page(async (req, res, view, brand) => {
      await click(req, view);
      if (view.existing) return html(res, 200, thanksPage(brand, view.organization.name, true));
      const p = paths(view.invite.uuid);
      html(res, 200, ratingPage({ brand, businessName: view.organization.name, firstName: view.contact.firstName, rateHref: p.rate }));
    }),
  );

  router.get(
    '/:uuid/rate/:rating',
    page(async (req, res, view, brand) => {
      const rating = /^[1-5]$/.test(String(req.params.rating)) ? Number(req.params.rating) : null;
      const p = paths(view.invite.uuid);
      if (rating === null) return void res.redirect(303, p.page);
      await click(req, view);
      const gate = feedback.gateFor(view.campaign, rating);
      if (gate.kind === 'review') return void res.redirect(303, gate.url);
      if (gate.kind === 'thanks') return html(res, 200, thanksPage(brand, view.organization.name));
      res.redirect(303, `${p.form}?rating=${rating}`);
    }),
  );

  router.get(
    '/:uuid/feedback',
    page(async (req, res, view, brand) => {
      if (view.existing) return html(res, 200, thanksPage(brand, view.organization.name, true));
      const c = view.contact;
      const rating = text(req.query.rating);
      const values: FeedbackFormValues = {
        name: [c.firstName, c.lastName].filter(Boolean).join(' '),
        email: c.email ?? '',
        phone: c.phone ?? '',
        message: '',
        rating: /^[1-5]$/.test(rating) ? rating : '',
      };
      html(res, 200, feedbackFormPage({ brand, businessName: view.organization.name, action: paths(view.invite.uuid).form, values }));
    }),
  );

  router.post(
    '/:uuid/feedback',
    express.urlencoded({ extended: false, limit: '100kb', parameterLimit: 20 }),
    page(async (req, res, view, brand) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const values: FeedbackFormValues = {
        name: text(body.name),
        email: text(body.email),
        phone: text(body.phone),
        message: text(body.message),
        rating: text(body.rating),
      };
      try {
        await feedback.submitFeedback(view.invite.uuid, values, opts);
      } catch (err) {
        if (!(err instanceof DomainError && err.code === 'VALIDATION')) throw err;
        return html(
          res,
          422,
          feedbackFormPage({ brand, businessName: view.organization.name, action: paths(view.invite.uuid).form, values, errors: err.fields }),
        );
      }
      res.redirect(303, paths(view.invite.uuid).thanks);
    }),
  );

  router.get(
    '/:uuid/thanks',
    page(async (_req, res, view, brand) => html(res, 200, thanksPage(brand, view.organization.name))),
  );

  router.use((_req, res) => html(res, 404, feedbackMessagePage(null, NOT_FOUND.title, NOT_FOUND.message)));
  // A form body that is too large or unreadable: a page with its status, never a stack.
  router.use(formReadErrors(() => feedbackMessagePage(null, t('en', 'common.formUnreadable'), t('en', 'common.goBackShorter'))));
  return router;
}
