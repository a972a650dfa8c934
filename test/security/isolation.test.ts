import { TOOLS } from '../../facades/mcp/tools';
import { AGENCY_ROUTES } from '../../facades/rest/agency';
import { CUSTOMER_ROUTES } from '../../facades/rest/customer';
import { documentOf, parseRequest } from '../../facades/rest/route';
import { print } from 'graphql';
import type { User } from '../../src/models';
import { serveApp, type ServedApp } from '../support/app';
import { useDatabase } from '../support/db';
import { tokenFor } from '../support/factories';
import { AI_ALL } from '../mcp/support';
import { BODIES, changedTables, checksums, FOREIGN, graphqlCall, makeSide, MCP_ID_ARGS, mcpCall, missingIds, paramsOf, pathOf, queryIds, restCall, sampleOf, type Ids } from './sweep';

/**
 * The standing tenant-isolation sweep (issue 14; docs/security.md "Standing suite"), generated from the route
 * records (CUSTOMER_ROUTES, AGENCY_ROUTES) and the MCP tool registry, so a route or tool is swept the day it lands.
 *
 * Two tenants with two organisations each. Every route and tool is called by every principal of tenant A (tenant
 * owner, organisation owner, team member; customer, agency and AI tokens) with the ids of objects it must not
 * reach: tenant B's, and, for A's organisation owner and member, A's other organisation's. Every id is sent where
 * the route takes one (path, query, body; for MCP every id argument), together with a plausible body.
 *
 * A finding is any of: a 2xx for a foreign id in the path; a 2xx answer carrying a foreign object's marker; an
 * answer for a foreign id that differs from the answer for an id that does not exist (status and error code: the
 * spec's "404 also for ids outside the caller's scope", so no answer tells a foreign object exists), except the
 * spec's 403 `location_access_denied` for a team member inside its own tenant; a change to any stored row.
 * The same ids go through GraphQL with each route's own document, so the business API is swept alike.
 */
jest.setTimeout(240_000);

interface Principal {
  name: string;
  token: string;
  /** The APIs this token kind is for. */
  apis: ReadonlyArray<'customer' | 'agency' | 'graphql' | 'mcp'>;
}

interface Finding {
  where: string;
  who: string;
  why: string;
}

