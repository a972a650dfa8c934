import type { ComponentChildren, VNode } from 'preact';
import { Layout, renderPage, logoSrc } from '../../facades/pages/layout';

/**
 * The developer pages as Preact components in the pages' one Layout: the API reference (Redoc, from node_modules) of
 * the customer and agency APIs, the webhook receiver guide (its Markdown as elements), and the self-hosted GraphiQL.
 * Every page carries the brand of the host it was asked on; the renderer escapes every value; every script and
 * `<style>` element carries the response's nonce, and nothing loads from another origin.
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

/** Text for an inline `<script>`: JSON that cannot close the element or start a comment. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

// The renderer escapes `"` in a <style>: font names stay unquoted.
const BASE_STYLE = `
*{box-sizing:border-box}
html,body{margin:0}
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2328;background:#fff;line-height:1.5}
.docs-top{display:flex;align-items:center;gap:1.5rem;flex-wrap:wrap;padding:.6rem 1.5rem;border-bottom:1px solid #e3e5e8;background:#fff;min-height:56px}
.docs-brand{display:flex;align-items:center;gap:.7rem;font-weight:650;font-size:1.05rem;color:inherit;text-decoration:none}
.docs-brand img{max-height:36px;max-width:160px}
.docs-brand .kind{color:#5b6470;font-weight:400}
.docs-top nav{display:flex;gap:.3rem;flex-wrap:wrap}
.docs-top nav a{padding:.35rem .75rem;border-radius:6px;color:#1f2328;text-decoration:none;font-size:.93rem}
.docs-top nav a:hover{background:#f0f1f3}
.docs-top nav a[aria-current=page]{background:#1f2328;color:#fff}
`;

function DocsHeader({ brand, current }: { brand: DocsBrand; current: DocsSection }): VNode {
  const logo = logoSrc(brand.logoUrl, true);
  return (
    <header class="docs-top">
      <a class="docs-brand" href="/docs">
        {logo ? <img src={logo} alt={`${brand.name} logo`} /> : null}
        <span class="name">{brand.name}</span>
        <span class="kind">Developers</span>
      </a>
      <nav aria-label="Developer documentation">
        {NAV.map((n) => (
          <a href={n.href} aria-current={n.section === current ? 'page' : undefined}>
            {n.label}
          </a>
        ))}
      </nav>
    </header>
  );
}

/** A developer page in the one Layout: English, the docs' header with its navigation, the page's main of its own. */
function page(input: { brand: DocsBrand; title: string; nonce: string; current: DocsSection; head?: ComponentChildren; style?: string; body: ComponentChildren }): string {
  return renderPage(
    <Layout
      brand={input.brand}
      title={input.title}
      lang="en"
      robots={null}
      noReferrer={false}
      base={BASE_STYLE}
      style={input.style}
      head={input.head}
      header={<DocsHeader brand={input.brand} current={input.current} />}
      main={false}
    >
      {input.body}
    </Layout>,
    input.nonce,
  );
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
    // Single quotes: the renderer escapes `"` in a <style>.
    style: "#reference a[href^='https://redocly.com']{display:none}",
    body: (
      <>
        <main id="reference" data-spec-url={input.api.specUrl} aria-label={`${input.api.title} reference`}></main>
        <script nonce={input.nonce} src={input.redocUrl}></script>
        {/* The one script written as it is: our own call with JSON that cannot close the element (scriptJson); the
            renderer would escape its quotes. */}
        <script
          nonce={input.nonce}
          dangerouslySetInnerHTML={{ __html: `Redoc.init(${scriptJson(input.api.specUrl)}, ${scriptJson(options)}, document.getElementById('reference'));` }}
        />
      </>
    ),
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
    body: (
      <main class="guide">
        <Markdown markdown={input.markdown} />
      </main>
    ),
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
    head: <link rel="stylesheet" nonce={input.nonce} href={input.styleUrl} />,
    body: (
      <>
        <div id="graphiql" data-endpoint={input.endpoint} data-brand={input.brand.name} data-placeholder={input.placeholder} data-default-headers={defaultHeaders}></div>
        <script nonce={input.nonce} src={input.scriptUrl}></script>
      </>
    ),
  });
}

