import { TOOLS } from '../../facades/mcp/tools';
import { AGENCY_ROUTES } from '../../facades/rest/agency';
import { CUSTOMER_ROUTES } from '../../facades/rest/customer';
import { documentOf, parseRequest } from '../../facades/rest/route';
import { parse, print, validate, type DocumentNode } from 'graphql';
import { getSchema } from '../../src/graphql/schema';
import type { User } from '../../src/models';
import { serveApp, type ServedApp } from '../support/app';
import { useDatabase } from '../support/db';
import { tokenFor } from '../support/factories';
import { AI_ALL } from '../mcp/support';
import {
  BODIES,
  changedTables,
  checksums,
  FOREIGN,
  GRAPHQL_OPERATIONS,
  graphqlCall,
  makeSide,
  MCP_ID_ARGS,
  mcpCall,
  missingIds,
  NOT_SWEPT,
  oauthGrantOf,
  paramsOf,
  pathOf,
  queryIds,
  restCall,
  rootFieldsOf,
  rowsOf,
  sampleOf,
  type Answer,
  type Ids,
} from './sweep';

/**
 * The standing tenant-isolation sweep (issue 14; docs/security.md "Standing suite"), generated from the route
 * records (CUSTOMER_ROUTES, AGENCY_ROUTES) and the MCP tool registry, so a route or tool is swept the day it lands.
 *
 * Two tenants with two organisations each. Every route and tool is called by every principal of tenant A (tenant
 * owner, organisation owner, team member; customer, agency and AI tokens; an MCP client's OAuth grant of one
 * organisation) with the ids of objects it must not reach: tenant B's; for A's organisation owner, member and the
 * OAuth grant, A's other organisation's; for the member, the objects at the location of its own organisation it is
 * not assigned. Every id is sent where the route takes one (path, query, body; for MCP every id argument), together
 * with a plausible body.
 *
 * A finding is any of: a 2xx for a foreign id in the path; a 2xx answer carrying a foreign object's marker; an
 * answer for a foreign id that differs from the answer for an id that does not exist (status and error code: the
 * spec's "404 also for ids outside the caller's scope", so no answer tells a foreign object exists), except the
 * spec's 403 `location_access_denied` (MCP -32001) for a caller limited within its own tenant (team member, OAuth
 * grant of some organisations); a change to any stored row.
 * The same ids go through GraphQL with each route's own document, so the business API is swept alike, and through
 * the GraphQL operations no route or tool sends (GRAPHQL_OPERATIONS in sweep.ts).
 */
jest.setTimeout(240_000);

interface Principal {
  name: string;
  token: string;
  /** The APIs this token kind is for. */
  apis: ReadonlyArray<'customer' | 'agency' | 'graphql' | 'mcp'>;
  /** Limited within its own tenant (a team member, an OAuth grant of some organisations): may be told "access denied" there. */
  limited?: boolean;
}

interface Target {
  label: string;
  ids: Ids;
  sameTenant: boolean;
  marker: string;
  /** A location of the member's own organisation it is not assigned. */
  unassigned?: boolean;
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
    const principals: Array<Principal & { targets: Target[] }> = [];
    const crossTenant: Target[] = [
      { label: 'tenant B org 1', ids: b.org1, sameTenant: false, marker: `${FOREIGN}1` },
      { label: 'tenant B org 2', ids: b.org2, sameTenant: false, marker: `${FOREIGN}2` },
    ];
    const otherOrg: Target = { label: "tenant A's other organisation", ids: a.org2, sameTenant: true, marker: 'ALPHA2' };
    const unassigned: Target = { label: "an unassigned location of the member's organisation", ids: a.org1Unassigned, sameTenant: true, marker: 'ALPHA1L2', unassigned: true };
    /** What every principal of A sees of its own: the first organisation's objects. */
    const OWN = 'ALPHA1';
    principals.push({ name: 'tenant owner (customer token)', token: await customerToken(a.users.owner), apis: ['customer', 'graphql'], targets: crossTenant });
    principals.push({ name: 'tenant owner (agency token)', token: await tokenFor(a.users.owner, [], 'agency'), apis: ['agency', 'graphql'], targets: crossTenant });
    principals.push({ name: 'tenant owner (AI token)', token: await ai(a.users.owner), apis: ['mcp'], targets: crossTenant });
    for (const [name, user, limited, targets] of [
      ['organisation owner', a.users.owner1, false, [...crossTenant, otherOrg]],
      ['team member', a.users.member, true, [...crossTenant, otherOrg, unassigned]],
    ] as const) {
      principals.push({ name: `${name} (customer token)`, token: await customerToken(user), apis: ['customer', 'graphql'], limited, targets: [...targets] });
      principals.push({ name: `${name} (AI token)`, token: await ai(user), apis: ['mcp'], limited, targets: [...targets] });
    }
    // The tenant owner grants an MCP client (OAuth consent) only the first organisation: the second is as foreign to it.
    // Scans are the agency's, not an organisation's, and a grant does not narrow them (docs/decisions/mcp.md).
    principals.push({
      name: 'tenant owner (OAuth grant of the first organisation)',
      token: await oauthGrantOf(served.origin, a.users.owner, [a.org1.organization]),
      apis: ['mcp'],
      limited: true,
      targets: [...crossTenant, { ...otherOrg, ids: { ...a.org2, scan: missingIds().scan } }],
    });
    // Wrong token kinds on each API: refused whatever the id (403 wrong_token_kind before the route is read).
    const refusedKinds: Principal[] = [
      { name: 'agency token on the customer API', token: await tokenFor(a.users.owner, [], 'agency'), apis: ['customer'] },
      { name: 'customer token on the agency API', token: await customerToken(a.users.owner), apis: ['agency'] },
      { name: 'AI token on both REST APIs', token: await ai(a.users.owner), apis: ['customer', 'agency'] },
    ];

