import { escapeHtml } from '../../../src/domain/html';

/** Map tiles under the grid (optional): an XYZ template and the attribution its provider asks for. */
export interface TileConfig {
  url: string;
  attribution: string;
  maxZoom: number;
}

/**
 * The scan-grid View as one HTML document: markup, stylesheet and the bundled script inline (an MCP App is a single
 * resource the host puts in a sandboxed frame; nothing else is fetched). The agency's brand is written in when the
 * resource is read, so the header is the tenant's and never the platform's. Style values are the host's CSS variables
 * (MCP Apps theming) with our fallbacks.
 */
export function scanGridDocument(opts: { brandName: string; script: string; tiles: TileConfig | null }): string {
  if (/<\/script/i.test(opts.script)) throw new Error('The scan-grid bundle contains "</script": it cannot be inlined.');
  const brand = escapeHtml(opts.brandName);
  // JSON in a non-executed script element: only "<" needs escaping for the HTML parser.
  const config = JSON.stringify({ brand: opts.brandName, tiles: opts.tiles }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${brand} · Local Search Grid</title>
<style>${STYLE}</style>
<script type="application/json" id="scan-grid-config">${config}</script>
</head>
<body>
<main id="app" data-state="waiting" data-busy="false">
<header class="top"><span class="brand" id="brand">${brand}</span><span class="kind">Local Search Grid</span></header>
<div class="head">
<h1 id="title">Waiting for the scan...</h1>
<p class="muted" id="subtitle"></p>
</div>
<div class="pickers">
<label>Keyword <select id="keyword" disabled></select></label>
<label>Snapshot <select id="snapshot" disabled></select></label>
</div>
<p id="status" role="status" hidden></p>
<section class="summary" id="summary" aria-label="Summary"></section>
<figure class="map">
<svg id="map" role="img" viewBox="0 0 640 520" xmlns="http://www.w3.org/2000/svg"></svg>
<figcaption><ul class="legend" id="legend" aria-label="Legend"></ul></figcaption>
</figure>
</main>
<script>${opts.script}</script>
</body>
</html>
`;
}

const STYLE = `
:root{color-scheme:light dark;--bg:var(--color-background-primary,#fff);--panel:var(--color-background-secondary,#f6f7f9);--fg:var(--color-text-primary,#1f2328);
--muted:var(--color-text-secondary,#5b6470);--line:var(--color-border-primary,#e3e5e8);--font:var(--font-sans,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);
--radius:var(--border-radius-md,10px)}
[data-theme=dark]{--bg:var(--color-background-primary,#17191c);--panel:var(--color-background-secondary,#22252a);--fg:var(--color-text-primary,#e8eaed);
--muted:var(--color-text-secondary,#a0a7b0);--line:var(--color-border-primary,#343941)}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 var(--font)}
main{padding:14px 16px 16px;max-width:720px;margin:0 auto}
.top{display:flex;align-items:baseline;justify-content:space-between;gap:8px;border-bottom:1px solid var(--line);padding-bottom:8px;margin-bottom:10px}
.brand{font-weight:700;font-size:15px}
.kind,.muted{color:var(--muted)}
.kind{font-size:12px;letter-spacing:.03em;text-transform:uppercase}
h1{font-size:18px;margin:0}
.head p{margin:2px 0 0;font-size:13px}
.pickers{display:flex;flex-wrap:wrap;gap:8px 16px;margin:10px 0}
.pickers label{display:flex;align-items:center;gap:6px;font-size:13px;color:var(--muted)}
select{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:4px 6px;max-width:280px}
#status{margin:6px 0;font-size:13px;padding:6px 10px;border-radius:6px;background:var(--panel)}
#status[data-kind=error]{color:#b3261e}
.summary{display:grid;grid-template-columns:repeat(auto-fit,minmax(110px,1fr));gap:8px;margin:10px 0}
.stat{background:var(--panel);border-radius:var(--radius);padding:8px 10px}
.stat .label{display:block;font-size:11px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.stat .value{font-size:18px;font-weight:650}
main[data-busy=true] .summary,main[data-busy=true] .map svg{opacity:.6;transition:opacity .2s}
figure{margin:0}
#map{width:100%;height:auto;display:block;border-radius:var(--radius);border:1px solid var(--line)}
#map .ground{fill:#eef0ea}
[data-theme=dark] #map .ground{fill:#24282d}
#map .gridlines line{stroke:#ffffff;stroke-width:2}
[data-theme=dark] #map .gridlines line{stroke:#2f343a}
#map .business circle{fill:#ffffffb3;stroke:#1f2328;stroke-width:2.5;stroke-dasharray:5 3}
#map .pin circle{stroke:#fff;stroke-width:2.5}
#map .pin text{fill:#fff;font-weight:700;font-family:var(--font);pointer-events:none}
#map .scale,#map .attribution{font-size:11px;fill:#3d444d;paint-order:stroke;stroke:#ffffffd9;stroke-width:3px}
.legend{display:flex;flex-wrap:wrap;gap:4px 14px;list-style:none;margin:8px 0 0;padding:0;font-size:12px;color:var(--muted)}
.legend li{display:flex;align-items:center;gap:5px}
.swatch{display:inline-block;width:11px;height:11px;border-radius:50%}
.swatch.business{border:2px dashed var(--fg)}
`;
