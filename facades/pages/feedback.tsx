import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { ComponentChildren, VNode } from 'preact';
import type { Clock } from '../../src/domain/clock';
import { DomainError } from '../../src/domain/errors';
import { MAX_FEEDBACK_MESSAGE_CHARS, MAX_NAME_CHARS } from '../../src/domain/limits';
import { translator, type Translator } from '../../src/i18n';
import { execute, failureOf, type Operation } from '../shared/execute';
import { graphql } from '../shared/graphql';
import { Layout, Msg, NO_BRAND, type Brand } from './layout';
import { formReadErrors, sendPage } from './respond';
import { edgeContext } from '../shared/auth';

/**
 * The public review page of an invite, `{PUBLIC_URL}/r/<invite uuid>` (the review link of every message):
 *
 *   GET  /r/{uuid}                the star rating: a form of five buttons (no script); counts nothing
 *   POST /r/{uuid}/rate           `rating=1-5`, a star chosen: the first marks the invite clicked; above the campaign's
 *                                 feedback_threshold 303 to its review_url (or to thanks), at or below to the form
 *   GET  /r/{uuid}/rate/{1-5}     the same answer as the POST (links of pages served before), but counts nothing
 *   GET  /r/{uuid}/feedback       the form, prefilled from the contact (`?rating=` preselects the stars)
 *   POST /r/{uuid}/feedback       stores the private feedback; 303 to the thank-you page (422 form on errors)
 *   GET  /r/{uuid}/thanks
 *
 * The invite's random UUID is the key (like a scan report's); the page carries the agency's brand. Unknown or
 * malformed UUIDs are a 404 page. Every action is one GraphQL operation (`feedbackPage`, `openReviewLink`,
 * `sendPrivateFeedback`) with the UUID as its argument.
 *
 * Only a POST counts as a click (`clicked_at`, which stops the invite's follow-ups): mail security scanners (Safe
 * Links, Proofpoint, Mimecast) fetch every link of a delivered message, and the links of the page behind it, with GET
 * (or HEAD), but do not submit forms. A person choosing a star, or sending the feedback form, does.
 */
export interface FeedbackPageDeps {
  schema: GraphQLSchema;
  logger: Logger;
  clock?: Clock;
}

interface FeedbackPage {
  invite: string;
  brand: Brand;
  businessName: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  feedbackSent: boolean;
  gate?: { kind: 'REVIEW' | 'THANKS' | 'FEEDBACK'; url: string | null };
  /** Where five stars lead (the rating page's form-action). */
  review?: { kind: 'REVIEW' | 'THANKS' | 'FEEDBACK'; url: string | null };
}

/** A route's read of the invite's page by `document`: null for an unknown invite, whose 404 page is then sent. */
type Load = (document: Operation<{ page: FeedbackPage | null }>, variables?: Record<string, unknown>) => Promise<FeedbackPage | null>;

graphql(`fragment FeedbackPageFields on FeedbackPage { invite brand { name logoUrl language } businessName firstName lastName email phone feedbackSent }`);
const PAGE = graphql(`query FeedbackPage($invite: String!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields } }`);
/**
 * The rating page (GET and HEAD: read only). Five stars is above every threshold (1-4): its gate names the campaign's
 * review URL, whose origin the page's form-action must admit (Chrome checks each redirect of a form's POST against it).
 */
const RATING_PAGE = graphql(`query ReviewRatingPage($invite: String!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields review: gate(rating: 5) { kind url } } }`);
const RATE = {
  /** A star chosen (the page's form, POST): the first marks the invite clicked. */
  choose: graphql(`mutation RateReviewLink($invite: String!, $rating: Int!) { page: openReviewLink(invite: $invite) { ...FeedbackPageFields gate(rating: $rating) { kind url } } }`),
  /** The GET links of pages served before the form: where the rating leads, nothing counted. */
  look: graphql(`query RatedReviewPage($invite: String!, $rating: Int!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields gate(rating: $rating) { kind url } } }`),
};
const SEND = graphql(`mutation SendPrivateFeedback($invite: String!, $form: PrivateFeedbackFormInput!) { sendPrivateFeedback(invite: $invite, form: $form) }`);

const STYLE = `
.stars{display:flex;flex-direction:row-reverse;justify-content:center;gap:.3rem;margin:1.5rem 0}
.stars button{font:inherit;font-size:2.6rem;line-height:1;color:#c9ced6;background:none;border:0;padding:0 .1rem;margin:0;cursor:pointer}
.stars button:hover,.stars button:hover~button,.stars button:focus,.stars button:focus~button{color:#f5a623}
form.feedback label{display:block;margin:.8rem 0 .2rem;font-weight:600}
form.feedback input[type=text],form.feedback input[type=email],form.feedback input[type=tel],form.feedback textarea{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #c9ced6;border-radius:6px;font:inherit}
form.feedback textarea{min-height:8rem}
fieldset.rating{border:0;padding:0;margin:.8rem 0}fieldset.rating legend{font-weight:600}
fieldset.rating label{display:inline-flex;gap:.25rem;margin-right:.8rem;font-weight:400}
.error{color:#b3261e;font-size:.9rem;margin:.2rem 0}
form.feedback button{margin-top:1.2rem}
`;

