import fs from 'node:fs';
import path from 'node:path';
import { TOOLS } from '../../facades/mcp/tools';

/**
 * The tools' output schemas where a tool answers a REST shape are generated from the same wire schemas as the REST
 * OpenAPI documents (facades/mcp/schema.ts `fromZod`), and every output schema stays portable: no `$ref`, no `allOf`,
 * no `type` arrays (MCP Inspector's --strict check and single-type dialects), every object closed.
 */
type Schema = Record<string, unknown>;
const openapi = (name: 'customer' | 'agency') =>
  JSON.parse(fs.readFileSync(path.join(__dirname, '../../schema/openapi', `${name}.json`), 'utf8')) as { components: { schemas: Record<string, Schema> } };
const tool = (name: string) => TOOLS.find((t) => t.name === name)!;
const props = (s: Schema) => s.properties as Record<string, Schema>;
const item = (s: Schema) => props(s).data.items as Schema;

function walk(node: unknown, at: string, visit: (n: Schema, at: string) => void): void {
  if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${at}/${i}`, visit));
  else if (node && typeof node === 'object') {
    visit(node as Schema, at);
    for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`, visit);
  }
}

describe('MCP tool schemas', () => {
  it('are portable: no $ref, allOf or type arrays, and closed objects', () => {
    const problems: string[] = [];
    for (const t of TOOLS) {
      walk(t.outputSchema, t.name, (n, at) => {
        if ('$ref' in n) problems.push(`${at}: $ref`);
        if ('allOf' in n) problems.push(`${at}: allOf`);
        if (Array.isArray(n.type)) problems.push(`${at}: type array`);
        if (n.type === 'object' && n.properties && n.additionalProperties !== false) problems.push(`${at}: open object`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('answer the REST shapes with the REST documents\' fields, required fields and formats', () => {
    const customer = openapi('customer').components.schemas;
    const agency = openapi('agency').components.schemas;
    const pairs: Array<[string, Schema, Schema]> = [
      ['get_review', tool('get_review').outputSchema, customer.Review],
      ['list_reviews', item(tool('list_reviews').outputSchema), customer.Review],
      ['list_locations', item(tool('list_locations').outputSchema), customer.Location],
      ['list_gbp_search_terms', item(tool('list_gbp_search_terms').outputSchema), customer.SearchTermRow],
      ['list_scans', item(tool('list_scans').outputSchema), agency.ScanRow],
      ['get_scan', tool('get_scan').outputSchema, agency.ScanDetail],
      ['get_scan_insights', tool('get_scan_insights').outputSchema, agency.ScanInsights],
    ];
    for (const [name, mcp, rest] of pairs) {
      expect([name, Object.keys(props(mcp))]).toEqual([name, Object.keys(props(rest))]);
      expect([name, mcp.required]).toEqual([name, rest.required]);
      for (const [field, s] of Object.entries(props(rest))) {
        if (typeof s.format === 'string') expect([name, field, JSON.stringify(props(mcp)[field])]).toEqual([name, field, expect.stringContaining(`"format":"${s.format}"`)]);
      }
    }
    // list_organizations adds review stats to the REST Organization.
    expect(Object.keys(props(item(tool('list_organizations').outputSchema)))).toEqual([...Object.keys(props(customer.Organization)), 'stats']);
  });
});
