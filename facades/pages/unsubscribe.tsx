import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { VNode } from 'preact';
import type { Clock } from '../../src/domain/clock';
import { translator } from '../../src/i18n';
import { contactUuidOfUnsubscribeToken } from '../../src/messaging/links';
import { execute, failureOf } from '../shared/execute';
import { graphql } from '../shared/graphql';
import { Layout, Msg, NO_BRAND, type Brand } from './layout';
import { sendPage } from './respond';
import { edgeContext } from '../shared/auth';

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
 * An unknown, malformed or forged token answers a 404 page; so does any other path or method under `/u`, and a path
 * that cannot be decoded answers a 400 page saying the link is damaged (never the APIs' JSON to a person).
 */
export interface UnsubscribePageDeps {
  schema: GraphQLSchema;
  logger: Logger;
  clock?: Clock;
}

const PAGE = graphql(`query UnsubscribePage($token: String!) {
  unsubscribePage(token: $token) { brand { name logoUrl language } businessName unsubscribed }
}`);
/**
 * `withLogo: false` for a one-click POST: a mail provider's server makes it and reads no page, so it does not wait for
 * the agency's logo to be fetched (up to 3 s when it is not cached, src/reports/logo.ts); its page wears the name alone.
 */
const UNSUBSCRIBE = graphql(`mutation Unsubscribe($token: String!, $withLogo: Boolean!) {
  unsubscribe(token: $token) { brand { name logoUrl @include(if: $withLogo) language } businessName contactId already canceled }
}`);

const en = translator('en');

/**
 * What the pages of a link that names no contact wear: the neutral name of the review request the link came in, as
 * the review link's pages (facades/pages/feedback.tsx), not the connect page's.
 */
const NEUTRAL: Brand = { ...NO_BRAND, name: en.t('feedback.brandless') };

function NotFoundPage(): VNode {
  return <MessagePage title={en.t('common.linkNotFound')} text={en.t('unsubscribe.notFoundText')} />;
}

function ConfirmPage({ brand, business, token }: { brand: Brand; business: string; token: string }): VNode {
  const tr = translator(brand.language);
  return (
    <Layout brand={brand} title={tr.t('unsubscribe.title')}>
      <h1>{tr.t('unsubscribe.heading')}</h1>
      <p>
        <Msg tr={tr} k="unsubscribe.question" vars={{ business: <strong>{business}</strong> }} />
      </p>
      <form method="post" action={`/u/${encodeURIComponent(token)}`}>
        <input type="hidden" name="confirm" value="1" />
        <button type="submit">{tr.t('unsubscribe.button')}</button>
      </form>
      <p class="notice">
        <Msg tr={tr} k="unsubscribe.notice" vars={{ business }} />
      </p>
    </Layout>
  );
}

function DonePage({ brand, business }: { brand: Brand; business: string }): VNode {
  const tr = translator(brand.language);
  return (
    <Layout brand={brand} title={tr.t('unsubscribe.doneTitle')}>
      <h1>{tr.t('unsubscribe.doneHeading')}</h1>
      <p>
        <Msg tr={tr} k="unsubscribe.notice" vars={{ business: <strong>{business}</strong> }} /> {tr.t('common.closePage')}
      </p>
    </Layout>
  );
}

function MessagePage({ title, text }: { title: string; text: string }): VNode {
  return (
    <Layout brand={NEUTRAL} title={title}>
      <h1>{title}</h1>
      <p>{text}</p>
    </Layout>
  );
}

/**
 * Whether the request's path under `/u` is a token whose MAC checks out (CPU only, no look-up): src/http/app.ts counts
 * such POSTs, mail providers' one-click unsubscribes among them, in a budget apart from the page posts'.
 */
export function signedUnsubscribeLink(req: Request): boolean {
  const segment = /^\/([^/]+)\/?$/.exec(req.path)?.[1];
  if (!segment) return false;
  try {
    return contactUuidOfUnsubscribeToken(decodeURIComponent(segment)) !== null;
  } catch {
    return false;
  }
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
  // The button's form and RFC 8058 one-click bodies (both url-encoded; a multipart one-click body is not read). The
  // POST itself is the request, whatever it carries: a body too large or unreadable is ignored, not refused (it is
  // read only to log a one-click).
  const parseForm = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 });
  const readFormIfAble: RequestHandler = (req, res, next) =>
    parseForm(req, res, (err?: unknown) => {
      if (err) req.body = {};
      next();
    });

  const failed = (res: Response, err: unknown) => {
    deps.logger.error({ err: failureOf(err) }, 'unsubscribe page failed');
    sendPage(res, 500, <MessagePage title={en.t('common.somethingWrong')} text={en.t('common.tryMoment')} />);
  };

  router.get('/:token', async (req: Request, res: Response) => {
    try {
      const token = String(req.params.token);
      const { unsubscribePage: view } = await execute(deps.schema, PAGE, { token }, edgeContext(req, deps.clock));
      if (!view) return sendPage(res, 404, <NotFoundPage />);
      sendPage(res, 200, view.unsubscribed ? <DonePage brand={view.brand} business={view.businessName} /> : <ConfirmPage brand={view.brand} business={view.businessName} token={token} />);
    } catch (err) {
      failed(res, err);
    }
  });

  router.post('/:token', readFormIfAble, async (req: Request, res: Response) => {
    try {
      const token = String(req.params.token);
      const oneClick = (req.body as Record<string, unknown> | undefined)?.['List-Unsubscribe'] === 'One-Click';
      const { unsubscribe: result } = await execute(deps.schema, UNSUBSCRIBE, { token, withLogo: !oneClick }, edgeContext(req, deps.clock));
      if (!result) return sendPage(res, 404, <NotFoundPage />);
      deps.logger.info({ contact: result.contactId, already: result.already, canceled: result.canceled, oneClick }, 'contact unsubscribed');
      sendPage(res, 200, <DonePage brand={{ ...result.brand, logoUrl: result.brand.logoUrl ?? null }} business={result.businessName} />);
    } catch (err) {
      failed(res, err);
    }
  });

  // `/u/`, `/u/a/b`, another method: the not-found page, as for a token that names no contact.
  router.use((_req, res) => sendPage(res, 404, <NotFoundPage />));
  // A path Express cannot decode (malformed percent-encoding, 400): a page saying the link is damaged; another client
  // error the not-found page with its status; anything else the error page. Never JSON to a person.
  router.use(((err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const status = (err as { status?: unknown }).status;
    if (err instanceof URIError && status === 400) {
      return sendPage(res, 400, <MessagePage title={en.t('common.linkUnreadable')} text={en.t('common.linkUnreadableText')} />);
    }
    if (typeof status === 'number' && status >= 400 && status < 500) return sendPage(res, status, <NotFoundPage />);
    failed(res, err);
  }) as ErrorRequestHandler);
  return router;
}