const paths = (uuid: string) => {
  const base = `/r/${encodeURIComponent(uuid)}`;
  return { page: base, rate: `${base}/rate`, form: `${base}/feedback`, thanks: `${base}/thanks` };
};

export interface FeedbackFormValues {
  name: string;
  email: string;
  phone: string;
  message: string;
  rating: string;
}

function FeedbackLayout(props: { brand: Brand; title: string; children: ComponentChildren }): VNode {
  return (
    <Layout brand={props.brand} title={props.title} style={STYLE}>
      {props.children}
    </Layout>
  );
}

const starLabel = (tr: Translator, n: number) => tr.t('feedback.star', { count: n });

function RatingPage({ brand, businessName, firstName, action }: { brand: Brand; businessName: string; firstName: string | null; action: string }): VNode {
  const tr = translator(brand.language);
  return (
    <FeedbackLayout brand={brand} title={tr.t('feedback.rateTitle', { business: businessName })}>
      <h1>
        {firstName ? (
          <Msg tr={tr} k="feedback.rateHeadingNamed" vars={{ name: firstName, business: businessName }} />
        ) : (
          <Msg tr={tr} k="feedback.rateHeading" vars={{ business: businessName }} />
        )}
      </h1>
      <p>{tr.t('feedback.rateIntro')}</p>
      {/* A form, not links: a choice is a POST, which mail scanners that GET every link do not make (a click counts).
          row-reverse: 5 is written first so that hovering a star lights it and the ones before it. */}
      <form class="stars" method="post" action={action} aria-label={tr.t('feedback.ratingNav')}>
        {[5, 4, 3, 2, 1].map((n) => (
          <button type="submit" name="rating" value={String(n)} aria-label={starLabel(tr, n)} title={starLabel(tr, n)}>
            {'\u2605'}
          </button>
        ))}
      </form>
    </FeedbackLayout>
  );
}

function FieldError({ errors, field }: { errors: Record<string, string[]>; field: string }): VNode | null {
  return errors[field]?.length ? (
    <p class="error" role="alert">
      {errors[field][0]}
    </p>
  ) : null;
}

/**
 * The form's errors in the page's language: the service names the fields it refuses (its texts are the API's,
 * in English), the page says why in the customer's words. A field the page does not know keeps the service's text.
 */
function localErrors(tr: Translator, errors: Record<string, string[]>, values: FeedbackFormValues): Record<string, string[]> {
  const said: Record<string, string> = {
    rating: tr.t('feedback.errors.rating'),
    message: values.message.trim() ? tr.t('feedback.errors.messageTooLong', { max: tr.number(MAX_FEEDBACK_MESSAGE_CHARS) }) : tr.t('feedback.errors.messageRequired'),
    name: tr.t('feedback.errors.nameTooLong', { max: tr.number(MAX_NAME_CHARS) }),
    email: tr.t('feedback.errors.email'),
    phone: tr.t('feedback.errors.phone'),
  };
  return Object.fromEntries(Object.entries(errors).map(([field, texts]) => [field, field in said ? [said[field]] : texts]));
}

function FeedbackFormPage(props: { brand: Brand; businessName: string; action: string; values: FeedbackFormValues; errors?: Record<string, string[]> }): VNode {
  const tr = translator(props.brand.language);
  const v = props.values;
  const e = localErrors(tr, props.errors ?? {}, v);
  return (
    <FeedbackLayout brand={props.brand} title={tr.t('feedback.formTitle')}>
      <h1>{tr.t('feedback.formHeading')}</h1>
      <p>
        <Msg tr={tr} k="feedback.formIntro" vars={{ business: props.businessName }} />
      </p>
      <form class="feedback" method="post" action={props.action}>
        <fieldset class="rating">
          <legend>{tr.t('feedback.yourRating')}</legend>
          {[1, 2, 3, 4, 5].map((n) => (
            <label>
              <input type="radio" name="rating" value={n} checked={v.rating === String(n)} required /> {starLabel(tr, n)}
            </label>
          ))}
        </fieldset>
        <FieldError errors={e} field="rating" />
        <label for="message">{tr.t('feedback.yourMessage')}</label>
        <textarea id="message" name="message" maxLength={MAX_FEEDBACK_MESSAGE_CHARS} required>
          {v.message}
        </textarea>
        <FieldError errors={e} field="message" />
        <label for="name">{tr.t('feedback.name')}</label>
        <input type="text" id="name" name="name" maxLength={255} value={v.name} autoComplete="name" />
        <FieldError errors={e} field="name" />
        <label for="email">{tr.t('feedback.email')}</label>
        <input type="email" id="email" name="email" maxLength={255} value={v.email} autoComplete="email" />
        <FieldError errors={e} field="email" />
        <label for="phone">{tr.t('feedback.phone')}</label>
        <input type="tel" id="phone" name="phone" maxLength={32} value={v.phone} autoComplete="tel" />
        <FieldError errors={e} field="phone" />
        <button type="submit">{tr.t('feedback.send')}</button>
      </form>
    </FeedbackLayout>
  );
}