describe('tenant isolation: every route and tool, every principal, every foreign id', () => {
  const db = useDatabase();
  let served: ServedApp;
  beforeAll(async () => {
    served = await serveApp({ mcp: { perToken: 1_000_000, perWorkspace: 1_000_000, auditFlushMs: 20 } });
  });
  afterAll(async () => {
    await served?.close();
  });

  it('no foreign object is read, changed or told apart from a missing one', async () => {
    const a = await makeSide('ALPHA');
    const b = await makeSide(FOREIGN);
    const customerToken = (u: User) => tokenFor(u);
    const ai = (u: User) => tokenFor(u, AI_ALL, 'ai');
    const principals: Array<Principal & { targets: Array<{ label: string; ids: Ids; sameTenant: boolean; marker: string }> }> = [];
    const crossTenant = [
      { label: 'tenant B org 1', ids: b.org1, sameTenant: false, marker: `${FOREIGN}1` },
      { label: 'tenant B org 2', ids: b.org2, sameTenant: false, marker: `${FOREIGN}2` },
    ];
    const otherOrg = { label: "tenant A's other organisation", ids: a.org2, sameTenant: true, marker: 'ALPHA2' };
    principals.push({ name: 'tenant owner (customer token)', token: await customerToken(a.users.owner), apis: ['customer', 'graphql'], targets: crossTenant });
    principals.push({ name: 'tenant owner (agency token)', token: await tokenFor(a.users.owner, [], 'agency'), apis: ['agency', 'graphql'], targets: crossTenant });
    principals.push({ name: 'tenant owner (AI token)', token: await ai(a.users.owner), apis: ['mcp'], targets: crossTenant });
    for (const [name, user] of [['organisation owner', a.users.owner1], ['team member', a.users.member]] as const) {
      principals.push({ name: `${name} (customer token)`, token: await customerToken(user), apis: ['customer', 'graphql'], targets: [...crossTenant, otherOrg] });
      principals.push({ name: `${name} (AI token)`, token: await ai(user), apis: ['mcp'], targets: [...crossTenant, otherOrg] });
    }
    // Wrong token kinds on each API: refused whatever the id (403 wrong_token_kind before the route is read).
    const refusedKinds: Principal[] = [
      { name: 'agency token on the customer API', token: await tokenFor(a.users.owner, [], 'agency'), apis: ['customer'] },
      { name: 'customer token on the agency API', token: await customerToken(a.users.owner), apis: ['agency'] },
      { name: 'AI token on both REST APIs', token: await ai(a.users.owner), apis: ['customer', 'agency'] },
    ];

    const findings: Finding[] = [];
    const counts = { rest: 0, graphql: 0, mcp: 0, routes: 0, tools: TOOLS.length, principals: principals.length + refusedKinds.length };
    const apis = [
      { key: 'customer' as const, base: '/api/v1', routes: CUSTOMER_ROUTES },
      { key: 'agency' as const, base: '/api/agency/v1', routes: AGENCY_ROUTES },
    ];
    counts.routes = CUSTOMER_ROUTES.length + AGENCY_ROUTES.length;
    const before = await checksums(db());

    for (const api of apis) {
      for (const def of api.routes) {
        const key = `${def.method.toUpperCase()} ${def.path}`;
        const takesPathId = def.path.includes('/:');
        const bodyOf = def.method === 'get' ? () => ({}) : BODIES[key];
        if (!bodyOf) throw new Error(`The isolation sweep has no sample body for ${key}: add one to BODIES`);
        const writeTakesId = def.method !== 'get' && JSON.stringify(bodyOf(a.org1)) !== JSON.stringify(bodyOf(b.org1));
        // A route that takes no id at all is not a cross-object attempt; a list is still read for leaks below.
        if (!takesPathId && def.method !== 'get' && !writeTakesId) continue;
        const missing = missingIds();
        const request = (ids: Ids) => ({ path: pathOf(def, ids), query: def.method === 'get' ? queryIds(ids) : {}, body: bodyOf(ids) });

        for (const p of principals.filter((x) => x.apis.includes(api.key))) {
          const m = request(missing);
          const control = await restCall(served.origin, api.base, def.method, m.path, p.token, m.query, m.body);
          // The sample must reach the id check: a missing id is a 404 (or the role's own 403, or the spec's 422 naming
          // the id field itself, as "The selected custom plan id is invalid."), never a 422 about the rest of the body.
          const idField422 = control.status === 422 && /"errors":\{"(custom_plan_id|organization_id|location_id|source)":\[[^\]]*\]\}/.test(control.text);
          if ((takesPathId || def.method !== 'get') && control.status !== 404 && control.status !== 403 && !idField422) {
            findings.push({ where: key, who: p.name, why: `a missing id answers ${control.status} ${control.text.slice(0, 160)}: the sample does not reach the id check` });
          }
          for (const target of p.targets) {
            const f = request(target.ids);
            const got = await restCall(served.origin, api.base, def.method, f.path, p.token, f.query, f.body);
            counts.rest++;
            const where = `${key} (${target.label})`;
            if (got.status >= 500 || got.code === '<not json>') findings.push({ where, who: p.name, why: `answered ${got.status} ${got.text.slice(0, 120)}` });
            else if (got.status < 300 && (takesPathId || def.method !== 'get')) findings.push({ where, who: p.name, why: `${got.status} for a foreign id: ${got.text.slice(0, 200)}` });
            else if (got.status < 300 && got.text.includes(target.marker)) findings.push({ where, who: p.name, why: `the answer carries ${target.marker}: ${got.text.slice(0, 200)}` });
            else if (got.status !== control.status || got.code !== control.code) {
              const spec403 = target.sameTenant && p.name.startsWith('team member') && got.status === 403 && got.code === 'location_access_denied';
              if (!spec403) findings.push({ where, who: p.name, why: `answered ${got.status} ${got.code} where a missing id answers ${control.status} ${control.code}` });
            }
          }
          // Through GraphQL, with this route's own document and the variables its REST form builds.
          if (p.apis.includes('graphql')) {
            for (const target of p.targets) {
              let variables: Record<string, unknown>;
              let missingVariables: Record<string, unknown>;
              let document: string;
              try {
                const restRequest = (ids: Ids) => {
                  const r = request(ids);
                  // Parsed by the route's own schemas, as mountRoutes does (a bad input throws: the REST form refuses it).
                  return parseRequest(def, { params: paramsOf(def, ids), query: Object.fromEntries(Object.entries(r.query).map(([k, v]) => [k, String(v)])), body: r.body }, {});
                };
                const parsed = restRequest(target.ids);
                variables = def.variables(parsed);
                missingVariables = def.variables(restRequest(missing));
                document = print(documentOf(def, parsed));
              } catch {
                continue; // the REST form refuses this input before GraphQL sees it
              }
              const got = await graphqlCall(served.origin, p.token, document, variables);
              const control = await graphqlCall(served.origin, p.token, document, missingVariables);
              counts.graphql++;
              const where = `graphql ${key} (${target.label})`;
              if (got.status < 300 && (takesPathId || def.method !== 'get')) findings.push({ where, who: p.name, why: `data for a foreign id: ${got.text.slice(0, 200)}` });
              else if (got.text.includes(target.marker)) findings.push({ where, who: p.name, why: `the data carries ${target.marker}` });
              else if (got.code !== control.code) {
                const spec403 = target.sameTenant && p.name.startsWith('team member') && got.code === 'FORBIDDEN';
                if (!spec403) findings.push({ where, who: p.name, why: `${got.code} where a missing id gives ${control.code}` });
              }
            }
          }
        }
        for (const p of refusedKinds.filter((x) => x.apis.includes(api.key))) {
          const f = request(b.org1);
          const got = await restCall(served.origin, api.base, def.method, f.path, p.token, f.query, f.body);
          counts.rest++;
          if (got.status !== 403 || got.code !== 'wrong_token_kind') findings.push({ where: key, who: p.name, why: `answered ${got.status} ${got.code}, not 403 wrong_token_kind` });
        }
      }
    }

    for (const tool of TOOLS) {
      const schema = tool.inputSchema as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
      const props = schema.properties ?? {};
      const idArgs = Object.keys(props).filter((k) => k in MCP_ID_ARGS);
      const argsOf = (ids: Ids) => {
        const args: Record<string, unknown> = {};
        for (const name of schema.required ?? []) args[name] = sampleOf(props[name]);
        for (const name of idArgs) args[name] = MCP_ID_ARGS[name](ids);
        // A scan id is a uuid string; a campaign id is too.
        return args;
      };
      for (const p of principals.filter((x) => x.apis.includes('mcp'))) {
        const control = await mcpCall(served.origin, p.token, tool.name, argsOf(missingIds()));
        for (const target of p.targets) {
          const got = await mcpCall(served.origin, p.token, tool.name, argsOf(target.ids));
          counts.mcp++;
          const where = `mcp ${tool.name} (${target.label})`;
          if (got.text.includes(target.marker)) findings.push({ where, who: p.name, why: `the result carries ${target.marker}: ${got.text.slice(0, 200)}` });
          else if (idArgs.length > 0 && (got.status !== control.status || got.code !== control.code)) {
            const spec403 = target.sameTenant && p.name.startsWith('team member') && got.code.startsWith('-32001/');
            if (!spec403) findings.push({ where, who: p.name, why: `${got.status} ${got.code} where a missing id gives ${control.status} ${control.code}` });
          }
        }
      }
    }

    // Nothing stored changed, except the rows that record the calls themselves.
    for (const t of changedTables(before, await checksums(db()))) findings.push({ where: t, who: 'the sweep', why: 'a rejected attempt changed stored rows' });

    // The counts the CI log shows (issue 14: routes x principals tried).
    process.stdout.write(
      `isolation sweep: ${counts.routes} REST routes and ${counts.tools} MCP tools x ${counts.principals} principals: ${counts.rest} REST, ${counts.graphql} GraphQL and ${counts.mcp} MCP attempts, ${findings.length} findings\n`,
    );
    if (findings.length) process.stdout.write(findings.map((f) => `FINDING ${f.where} :: ${f.who} :: ${f.why}`).join("\n") + "\n");
    expect(findings).toEqual([]);
    expect(counts.rest).toBeGreaterThan(300);
    expect(counts.mcp).toBeGreaterThan(100);
    // The GraphQL form must really run (a route whose variables cannot be built from its REST form is skipped).
    expect(counts.graphql).toBeGreaterThan(250);
  });
});
