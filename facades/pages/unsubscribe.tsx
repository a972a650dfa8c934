import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { VNode } from 'preact';
import type { Clock } from '../../src/domain/clock';
import { translator } from '../../src/i18n';
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
 * An unknown, malformed or forged token answers a 404 page.
 */
export interface UnsubscribePageDeps {
  schema: GraphQLSchema;
  logger: Logger;
  clock?: Clock;
}

const PAGE = graphql(`query UnsubscribePage($token: String!) {
  unsubscribePage(token: $token) { brand { name logoUrl language } businessName unsubscribed }
}`);
const UNSUBSCRIBE = graphql(`mutation Unsubscribe($token: String!) {
  unsubscribe(token: $token) { brand { name logoUrl language } businessName contactId already canceled }
}`);

function NotFoundPage(): VNode {
  const tr = translator(NO_BRAND.language);
  return (
    <Layout brand={NO_BRAND} title={tr.t('common.linkNotFound')}>
      <h1>{tr.t('common.linkNotFound')}</h1>
      <p>{tr.t('unsubscribe.notFoundText')}</p>
    </Layout>
  );
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
    <Layout brand={NO_BRAND} title={title}>
      <h1>{title}</h1>
      <p>{text}</p>
    </Layout>
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
  // The button's form and RFC 8058 one-click bodies (both url-encoded; a multipart one-click body is not read). The
  // POST itself is the request, whatever it carries: a body too large or unreadable is ignored, not refused (it is
  // read only to log a one-click).
  const parseForm = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 });
  const readFormIfAble: RequestHandler = (req, res, next) =>
    parseForm(req, res, (err?: unknown) => {
      if (err) req.body = {};
      next();
    });

  const en = translator('en');
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
      const { unsubscribe: result } = await execute(deps.schema, UNSUBSCRIBE, { token }, edgeContext(req, deps.clock));
      if (!result) return sendPage(res, 404, <NotFoundPage />);
      const oneClick = (req.body as Record<string, unknown> | undefined)?.['List-Unsubscribe'] === 'One-Click';
      deps.logger.info({ contact: result.contactId, already: result.already, canceled: result.canceled, oneClick }, 'contact unsubscribed');
      sendPage(res, 200, <DonePage brand={result.brand} business={result.businessName} />);
    } catch (err) {
      failed(res, err);
    }
  });

  return router;
}