/** An error page in the same frame (the bundle could not be read). */
export function docsMessagePage(input: { brand: DocsBrand; nonce: string; current: DocsSection; title: string; message: string }): string {
  return page({
    ...input,
    style: GUIDE_STYLE,
    body: (
      <main class="guide">
        <h1>{input.title}</h1>
        <p>{input.message}</p>
      </main>
    ),
  });
}

// ---- Markdown: the small subset the guide uses (headings, paragraphs, lists, fenced code, inline code, links, bold).

/** A heading's anchor from its text (the words, lower case, joined by `-`; quotes, `&` and angle brackets dropped). */
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[&<>"']/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Inline Markdown as elements and text: code spans first and untouched; links and bold only outside them. */
function inline(text: string): { nodes: ComponentChildren[]; plain: string } {
  const nodes: ComponentChildren[] = [];
  let plain = '';
  for (const part of text.split(/(`[^`]*`)/)) {
    if (part.startsWith('`') && part.endsWith('`') && part.length >= 2) {
      nodes.push(<code>{part.slice(1, -1)}</code>);
      plain += part.slice(1, -1);
      continue;
    }
    for (const [i, piece] of part.split(/(\[[^\]]+\]\((?:https?:\/\/[^\s)]+|\/[^\s)]*)\))/).entries()) {
      const link = i % 2 ? /^\[([^\]]+)\]\((.*)\)$/.exec(piece) : null;
      if (link) {
        nodes.push(<a href={link[2]}>{bold(link[1])}</a>);
        plain += link[1].replace(/\*\*([^*]+)\*\*/g, '$1');
        continue;
      }
      nodes.push(...bold(piece));
      plain += piece.replace(/\*\*([^*]+)\*\*/g, '$1');
    }
  }
  return { nodes, plain };
}

/** `**bold**` as <strong>, the rest as text. */
const bold = (text: string): ComponentChildren[] => text.split(/\*\*([^*]+)\*\*/).map((piece, i) => (i % 2 ? <strong>{piece}</strong> : piece));

const Inline = ({ text }: { text: string }): VNode => <>{inline(text).nodes}</>;

/** Markdown, the small subset the guide uses (headings, paragraphs, lists, fenced code, inline code, links, bold), as elements. */
export function Markdown({ markdown }: { markdown: string }): VNode {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const out: VNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    const fence = /^```(\w*)\s*$/.exec(line);
    if (fence) {
      const code: string[] = [];
      i++;
      while (i < lines.length && !/^```\s*$/.test(lines[i])) code.push(lines[i++]);
      i++;
      out.push(
        <pre>
          <code class={fence[1] ? `language-${fence[1]}` : undefined}>{code.join('\n')}</code>
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      const Tag = `h${heading[1].length}` as 'h1' | 'h2' | 'h3' | 'h4';
      const { nodes, plain } = inline(heading[2]);
      out.push(<Tag id={slug(plain)}>{nodes}</Tag>);
      i++;
      continue;
    }
    const item = /^(-|\d+\.)\s+/.exec(line);
    if (item) {
      const ordered = item[1] !== '-';
      const items: VNode[] = [];
      while (i < lines.length && /^(-|\d+\.)\s+/.test(lines[i]) && (/^-/.test(lines[i]) ? !ordered : ordered)) {
        const parts = [lines[i].replace(/^(-|\d+\.)\s+/, '')];
        i++;
        while (i < lines.length && /^\s{2,}\S/.test(lines[i])) parts.push(lines[i++].trim());
        items.push(
          <li>
            <Inline text={parts.join(' ')} />
          </li>,
        );
      }
      out.push(ordered ? <ol>{items}</ol> : <ul>{items}</ul>);
      continue;
    }
    if (line.trim() === '') {
      i++;
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i].trim() !== '' && !/^(```|#{1,4}\s|-\s|\d+\.\s)/.test(lines[i])) para.push(lines[i++].trim());
    out.push(
      <p>
        <Inline text={para.join(' ')} />
      </p>,
    );
  }
  return <>{out}</>;
}