function ThanksPage({ brand, businessName, already = false }: { brand: Brand; businessName: string; already?: boolean }): VNode {
  const tr = translator(brand.language);
  return (
    <FeedbackLayout brand={brand} title={tr.t('feedback.thanksTitle')}>
      <h1>{tr.t('feedback.thanksTitle')}</h1>
      <p>
        <Msg tr={tr} k={already ? 'feedback.alreadyText' : 'feedback.thanksText'} vars={{ business: businessName }} />
      </p>
      <p class="notice">{tr.t('common.closePage')}</p>
    </FeedbackLayout>
  );
}

function MessagePage({ title, message }: { title: string; message: string }): VNode {
  const brand = { ...NO_BRAND, name: translator(NO_BRAND.language).t('feedback.brandless') };
  return (
    <FeedbackLayout brand={brand} title={title}>
      <h1>{title}</h1>
      <p>{message}</p>
    </FeedbackLayout>
  );
}

const en = translator('en');
const NotFound = () => <MessagePage title={en.t('common.linkNotFound')} message={en.t('feedback.notFoundText')} />;

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const ratingOf = (v: unknown): number | null => (typeof v === 'string' && /^[1-5]$/.test(v) ? Number(v) : null);

/**
 * The page's CSP with the review site in form-action: a star above the threshold answers the form's POST with a 303
 * there, and Chrome checks every redirect of a form's navigation against form-action. Review URLs redirect to other
 * origins (Google's `https://g.page/r/<id>/review` to `search.google.com`, a domain to its `www.`, a link shortener),
 * so the page admits the scheme (`https:`, and `http:` too for an http review URL), not one origin. The page has no
 * script and no form but its own, so nothing else can use it.
 */
function admitFormTarget(res: Response, url: string | null | undefined): void {
  let scheme: string;
  try {
    scheme = url ? new URL(url).protocol : '';
  } catch {
    return;
  }
  const schemes = scheme === 'https:' ? ['https:'] : scheme === 'http:' ? ['https:', 'http:'] : [];
  const csp = res.getHeader('Content-Security-Policy');
  if (schemes.length && typeof csp === 'string') {
    res.setHeader('Content-Security-Policy', csp.replace(/form-action ([^;]*)/, `form-action $1 ${schemes.join(' ')}`));
  }
}

