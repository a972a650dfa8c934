import { esc, layout, NO_BRAND, type Brand } from './connect-page.views';

/**
 * Server-rendered HTML of the public review page (`/r/<invite uuid>`): the rating gate, the private feedback
 * form and the thank-you pages. Every value is escaped; no script runs (the stars are plain links).
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

const starLabel = (n: number) => `${n} star${n === 1 ? '' : 's'}`;

export function ratingPage(input: { brand: Brand; businessName: string; firstName: string | null; rateHref: (n: number) => string }): string {
  // row-reverse: 5 is written first so that hovering a star lights it and the ones before it.
  const stars = [5, 4, 3, 2, 1].map((n) => `<a href="${esc(input.rateHref(n))}" aria-label="${starLabel(n)}" title="${starLabel(n)}">&#9733;</a>`).join('');
  const hello = input.firstName ? `Hi ${esc(input.firstName)}, how` : 'How';
  return layout(
    input.brand,
    `Rate ${input.businessName}`,
    `${STYLE}<h1>${hello} was your experience with ${esc(input.businessName)}?</h1>
<p>Choose a rating; it takes a second.</p>
<nav class="stars" aria-label="Rating">${stars}</nav>`,
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
  const e = input.errors ?? {};
  const err = (field: string) => (e[field]?.length ? `<p class="error" role="alert">${esc(e[field][0])}</p>` : '');
  const v = input.values;
  const ratings = [1, 2, 3, 4, 5]
    .map((n) => `<label><input type="radio" name="rating" value="${n}"${v.rating === String(n) ? ' checked' : ''} required> ${starLabel(n)}</label>`)
    .join('');
  return layout(
    input.brand,
    'Tell us more',
    `${STYLE}<h1>We are sorry to hear that</h1>
<p>Please tell ${esc(input.businessName)} what went wrong. Your message goes straight to the team, not to a public review site.</p>
<form class="feedback" method="post" action="${esc(input.action)}">
<fieldset class="rating"><legend>Your rating</legend>${ratings}</fieldset>${err('rating')}
<label for="message">Your message</label>
<textarea id="message" name="message" maxlength="5000" required>${esc(v.message)}</textarea>${err('message')}
<label for="name">Name</label>
<input type="text" id="name" name="name" maxlength="255" value="${esc(v.name)}" autocomplete="name">${err('name')}
<label for="email">Email</label>
<input type="email" id="email" name="email" maxlength="255" value="${esc(v.email)}" autocomplete="email">${err('email')}
<label for="phone">Phone</label>
<input type="tel" id="phone" name="phone" maxlength="32" value="${esc(v.phone)}" autocomplete="tel">${err('phone')}
<button type="submit">Send feedback</button>
</form>`,
  );
}

export function thanksPage(brand: Brand, businessName: string, already = false): string {
  const text = already
    ? `Your feedback for ${esc(businessName)} has already reached the team. Thank you for taking the time.`
    : `Thank you! Your feedback has been sent to ${esc(businessName)}.`;
  return layout(brand, 'Thank you', `<h1>Thank you</h1>\n<p>${text}</p>\n<p class="notice">You can close this page.</p>`);
}

export function feedbackMessagePage(brand: Brand | null, title: string, message: string): string {
  return layout(brand ?? { ...NO_BRAND, name: 'Review request' }, title, `<h1>${esc(title)}</h1>\n<p>${esc(message)}</p>`);
}
