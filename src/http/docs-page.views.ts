import { escapeHtml as esc } from '../domain/html';

/**
 * Server-rendered HTML of the developer pages: the API reference (Redoc, from node_modules) of the customer and agency
 * APIs, the webhook receiver guide, and the self-hosted GraphiQL. Every page carries the brand of the host it was
 * asked on; every script and `<style>` element carries the response's nonce, and nothing loads from another origin.
 */

export interface DocsBrand {
  name: string;
  logoUrl: string | null;
}

/** The brand of a host that is no tenant's white-label domain. */
export const PLATFORM_BRAND: DocsBrand = { name: 'Reviewgrid', logoUrl: null };

export type DocsSection = 'customer' | 'agency' | 'webhooks' | 'graphql';

export interface ApiReference {
  section: 'customer' | 'agency';
  title: string;
  specUrl: string;
}

export const API_REFERENCES: Record<'customer' | 'agency', ApiReference> = {
  customer: { section: 'customer', title: 'Customer API', specUrl: '/api/v1/openapi.json' },
  agency: { section: 'agency', title: 'Agency API', specUrl: '/api/agency/v1/openapi.json' },
};

const NAV: { section: DocsSection; href: string; label: string }[] = [
  { section: 'customer', href: '/docs', label: 'Customer API' },
  { section: 'agency', href: '/docs/agency', label: 'Agency API' },
  { section: 'webhooks', href: '/docs/webhooks', label: 'Webhooks' },
  { section: 'graphql', href: '/graphql', label: 'GraphQL' },
];

const safeUrl = (url: string | null): string | null => (url && /^(https?:\/\/|\/(?!\/))/i.test(url) ? url : null);

/** Text for an inline `<script>`: JSON that cannot close the element or start a comment. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

const BASE_STYLE = `
*{box-sizing:border-box}
html,body{margin:0}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff;line-height:1.5}
.docs-top{display:flex;align-items:center;gap:1.5rem;flex-wrap:wrap;padding:.6rem 1.5rem;border-bottom:1px solid #e3e5e8;background:#fff;min-height:56px}
.docs-brand{display:flex;align-items:center;gap:.7rem;font-weight:650;font-size:1.05rem;color:inherit;text-decoration:none}
.docs-brand img{max-height:36px;max-width:160px}
.docs-brand .kind{color:#5b6470;font-weight:400}
.docs-top nav{display:flex;gap:.3rem;flex-wrap:wrap}
.docs-top nav a{padding:.35rem .75rem;border-radius:6px;color:#1f2328;text-decoration:none;font-size:.93rem}
.docs-top nav a:hover{background:#f0f1f3}
.docs-top nav a[aria-current=page]{background:#1f2328;color:#fff}
`;

function header(brand: DocsBrand, current: DocsSection): string {
  const logo = safeUrl(brand.logoUrl);
  const links = NAV.map((n) => `<a href="${n.href}"${n.section === current ? ' aria-current="page"' : ''}>${esc(n.label)}</a>`).join('');
  return `<header class="docs-top"><a class="docs-brand" href="/docs">${logo ? `<img src="${esc(logo)}" alt="${esc(brand.name)} logo">` : ''}<span class="name">${esc(brand.name)}</span><span class="kind">Developers</span></a><nav aria-label="Developer documentation">${links}</nav></header>`;
}

function page(input: { brand: DocsBrand; title: string; nonce: string; current: DocsSection; head?: string; style?: string; body: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(input.title)} - ${esc(input.brand.name)}</title>
<style nonce="${input.nonce}">${BASE_STYLE}${input.style ?? ''}</style>
${input.head ?? ''}</head><body>
${header(input.brand, input.current)}
${input.body}
</body></html>`;
}

/**
 * The reference of one API: Redoc renders the OpenAPI document it fetches from the same origin. Redoc is told the
 * nonce, which it puts on the `<style>` elements it adds; its search index runs in a worker made from a blob.
 */
export function referencePage(input: { brand: DocsBrand; api: ApiReference; nonce: string; redocUrl: string }): string {
  const options = {
    nonce: input.nonce,
    hideLoading: false,
    expandResponses: '200,201,202',
    jsonSampleExpandLevel: 3,
    menuToggle: true,
    sortPropsAlphabetically: false,
    theme: {
      colors: { primary: { main: '#1a5fb4' } },
      typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif', headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' } },
      sidebar: { width: '280px' },
    },
  };
  return page({
    brand: input.brand,
    title: `${input.api.title} reference`,
    nonce: input.nonce,
    current: input.api.section,
    // Redoc's sidebar footer credits its vendor with a link and a remote image; a white-label page shows neither.
    style: `#reference a[href^="https://redocly.com"]{display:none}`,
    body: `<main id="reference" data-spec-url="${esc(input.api.specUrl)}" aria-label="${esc(input.api.title)} reference"></main>
<script nonce="${input.nonce}" src="${esc(input.redocUrl)}"></script>
<script nonce="${input.nonce}">Redoc.init(${scriptJson(input.api.specUrl)}, ${scriptJson(options)}, document.getElementById('reference'));</script>`,
  });
}