    const findings: Finding[] = [];
    const counts = { rest: 0, graphql: 0, mcp: 0, operations: 0, routes: 0, tools: TOOLS.length, principals: principals.length + refusedKinds.length };
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
              const spec403 = target.sameTenant && p.limited && got.status === 403 && got.code === 'location_access_denied';
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
                const spec403 = target.sameTenant && p.limited && got.code === 'FORBIDDEN';
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
            const spec403 = target.sameTenant && p.limited && got.code.startsWith('-32001/');
            if (!spec403) findings.push({ where, who: p.name, why: `${got.status} ${got.code} where a missing id gives ${control.status} ${control.code}` });
          }
        }
      }
    }

    // The GraphQL operations no route or tool sends, by every principal of the business API.
    const graphqlPrincipals = principals.filter((x) => x.apis.includes('graphql'));
    const answerOf = (x: Answer) => `${x.code}/${x.reason ?? ''}`;
    for (const op of GRAPHQL_OPERATIONS.filter((o) => o.kind !== 'own')) {
      const name = `graphql ${op.label ?? op.field}`;
      for (const p of graphqlPrincipals) {
        if (op.kind === 'list') {
          const got = await graphqlCall(served.origin, p.token, op.document, {});
          counts.operations++;
          if (got.code === 'INTERNAL_SERVER_ERROR') findings.push({ where: name, who: p.name, why: `answered ${got.text.slice(0, 160)}` });
          for (const target of p.targets) if (got.text.includes(target.marker)) findings.push({ where: name, who: p.name, why: `the list shows ${target.label}'s ${target.marker}: ${got.text.slice(0, 200)}` });
          const shows = op.shows?.some((who) => p.name === `${who} (customer token)`);
          if (shows && (got.code !== '' || !got.text.includes(OWN))) findings.push({ where: name, who: p.name, why: `does not show the caller's own ${OWN}: ${got.code} ${got.text.slice(0, 160)}` });
          continue;
        }
        const control = await graphqlCall(served.origin, p.token, op.document, op.variables!(missingIds()));
        if (op.kind === 'object' && !(op.refusals ?? ['NOT_FOUND', 'FORBIDDEN']).includes(control.code)) {
          findings.push({ where: name, who: p.name, why: `a missing id answers ${control.code || 'data'} ${control.text.slice(0, 160)}: the sample does not reach the id check` });
        }
        for (const target of p.targets) {
          const got = await graphqlCall(served.origin, p.token, op.document, op.variables!(target.ids));
          counts.operations++;
          const where = `${name} (${target.label})`;
          if (got.text.includes(target.marker)) findings.push({ where, who: p.name, why: `the answer carries ${target.marker}: ${got.text.slice(0, 200)}` });
          else if (op.kind === 'object' && got.code === '') findings.push({ where, who: p.name, why: `data for a foreign id: ${got.text.slice(0, 200)}` });
          else if (target.unassigned && op.unassignedLocation) {
            if (answerOf(got) !== op.unassignedLocation) findings.push({ where, who: p.name, why: `${answerOf(got)} where the spec says ${op.unassignedLocation}` });
          } else if (answerOf(got) !== answerOf(control)) {
            const spec403 = target.sameTenant && !target.unassigned && p.limited && got.code === 'FORBIDDEN';
            if (!spec403) findings.push({ where, who: p.name, why: `${answerOf(got)} where a missing id gives ${answerOf(control)}` });
          }
        }
      }
    }

    // Nothing stored changed, except the rows that record the calls themselves.
    for (const t of changedTables(before, await checksums(db()))) findings.push({ where: t, who: 'the sweep', why: 'a rejected attempt changed stored rows' });

    // Last, the writes on the caller's own account (they change its rows): no other account's row changes.
    const othersRows = async () =>
      new Map([
        ...[...(await rowsOf(db(), 'tenant_id', b.tenant.id))].map(([t, sum]) => [`tenant B: ${t}`, sum] as const),
        ...[...(await rowsOf(db(), 'customer_id', a.org2.customer))].map(([t, sum]) => [`A's other account: ${t}`, sum] as const),
      ]);
    const othersBefore = await othersRows();
    for (const op of GRAPHQL_OPERATIONS.filter((o) => o.kind === 'own')) {
      let wrote = false;
      for (const p of graphqlPrincipals) {
        const got = await graphqlCall(served.origin, p.token, op.document, {});
        counts.operations++;
        wrote ||= got.code === '';
        if (got.code === 'INTERNAL_SERVER_ERROR') findings.push({ where: `graphql ${op.field}`, who: p.name, why: `answered ${got.text.slice(0, 160)}` });
        for (const target of p.targets) if (got.text.includes(target.marker)) findings.push({ where: `graphql ${op.field}`, who: p.name, why: `the answer carries ${target.marker}` });
      }
      // The write went through for someone: the rows below were really written next to the others'.
      if (!wrote) findings.push({ where: `graphql ${op.field}`, who: 'every principal', why: 'refused: the sample never writes' });
    }
    const othersAfter = await othersRows();
    for (const [t, sum] of othersAfter) if (othersBefore.get(t) !== sum) findings.push({ where: t, who: 'the own-account operations', why: "changed another account's rows" });

    // The counts the CI log shows (issue 14: routes x principals tried).
    process.stdout.write(
      `isolation sweep: ${counts.routes} REST routes, ${GRAPHQL_OPERATIONS.length} GraphQL operations and ${counts.tools} MCP tools x ${counts.principals} principals: ${counts.rest} REST, ${counts.graphql + counts.operations} GraphQL and ${counts.mcp} MCP attempts, ${findings.length} findings\n`,
    );
    if (findings.length) process.stdout.write(findings.map((f) => `FINDING ${f.where} :: ${f.who} :: ${f.why}`).join("\n") + "\n");
    expect(findings).toEqual([]);
    expect(counts.rest).toBeGreaterThan(300);
    expect(counts.mcp).toBeGreaterThan(100);
    // The GraphQL form must really run (a route whose variables cannot be built from its REST form is skipped).
    expect(counts.graphql).toBeGreaterThan(250);
    expect(counts.operations).toBeGreaterThan(500);
  });

  it('every GraphQL operation is swept by a route, a tool or GRAPHQL_OPERATIONS (or says in NOT_SWEPT why not), and each of those is valid', async () => {
    const schema = await getSchema();
    const swept = new Set<string>([...GRAPHQL_OPERATIONS.map((o) => o.field), ...Object.keys(NOT_SWEPT)]);
    for (const tool of TOOLS) for (const f of rootFieldsOf(tool.document as DocumentNode)) swept.add(f);
    // A route's document may depend on its request: the one its sample request picks (an id where it takes one).
    for (const def of [...CUSTOMER_ROUTES, ...AGENCY_ROUTES]) {
      const ids = missingIds();
      const body = def.method === 'get' ? {} : (BODIES[`${def.method.toUpperCase()} ${def.path}`]?.(ids) ?? {});
      for (const query of [{}, Object.fromEntries(Object.entries(queryIds(ids)).map(([k, v]) => [k, String(v)]))]) {
        try {
          const parsed = parseRequest(def, { params: paramsOf(def, ids), query: def.method === 'get' ? query : {}, body }, {});
          for (const f of rootFieldsOf(documentOf(def, parsed) as DocumentNode)) swept.add(f);
        } catch {
          // the route refuses this input: the other one names its document
        }
      }
    }
    const fields = [...Object.keys(schema.getQueryType()!.getFields()), ...Object.keys(schema.getMutationType()!.getFields())];
    expect(fields.filter((f) => !swept.has(f))).toEqual([]);
    expect(Object.keys(NOT_SWEPT).filter((f) => !fields.includes(f))).toEqual([]);
    const invalid = GRAPHQL_OPERATIONS.flatMap((o) => validate(schema, parse(o.document)).map((e) => `${o.label ?? o.field}: ${e.message}`));
    expect(invalid).toEqual([]);
  });
});
