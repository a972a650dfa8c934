import type { ProviderBusiness, SignInProvider } from '../providers/types';
import { escapeHtml } from '../domain/html';

/** Server-rendered HTML of the customer-facing connect page. Every value is escaped; no script runs. */

export const esc = escapeHtml;

export const PROVIDER_LABELS: Record<SignInProvider, { name: string; thing: string; things: string }> = {
  google: { name: 'Google', thing: 'Business Profile', things: 'Business Profiles' },
  facebook: { name: 'Facebook', thing: 'Page', things: 'Pages' },
};

export interface Brand {
  name: string;
  logoUrl: string | null;
}

/** A neutral brand for pages that know no agency (unknown links). */
export const NO_BRAND: Brand = { name: 'Review connection', logoUrl: null };

const safeUrl = (url: string | null): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

export function layout(brand: Brand, title: string, body: string): string {
  const logo = safeUrl(brand.logoUrl);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex">
<title>${esc(title)} - ${esc(brand.name)}</title>
<style>
body{font-family:system-ui,-apple-system,sans-serif;background:#f5f6f8;margin:0;color:#1f2328;line-height:1.5}
header{background:#fff;border-bottom:1px solid #e3e5e8;padding:1rem 1.5rem;display:flex;align-items:center;gap:.8rem}
header img{max-height:40px;max-width:160px}
header .brand{font-weight:600;font-size:1.1rem}
main{max-width:34rem;margin:2rem auto;background:#fff;border-radius:10px;padding:2rem;box-shadow:0 1px 4px #0001}
h1{font-size:1.4rem;margin-top:0}
button{padding:.7rem 1.4rem;border:0;border-radius:6px;background:#1a73e8;color:#fff;font-size:1rem;cursor:pointer}
ul.businesses{list-style:none;padding:0}ul.businesses li{border:1px solid #e3e5e8;border-radius:6px;margin:.5rem 0;padding:.6rem .8rem}
ul.businesses label{display:flex;gap:.6rem;cursor:pointer}.address{color:#5b6470;font-size:.9rem}
.notice{color:#5b6470;font-size:.9rem}
</style></head><body>
<header>${logo ? `<img src="${esc(logo)}" alt="${esc(brand.name)} logo">` : ''}<span class="brand">${esc(brand.name)}</span></header>
<main>
${body}
</main></body></html>`;
}

export function landingPage(input: {
  brand: Brand;
  provider: SignInProvider;
  locationName: string;
  startAction: string;
  csrf: string;
  continueUrl: string | null;
}): string {
  const p = PROVIDER_LABELS[input.provider];
  const resume = input.continueUrl
    ? `<p class="notice">You already signed in. <a href="${esc(input.continueUrl)}">Continue to choose your ${esc(p.thing)}</a>, or sign in again below.</p>`
    : '';
  return layout(
    input.brand,
    `Connect ${p.name}`,
    `<h1>Connect your ${esc(p.name)} ${esc(p.thing)}</h1>
<p>${esc(input.brand.name)} asks you to connect the ${esc(p.name)} ${esc(p.thing)} of <strong>${esc(input.locationName)}</strong>,
so that your reviews appear in your review dashboard and can be answered from there.</p>
<ol>
<li>You sign in with ${esc(p.name)} and allow access to manage your ${esc(p.things)}' reviews.</li>
<li>You pick the ${esc(p.thing)} that belongs to ${esc(input.locationName)}.</li>
<li>That is all: its reviews are then fetched regularly. You can remove the access at any time in your ${esc(p.name)} account.</li>
</ol>
${resume}
<form method="post" action="${esc(input.startAction)}">
<input type="hidden" name="csrf" value="${esc(input.csrf)}">
<button type="submit">Sign in with ${esc(p.name)}</button>
</form>
<p class="notice">This link works once and only for ${esc(input.locationName)}.</p>`,
  );
}

export function selectionPage(input: {
  brand: Brand;
  provider: SignInProvider;
  locationName: string;
  businesses: ProviderBusiness[];
  action: string;
  nonce: string;
  restartAction: string;
  csrf: string;
  error?: string | null;
}): string {
  const p = PROVIDER_LABELS[input.provider];
  const error = input.error ? `<p class="notice" role="alert"><strong>${esc(input.error)}</strong></p>` : '';
  if (input.businesses.length === 0) {
    return layout(
      input.brand,
      `No ${p.things} found`,
      `<h1>No ${esc(p.things)} found</h1>
<p>The ${esc(p.name)} account you signed in with manages no ${esc(p.things)}. Sign in with the account that manages
the ${esc(p.thing)} of ${esc(input.locationName)}.</p>
<form method="post" action="${esc(input.restartAction)}"><input type="hidden" name="csrf" value="${esc(input.csrf)}">
<button type="submit">Sign in with another account</button></form>`,
    );
  }
  const items = input.businesses
    .map(
      (b, i) => `<li><label><input type="radio" name="business" value="${esc(b.externalId)}"${i === 0 ? ' checked' : ''} required>
<span><span class="name">${esc(b.name)}</span>${b.address ? `<br><span class="address">${esc(b.address)}</span>` : ''}</span></label></li>`,
    )
    .join('\n');
  return layout(
    input.brand,
    `Choose your ${p.thing}`,
    `<h1>Choose the ${esc(p.thing)} of ${esc(input.locationName)}</h1>
${error}
<form method="post" action="${esc(input.action)}">
<input type="hidden" name="nonce" value="${esc(input.nonce)}">
<ul class="businesses">
${items}
</ul>
<button type="submit">Connect this ${esc(p.thing)}</button>
</form>`,
  );
}

export function successPage(input: { brand: Brand; provider: SignInProvider; businessName: string; locationName: string }): string {
  const p = PROVIDER_LABELS[input.provider];
  return layout(
    input.brand,
    'Connected',
    `<h1>Connected</h1>
<p><strong>${esc(input.businessName)}</strong> on ${esc(p.name)} is now connected to ${esc(input.locationName)}.
Its reviews will appear in your dashboard shortly. You can close this page.</p>`,
  );
}

/** Unknown, used, expired, revoked links and failed sign-ins: a friendly explanation, never a stack. */
export function messagePage(brand: Brand, title: string, message: string, action?: { url: string; label: string; csrf: string }): string {
  const retry = action
    ? `<form method="post" action="${esc(action.url)}"><input type="hidden" name="csrf" value="${esc(action.csrf)}"><button type="submit">${esc(action.label)}</button></form>`
    : '';
  return layout(brand, title, `<h1>${esc(title)}</h1>\n<p>${esc(message)}</p>\n${retry}`);
}
