import { escapeHtml as esc } from '../domain/html';
import { layout, NO_BRAND, type Brand } from './connect-page.views';
import { translator } from '../i18n';

/**
 * Server-rendered HTML of the public review page (`/r/<invite uuid>`): the rating gate, the private feedback
 * form and the thank-you pages, in the account's language (src/i18n). Every value is escaped; no script runs (the
 * stars are plain links).
 */

const STYLE = `<style>
.stars{display:flex;flex-direction:row-reverse;justify-content:center;gap:.3rem;margin:1.5rem 0}
.stars a{font-size:2.6rem;line-height:1;text-decoration:none;color:#c9ced6}
.stars a:hover,.stars a:hover~a,.stars a:focus,.stars a:focus~a{color:#f5a623}
form.feedback label{display:block;margin:.8rem 0 .2rem;font-weight:600}
form.feedback input[type=text],form.feedback input[type=email],form.feedback input[type=tel],form.feedback textarea{width:100%;box-sizing:border-box;padding:.55rem;border:1px solid #c9ced6;border-radius:6px;font:inherit}
form.feedback textarea{min-height:8rem}
fieldset.rating{border:0;padding:0;margin:.8rem 0}fieldset.rating legend{font-weight:600}
fieldset.rating label{display:inline-flex;gap:.25rem;margin-right:.8rem;font-weight:400}
.error{color:#b3261e;font-size:.9rem;margin:.2rem 0}
form.feedback button{margin-top:1.2rem}
</style>`;

export function ratingPage(input: { brand: Brand; businessName: string; firstName: string | null; rateHref: (n: number) => string }): string {
  const tr = translator(input.brand.language);
  const starLabel = (n: number) => tr.html('feedback.star', { count: n });
  // row-reverse: 5 is written first so that hovering a star lights it and the ones before it.
  const stars = [5, 4, 3, 2, 1].map((n) => `<a href="${esc(input.rateHref(n))}" aria-label="${starLabel(n)}" title="${starLabel(n)}">&#9733;</a>`).join('');
  const business = esc(input.businessName);
  const heading = input.firstName
    ? tr.html('feedback.rateHeadingNamed', { name: esc(input.firstName), business })
    : tr.html('feedback.rateHeading', { business });
  return layout(
    input.brand,
    tr.t('feedback.rateTitle', { business: input.businessName }),
    `${STYLE}<h1>${heading}</h1>
<p>${tr.html('feedback.rateIntro')}</p>
<nav class="stars" aria-label="${tr.html('feedback.ratingNav')}">${stars}</nav>`,
  );
}

export interface FeedbackFormValues {
  name: string;
  email: string;
  phone: string;
  message: string;
  rating: string;
}

export function feedbackFormPage(input: {
  brand: Brand;
  businessName: string;
  action: string;
  values: FeedbackFormValues;
  errors?: Record<string, string[]>;
}): string {
  const tr = translator(input.brand.language);
  const e = input.errors ?? {};
  const err = (field: string) => (e[field]?.length ? `<p class="error" role="alert">${esc(e[field][0])}</p>` : '');
  const v = input.values;
  const ratings = [1, 2, 3, 4, 5]
    .map((n) => `<label><input type="radio" name="rating" value="${n}"${v.rating === String(n) ? ' checked' : ''} required> ${tr.html('feedback.star', { count: n })}</label>`)
    .join('');
  return layout(
    input.brand,
    tr.t('feedback.formTitle'),
    `${STYLE}<h1>${tr.html('feedback.formHeading')}</h1>
<p>${tr.html('feedback.formIntro', { business: esc(input.businessName) })}</p>
<form class="feedback" method="post" action="${esc(input.action)}">
<fieldset class="rating"><legend>${tr.html('feedback.yourRating')}</legend>${ratings}</fieldset>${err('rating')}
<label for="message">${tr.html('feedback.yourMessage')}</label>
<textarea id="message" name="message" maxlength="5000" required>${esc(v.message)}</textarea>${err('message')}
<label for="name">${tr.html('feedback.name')}</label>
<input type="text" id="name" name="name" maxlength="255" value="${esc(v.name)}" autocomplete="name">${err('name')}
<label for="email">${tr.html('feedback.email')}</label>
<input type="email" id="email" name="email" maxlength="255" value="${esc(v.email)}" autocomplete="email">${err('email')}
<label for="phone">${tr.html('feedback.phone')}</label>
<input type="tel" id="phone" name="phone" maxlength="32" value="${esc(v.phone)}" autocomplete="tel">${err('phone')}
<button type="submit">${tr.html('feedback.send')}</button>
</form>`,
  );
}

export function thanksPage(brand: Brand, businessName: string, already = false): string {
  const tr = translator(brand.language);
  const text = tr.html(already ? 'feedback.alreadyText' : 'feedback.thanksText', { business: esc(businessName) });
  return layout(brand, tr.t('feedback.thanksTitle'), `<h1>${tr.html('feedback.thanksTitle')}</h1>\n<p>${text}</p>\n<p class="notice">${tr.html('common.closePage')}</p>`);
}

export function feedbackMessagePage(brand: Brand | null, title: string, message: string): string {
  const page = brand ?? { ...NO_BRAND, name: translator(NO_BRAND.language).t('feedback.brandless') };
  return layout(page, title, `<h1>${esc(title)}</h1>\n<p>${esc(message)}</p>`);
}
