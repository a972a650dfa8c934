import { createContext, type ComponentChildren, type VNode } from 'preact';
import { useContext } from 'preact/hooks';
import { renderToString } from 'preact-render-to-string';
import { translator, type MessageKey, type Translator } from '../../src/i18n';
import { logoPath } from '../../src/reports/logo';

/**
 * The one layout of the server-rendered pages (unsubscribe, feedback, connect, the scan report, the MCP OAuth and
 * developer pages of src/http, and the monthly report of src/reports) and what they share: the brand they wear, the
 * CSP nonce of their inline styles, and messages of the catalogue with values placed inside them. Pages are Preact
 * components rendered to a string on the server: every text and attribute is escaped by the renderer, so no page
 * writes HTML by hand (the exceptions, each marked where it is: the reports' SVG charts drawn by src/reports
 * (`Chart`), and the API reference's inline script).
 */

export interface Brand {
  name: string;
  logoUrl: string | null;
  /** The language the page speaks (the customer's, else the agency's; English when unknown). */
  language?: string | null;
  /**
   * The platform's origin for the logo, for a document read away from the platform (the monthly report's HTML handed
   * to API clients): `{origin}/brand/logo/<key>`. Absent: the page's own host (`/brand/logo/<key>`).
   */
  assetOrigin?: string;
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
  // An escaped `"` would break the rule silently (a font name, an attribute selector): fail where it is written.
  if (/[&<"]/.test(css)) throw new Error('A page stylesheet must not contain &, < or ".');
  return <style nonce={useContext(CspNonce)}>{css}</style>;
}

/**
 * A chart of src/reports with its caption, in the scan report and the monthly report. Trusted markup, taken as it is:
 * SVG drawn on the server by src/reports/charts (ECharts' SSR renderer, which escapes the labels it is given, and
 * `svgChart` its aria-label; test/reports/scan-report.test.ts pins both with hostile names), never a user's markup.
 * Its bare `<style>` (ECharts' class rules) carries the response's nonce, like the pages' own styles.
 */
export function Chart({ svg, caption }: { svg: string; caption: string }): VNode {
  const nonce = useContext(CspNonce);
  const html = nonce ? svg.replace(/<style>/g, `<style nonce="${nonce}">`) : svg;
  return (
    <figure>
      <div class="chart" dangerouslySetInnerHTML={{ __html: html }} />
      <figcaption>{caption}</figcaption>
    </figure>
  );
}

/** A URL a page may link to: http(s), or with `local` a path of the platform's own; null for anything else. */
export const safeUrl = (url: string | null, local = false): string | null =>
  url && (local ? /^(https?:\/\/|\/(?!\/))/i : /^https?:\/\//i).test(url) ? url : null;

/**
 * Where a page shows a brand's logo: from the platform's own host (`/brand/logo/<key>`, src/reports/logo.ts), never
 * from the agency's, so no page loads anything from another host; `local`: a path of the platform's own as it is.
 */
export const logoSrc = (url: string | null, local = false): string | null => logoPath(url, local);

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

/** How a page differs from the pages' own frame (a card under the brand's header). */
export interface LayoutProps {
  /** The brand the page wears; null when it knows none (the report of an unknown scan): no mark, the title alone. */
  brand: Brand | null;
  title: string;
  /** What joins the title and the brand's name in the document title. */
  titleJoin?: string;
  /** The page's language; the brand's by default. */
  lang?: string;
  /** The robots meta: `noindex` unless the page says otherwise; null for none. */
  robots?: string | null;
  /** The no-referrer meta (on by default: the pages' URLs carry tokens). */
  noReferrer?: boolean;
  /** The stylesheet under the page's own: the pages' card by default, or a page family's frame. */
  base?: string;
  /** The page's own styles, after the base. */
  style?: string;
  /** More of the head (a stylesheet link). */
  head?: ComponentChildren;
  /** The header: the brand's (logo and name) by default; a page family's own; null for none. */
  header?: ComponentChildren;
  footer?: ComponentChildren;
  /** Whether the children go into `<main>` (default), or into the body as they are (pages with a main of their own). */
  main?: boolean;
  children: ComponentChildren;
}

/** The brand's header of the pages: its logo (an http(s) URL only) and its name. */
function BrandHeader({ brand, tr }: { brand: Brand; tr: Translator }): VNode {
  const path = logoSrc(brand.logoUrl);
  const logo = path && brand.assetOrigin && path.startsWith('/') ? `${brand.assetOrigin.replace(/\/+$/, '')}${path}` : path;
  return (
    <header>
      {logo ? <img src={logo} alt={tr.t('common.logo', { brand: brand.name })} /> : null}
      <span class="brand">{brand.name}</span>
    </header>
  );
}

/** The page: its language, title and styles, the header (the brand's by default), the content, the footer. */
export function Layout(props: LayoutProps): VNode {
  const { brand, robots = 'noindex', noReferrer = true, base = STYLE, main = true } = props;
  const tr = translator(brand?.language);
  return (
    <html lang={props.lang ?? tr.language}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {noReferrer ? <meta name="referrer" content="no-referrer" /> : null}
        {robots ? <meta name="robots" content={robots} /> : null}
        <title>{brand ? `${props.title}${props.titleJoin ?? ' - '}${brand.name}` : props.title}</title>
        <Style css={base} />
        {props.style ? <Style css={props.style} /> : null}
        {props.head}
      </head>
      <body>
        {props.header !== undefined ? props.header : brand ? <BrandHeader brand={brand} tr={tr} /> : null}
        {main ? <main>{props.children}</main> : props.children}
        {props.footer}
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