const GUIDE_STYLE = `
.guide{max-width:52rem;margin:0 auto;padding:1.5rem 1.5rem 3rem}
.guide h1{font-size:1.8rem;margin:.5rem 0 1rem}
.guide h2{font-size:1.3rem;margin:2rem 0 .6rem;padding-top:.6rem;border-top:1px solid #eceef1}
.guide code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em;background:#f3f4f6;padding:.08rem .3rem;border-radius:4px;overflow-wrap:anywhere}
.guide pre{background:#0f172a;color:#e2e8f0;padding:1rem 1.1rem;border-radius:8px;overflow:auto;font-size:.85rem;line-height:1.45}
.guide pre code{background:none;padding:0;color:inherit;font-size:inherit;overflow-wrap:normal}
.guide li{margin:.25rem 0}
.guide a{color:#1a5fb4}
`;

export function webhooksGuidePage(input: { brand: DocsBrand; nonce: string; markdown: string }): string {
  return page({
    brand: input.brand,
    title: 'Receiving webhooks',
    nonce: input.nonce,
    current: 'webhooks',
    style: GUIDE_STYLE,
    body: `<main class="guide">\n${markdownToHtml(input.markdown)}\n</main>`,
  });
}

const GRAPHIQL_STYLE = `
body{height:100vh;display:flex;flex-direction:column;overflow:hidden}
#graphiql{flex:1;min-height:0}
`;

/** GraphiQL: the bundled script and stylesheet, the endpoint and default headers in data attributes. */
export function graphiqlPage(input: { brand: DocsBrand; nonce: string; scriptUrl: string; styleUrl: string; endpoint: string; placeholder: string }): string {
  const defaultHeaders = JSON.stringify({ Authorization: input.placeholder }, null, 2);
  return page({
    brand: input.brand,
    title: 'GraphQL explorer',
    nonce: input.nonce,
    current: 'graphql',
    style: GRAPHIQL_STYLE,
    head: `<link rel="stylesheet" nonce="${input.nonce}" href="${esc(input.styleUrl)}">`,
    body: `<div id="graphiql" data-endpoint="${esc(input.endpoint)}" data-brand="${esc(input.brand.name)}" data-placeholder="${esc(input.placeholder)}" data-default-headers="${esc(defaultHeaders)}"></div>
<script nonce="${input.nonce}" src="${esc(input.scriptUrl)}"></script>`,
  });
}

/** An error page in the same frame (the bundle could not be read). */
export function docsMessagePage(input: { brand: DocsBrand; nonce: string; current: DocsSection; title: string; message: string }): string {
  return page({ ...input, style: GUIDE_STYLE, body: `<main class="guide"><h1>${esc(input.title)}</h1><p>${esc(input.message)}</p></main>` });
}

// ---- Markdown: the small subset the guide uses (headings, paragraphs, lists, fenced code, inline code, links, bold).

const slug = (s: string) => s.toLowerCase().replace(/<[^>]+>/g, '').replace(/&[^;]+;/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function inline(text: string): string {
  // Code spans first and untouched; links and bold only outside them.
  return text
    .split(/(`[^`]*`)/)
    .map((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length >= 2) return `<code>${esc(part.slice(1, -1))}</code>`;
      return esc(part)
        .replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+|\/[^\s)]*)\)/g, (_m, label: string, href: string) => `<a href="${href}">${label}</a>`)
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');
    })
    .join('');
}

export function markdownToHtml(markdown: string): string {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const out: string[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !/^```\s*$/.test(lines[i])) code.push(lines[i++]);
      i++;
      out.push(`<pre><code${fence[1] ? ` class="language-${fence[1]}"` : ''}>${esc(code.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1].length;
      const html = inline(heading[2]);
      out.push(`<h${level} id="${slug(html)}">${html}</h${level}>`);
      i++;
      continue;
    }
    const item = /^(-|\d+\.)\s+/.exec(line);
    if (item) {
      const ordered = item[1] !== '-';
      const items: string[] = [];
      while (i < lines.length && /^(-|\d+\.)\s+/.test(lines[i]) && (/^-/.test(lines[i]) ? !ordered : ordered)) {
        const parts = [lines[i].replace(/^(-|\d+\.)\s+/, '')];
        i++;
        while (i < lines.length && /^\s{2,}\S/.test(lines[i])) parts.push(lines[i++].trim());
        items.push(`<li>${inline(parts.join(' '))}</li>`);
      }
      out.push(ordered ? `<ol>${items.join('')}</ol>` : `<ul>${items.join('')}</ul>`);
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i].trim() !== '' && !/^(```|#{1,4}\s|-\s|\d+\.\s)/.test(lines[i])) para.push(lines[i++].trim());
    out.push(`<p>${inline(para.join(' '))}</p>`);
  }
  return out.join('\n');
}