export function feedbackPages(deps: FeedbackPageDeps): Router {
  const router = express.Router();

  router.use((_req: Request, res: Response, next: NextFunction) => {
    // The UUID in the URL is the key: keep it out of Referer and search engines; nothing runs, nothing frames.
    res.set({
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex, nofollow',
    });
    next();
  });

  const run = async <T,>(req: Request, document: Operation<T>, variables: Record<string, unknown>): Promise<T> =>
    execute(deps.schema, document, { invite: String(req.params.uuid), ...variables }, edgeContext(req, deps.clock));

  /** The page of the invite (an unknown one is the 404 page), read by `document`; failures are a 500 page. */
  const page =
    (handler: (req: Request, res: Response, load: Load) => Promise<void>) =>
    async (req: Request, res: Response) => {
      try {
        await handler(req, res, async (document, variables = {}) => {
          const { page: view } = await run(req, document, variables);
          if (!view) sendPage(res, 404, <NotFound />);
          return view;
        });
      } catch (err) {
        (req.log ?? deps.logger).error({ err: failureOf(err) }, 'feedback page failed');
        if (!res.headersSent) sendPage(res, 500, <MessagePage title={en.t('common.somethingWrong')} message={en.t('common.tryLater')} />);
      }
    };

  // A GET (or HEAD) of the link counts nothing: mail scanners fetch it, and every link of the page, before the person.
  router.get(
    '/:uuid',
    page(async (_req, res, load) => {
      const view = await load(RATING_PAGE);
      if (!view) return;
      if (view.feedbackSent) return sendPage(res, 200, <ThanksPage brand={view.brand} businessName={view.businessName} already />);
      if (view.review?.kind === 'REVIEW') admitFormTarget(res, view.review.url);
      sendPage(res, 200, <RatingPage brand={view.brand} businessName={view.businessName} firstName={view.firstName} action={paths(view.invite).rate} />);
    }),
  );

  /** Back to the rating page (303), nothing counted: the answer to a rate address without a rating. */
  const backToPage = async (res: Response, load: Load): Promise<void> => {
    const view = await load(PAGE);
    if (view) res.redirect(303, paths(view.invite).page);
  };

  /** Where a rating leads: the review site (303), thanks, or the form (303). */
  const gated = (res: Response, view: FeedbackPage, rating: number, post: boolean): void => {
    const p = paths(view.invite);
    if (view.gate?.kind === 'REVIEW' && view.gate.url) return void res.redirect(303, view.gate.url);
    // After a POST the thanks page is reached by a 303 (a reload does not post again); the old GET link shows it.
    if (view.gate?.kind === 'THANKS') return post ? void res.redirect(303, p.thanks) : sendPage(res, 200, <ThanksPage brand={view.brand} businessName={view.businessName} />);
    res.redirect(303, `${p.form}?rating=${rating}`);
  };

  // A star chosen on the page: the person's act that counts as the click (once per invite).
  router.post(
    '/:uuid/rate',
    express.urlencoded({ extended: false, limit: '1kb', parameterLimit: 5 }),
    page(async (req, res, load) => {
      const rating = ratingOf((req.body as Record<string, unknown> | undefined)?.rating);
      if (rating === null) return backToPage(res, load);
      const view = await load(RATE.choose, { rating });
      if (view) gated(res, view, rating, true);
    }),
  );

  // The form's address fetched as a link (a scanner reading the page's form): back to the page, nothing counted.
  router.get(
    '/:uuid/rate',
    page((_req, res, load) => backToPage(res, load)),
  );

  // The star links of pages served before the form (and of anything that kept them): same answer, never a click.
  router.get(
    '/:uuid/rate/:rating',
    page(async (req, res, load) => {
      const rating = ratingOf(req.params.rating);
      if (rating === null) return backToPage(res, load);
      const view = await load(RATE.look, { rating });
      if (view) gated(res, view, rating, false);
    }),
  );

  router.get(
    '/:uuid/feedback',
    page(async (req, res, load) => {
      const view = await load(PAGE);
      if (!view) return;
      if (view.feedbackSent) return sendPage(res, 200, <ThanksPage brand={view.brand} businessName={view.businessName} already />);
      const rating = text(req.query.rating);
      const values: FeedbackFormValues = {
        name: [view.firstName, view.lastName].filter(Boolean).join(' '),
        email: view.email ?? '',
        phone: view.phone ?? '',
        message: '',
        rating: /^[1-5]$/.test(rating) ? rating : '',
      };
      sendPage(res, 200, <FeedbackFormPage brand={view.brand} businessName={view.businessName} action={paths(view.invite).form} values={values} />);
    }),
  );

  router.post(
    '/:uuid/feedback',
    express.urlencoded({ extended: false, limit: '100kb', parameterLimit: 20 }),
    page(async (req, res, load) => {
      const view = await load(PAGE);
      if (!view) return;
      const body = (req.body ?? {}) as Record<string, unknown>;
      const values: FeedbackFormValues = {
        name: text(body.name),
        email: text(body.email),
        phone: text(body.phone),
        message: text(body.message),
        rating: text(body.rating),
      };
      try {
        await run(req, SEND, { form: values });
      } catch (err) {
        if (!(err instanceof DomainError && err.code === 'VALIDATION')) throw err;
        return sendPage(
          res,
          422,
          <FeedbackFormPage brand={view.brand} businessName={view.businessName} action={paths(view.invite).form} values={values} errors={err.fields ?? undefined} />,
        );
      }
      res.redirect(303, paths(view.invite).thanks);
    }),
  );

  router.get(
    '/:uuid/thanks',
    page(async (_req, res, load) => {
      const view = await load(PAGE);
      if (view) sendPage(res, 200, <ThanksPage brand={view.brand} businessName={view.businessName} />);
    }),
  );

  router.use((_req, res) => sendPage(res, 404, <NotFound />));
  // A form body that is too large or unreadable, or a path that cannot be decoded: a page with its status, never a stack.
  router.use(
    formReadErrors(
      () => <MessagePage title={en.t('common.formUnreadable')} message={en.t('common.goBackShorter')} />,
      () => <MessagePage title={en.t('common.linkUnreadable')} message={en.t('common.linkUnreadableText')} />,
    ),
  );
  return router;
}
