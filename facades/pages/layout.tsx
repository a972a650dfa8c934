import { createContext, type ComponentChildren, type VNode } from 'preact';
import { useContext } from 'preact/hooks';
import { renderToString } from 'preact-render-to-string';
import { translator, type MessageKey, type Translator } from '../../src/i18n';

/**
 * The one layout of the public pages (unsubscribe, feedback, connect, scan report) and what they share: the brand
 * they wear, the CSP nonce of their inline styles, and messages of the catalogue with values placed inside them.
 * Pages are Preact components rendered to a string on the server: every text and attribute is escaped by the
 * renderer, so no page writes HTML by hand (the one exception is the report's server-rendered SVG chart, see
 * facades/pages/report).
 */

export interface Brand {
  name: string;
  logoUrl: string | null;
  /** The language the page speaks (the customer's, else the agency's; English when unknown). */
  language?: string | null;
}

/** A neutral brand for pages that know no agency (unknown links). */
export const NO_BRAND: Brand = { name: 'Review connection', logoUrl: null };

/** The CSP nonce of the response (set by pageSecurity in src/http/security-headers.ts), for inline styles. */
export const CspNonce = createContext<string | undefined>(undefined);

/**
 * A stylesheet of the page's own, admitted by the response's nonce. The CSS is a constant of the page's module;
 * the renderer escapes text, so it must not contain `&`, `<` or `"` (it never needs them).
 */
export function Style({ css }: { css: string }): VNode {
  return <style nonce={useContext(CspNonce)}>{css}</style>;
}

const safeUrl = (url: string | null): string | null => (url && /^https?:\/\//i.test(url) ? url : null);

const STYLE = `
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
`;

/** The page: the brand's header (logo and name), the title, the page's language, and its own styles after ours. */
export function Layout(props: { brand: Brand; title: string; style?: string; children: ComponentChildren }): VNode {
  const { brand } = props;
  const logo = safeUrl(brand.logoUrl);
  const tr = translator(brand.language);
  return (
    <html lang={tr.language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="robots" content="noindex" />
        <title>{`${props.title} - ${brand.name}`}</title>
        <Style css={STYLE} />
        {props.style ? <Style css={props.style} /> : null}
      </head>
      <body>
        <header>
          {logo ? <img src={logo} alt={tr.t('common.logo', { brand: brand.name })} /> : null}
          <span class="brand">{brand.name}</span>
        </header>
        <main>{props.children}</main>
      </body>
    </html>
  );
}

/**
 * A message of the catalogue with values placed in it: text (escaped like any text) or elements
 * (`{business: <strong>{name}</strong>}`). `count` picks the plural form and is written as a number.
 */
export function Msg({ tr, k, vars = {} }: { tr: Translator; k: MessageKey; vars?: Record<string, ComponentChildren> }): VNode {
  const names = Object.keys(vars);
  const marks: Record<string, string | number> = {};
  names.forEach((name, i) => (marks[name] = `\uE000${i}\uE001`));
  if (typeof vars.count === 'number') marks.count = vars.count;
  const parts = tr.t(k, marks).split(/\uE000(\d+)\uE001/);
  return <>{parts.map((part, i) => (i % 2 ? vars[names[Number(part)]] : part))}</>;
}

/** A whole page as HTML, its inline styles carrying the response's CSP nonce. */
export function renderPage(page: VNode, nonce?: string): string {
  return `<!doctype html>\n${renderToString(<CspNonce.Provider value={nonce}>{page}</CspNonce.Provider>)}`;
}
