import type { ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import { tileTemplateProblem } from '../../../src/config';
import type { Principal } from '../../../src/domain/principal';
import { ErrorCodes, McpError } from '../protocol';
import { scanGridScript } from './bundle';
import { scanGridDocument, type TileConfig } from './scan-grid';

export type { TileConfig } from './scan-grid';

/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, `@modelcontextprotocol/ext-apps`): UI resources a host renders
 * in a sandboxed frame for a tool's results. One here, the Local Search Grid heat map, declared by get_scan and
 * create_scan (`_meta.ui.resourceUri` in tools/list). A client without Apps support ignores the `_meta`
 * and gets the same text and structured content as ever.
 */

/** `RESOURCE_MIME_TYPE` of `@modelcontextprotocol/ext-apps` (test/mcp/scan-widget.test.ts holds them equal). */
export const RESOURCE_MIME_TYPE = 'text/html;profile=mcp-app';
export const SCAN_GRID_URI = 'ui://reviewgrid/scan-grid.html';

export interface AppsOptions {
  /** Map tiles under the grid; null: the grid on a plain canvas and no request at all (the default). */
  tiles: TileConfig | null;
}

/**
 * A tool's `_meta` naming the View that renders its results: `ui.resourceUri`, and the flat `ui/resourceUri` the
 * extension deprecates but hosts of its first releases still read (the SDK's `registerAppTool` writes both too).
 */
export const viewMeta = (uri: string): Record<string, unknown> => ({ ui: { resourceUri: uri }, 'ui/resourceUri': uri });

interface UiResource {
  uri: string;
  name: string;
  title: string;
  description: string;
  /** Local Search Grid Views: tenant owners only, like the tools that declare them. */
  tenantOwnerOnly: boolean;
  render(brandName: string, opts: AppsOptions): Promise<string>;
}

const RESOURCES: readonly UiResource[] = [
  {
    uri: SCAN_GRID_URI,
    name: 'scan-grid',
    title: 'Local Search Grid heat map',
    description:
      "Interactive heat map of a scan's grid for MCP Apps hosts: every pin coloured by the business's rank there, the " +
      "business at the grid's centre, the keyword's summary, and keyword and snapshot pickers. Shown with get_scan " +
      'and create_scan results (a queued scan appears when its first snapshot is complete).',
    tenantOwnerOnly: true,
    render: async (brandName, opts) => scanGridDocument({ brandName, script: await scanGridScript(), tiles: opts.tiles }),
  },
];

const visible = (p: Principal) => (r: UiResource) => !r.tenantOwnerOnly || p.role === 'tenant_owner';

/** `resources/list`: the Views this caller's tools declare (none for a caller without Local Search Grid tools). */
export function listResources(p: Principal): Resource[] {
  return RESOURCES.filter(visible(p)).map((r) => ({ uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: RESOURCE_MIME_TYPE }));
}

/**
 * `resources/read`: the View's document with the agency's brand. An unknown URI is -32002 `not_found`; a View of
 * tools the caller may not use is -32001 `tenant_owner_required`, as calling those tools would be. The CSP the host
 * builds allows nothing beyond its restrictive default unless tiles are configured: then their origin, for images.
 */
export async function readResource(p: Principal, uri: string, brandName: string, opts: AppsOptions): Promise<ReadResourceResult> {
  const resource = RESOURCES.find((r) => r.uri === uri);
  if (!resource) throw new McpError(ErrorCodes.NOT_FOUND_OR_LIMITED, `Resource not found: ${uri.slice(0, 200)}. Call resources/list for the resources this token can read.`, { reason: 'not_found' });
  if (!visible(p)(resource)) {
    throw new McpError(ErrorCodes.UNAUTHORIZED, `The ${resource.uri} view is part of the Local Search Grid, which only the agency (tenant owner) can use.`, { reason: 'tenant_owner_required' });
  }
  const ui: Record<string, unknown> = { prefersBorder: true };
  if (opts.tiles) ui.csp = { resourceDomains: [new URL(opts.tiles.url.replace(/\{[a-z]\}/g, '0')).origin] };
  return { contents: [{ uri: resource.uri, mimeType: RESOURCE_MIME_TYPE, text: await resource.render(brandName, opts), _meta: { ui } }] };
}

/** MCP_APP_TILE_URL / MCP_APP_TILE_ATTRIBUTION (checked at boot, src/config.ts) as tile settings; unset: no tiles. */
export function tilesFromConfig(url: string | undefined, attribution = '', maxZoom = 19): TileConfig | null {
  if (!url) return null;
  const problem = tileTemplateProblem(url);
  if (problem) throw new Error(`MCP_APP_TILE_URL is ${problem}.`);
  return { url, attribution, maxZoom };
}
