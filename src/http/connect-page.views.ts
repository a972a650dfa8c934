import type { ProviderBusiness, SignInProvider } from '../providers/types';
import { escapeHtml as esc } from '../domain/html';
import { translator, type Translator } from '../i18n';

/**
 * Server-rendered HTML of the customer-facing connect page, in the customer's language (src/i18n). Every value is
 * escaped; no script runs.
 */

const PROVIDER_NAMES: Record<SignInProvider, string> = { google: 'Google', facebook: 'Facebook' };

/** The provider's name and what it calls a business ("Business Profile", "Page"), in the page's language. */
export function providerLabels(tr: Translator, provider: SignInProvider): { name: string; thing: string; things: string } {
  return {
    name: PROVIDER_NAMES[provider],
    thing: tr.t(`connect.providers.${provider}.thing`),
    things: tr.t(`connect.providers.${provider}.things`),
  };
}

export interface Brand {
  name: string;
  logoUrl: string | null;
  /** The language the page speaks (the customer's, else the agency's; English when unknown). */
  language?: string | null;
}

/** A neutral brand for pages that know no agency (unknown links). */
export const NO_BRAND: Brand = { name: 'Review connection', logoUrl: null };

const safeUrl = (url: string | null): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

export function layout(brand: Brand, title: string, body: string): string {
  const logo = safeUrl(brand.logoUrl);
  const tr = translator(brand.language);
  return `<!doctype html>
<html lang="${tr.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
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
<header>${logo ? `<img src="${esc(logo)}" alt="${esc(tr.t('common.logo', { brand: brand.name }))}">` : ''}<span class="brand">${esc(brand.name)}</span></header>
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
  const tr = translator(input.brand.language);
  const p = providerLabels(tr, input.provider);
  const v = { provider: p.name, thing: p.thing, things: p.things };
  const location = `<strong>${esc(input.locationName)}</strong>`;
  const resume = input.continueUrl
    ? `<p class="notice">${tr.html('connect.resume')} <a href="${esc(input.continueUrl)}">${tr.html('connect.resumeLink', v)}</a>, ${tr.html('connect.resumeAfter')}</p>`
    : '';
  return layout(
    input.brand,
    tr.t('connect.title', v),
    `<h1>${tr.html('connect.heading', v)}</h1>
<p>${tr.html('connect.intro', { ...v, brand: esc(input.brand.name), location })}</p>
<ol>
<li>${tr.html('connect.step1', v)}</li>
<li>${tr.html('connect.step2', { ...v, location: esc(input.locationName) })}</li>
<li>${tr.html('connect.step3', v)}</li>
</ol>
${resume}
<form method="post" action="${esc(input.startAction)}">
<input type="hidden" name="csrf" value="${esc(input.csrf)}">
<button type="submit">${tr.html('connect.signIn', v)}</button>
</form>
<p class="notice">${tr.html('connect.onceOnly', { location: esc(input.locationName) })}</p>`,
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
  const tr = translator(input.brand.language);
  const p = providerLabels(tr, input.provider);
  const v = { provider: p.name, thing: p.thing, things: p.things, location: esc(input.locationName) };
  const error = input.error ? `<p class="notice" role="alert"><strong>${esc(input.error)}</strong></p>` : '';
  if (input.businesses.length === 0) {
    return layout(
      input.brand,
      tr.t('connect.noneTitle', { things: p.things }),
      `<h1>${tr.html('connect.noneTitle', v)}</h1>
<p>${tr.html('connect.noneText', v)}</p>
<form method="post" action="${esc(input.restartAction)}"><input type="hidden" name="csrf" value="${esc(input.csrf)}">
<button type="submit">${tr.html('connect.otherAccount')}</button></form>`,
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
    tr.t('connect.chooseTitle', { thing: p.thing }),
    `<h1>${tr.html('connect.chooseHeading', v)}</h1>
${error}
<form method="post" action="${esc(input.action)}">
<input type="hidden" name="nonce" value="${esc(input.nonce)}">
<ul class="businesses">
${items}
</ul>
<button type="submit">${tr.html('connect.connectThis', v)}</button>
</form>`,
  );
}

export function successPage(input: { brand: Brand; provider: SignInProvider; businessName: string; locationName: string }): string {
  const tr = translator(input.brand.language);
  const p = providerLabels(tr, input.provider);
  return layout(
    input.brand,
    tr.t('connect.connectedTitle'),
    `<h1>${tr.html('connect.connectedTitle')}</h1>
<p>${tr.html('connect.connectedText', { business: `<strong>${esc(input.businessName)}</strong>`, provider: p.name, location: esc(input.locationName) })}
${tr.html('common.closePage')}</p>`,
  );
}

/** Unknown, used, expired, revoked links and failed sign-ins: a friendly explanation, never a stack. */
export function messagePage(brand: Brand, title: string, message: string, action?: { url: string; label: string; csrf: string }): string {
  const retry = action
    ? `<form method="post" action="${esc(action.url)}"><input type="hidden" name="csrf" value="${esc(action.csrf)}"><button type="submit">${esc(action.label)}</button></form>`
    : '';
  return layout(brand, title, `<h1>${esc(title)}</h1>\n<p>${esc(message)}</p>\n${retry}`);
}
