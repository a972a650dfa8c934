import { QueryTypes } from 'sequelize';
import { ApiToken } from '../../src/models';
import { useServedApp } from '../support/app';
import { makeOrganization } from '../support/factories';
import { connect, postConsent, register } from './connect-support';
import { Browser, oauthWorld } from './mcp-support';

const db = () => ApiToken.sequelize!;

/**
 * The consent page of an agency with more organisations than the page used to list (500): every one is listed and can
 * be granted, the ticked ids are checked against what the user sees (not against a capped list), and more ticks than
 * one consent takes (1,000) are refused with a page that says so, not dropped.
 */
describe('MCP OAuth consent: which organisations, however many there are', () => {
  const app = useServedApp();

  /** An organisation owner with 600 organisations ("Branch 0001" ... "Branch 0600", one insert) besides "Bakery", and "Zoo Deli" sorting after all of them. */
  async function bigAgency() {
    const w = await oauthWorld();
    const now = new Date();
    const rows = Array.from({ length: 600 }, (_, i) => [w.tenant.id, w.owner.customerId, `Branch ${String(i + 1).padStart(4, '0')}`, now, now]);
    await db().query(`INSERT INTO organizations (tenant_id, customer_id, name, created_at, updated_at) VALUES ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}`, {
      replacements: rows.flat(),
      type: QueryTypes.INSERT,
    });
    const zoo = await makeOrganization(w.owner, 'Zoo Deli');
    const ids = (
      await db().query<{ id: number }>('SELECT id FROM organizations WHERE customer_id = ? ORDER BY name', { replacements: [w.owner.customerId], type: QueryTypes.SELECT })
    ).map((r) => r.id);
    expect(ids).toHaveLength(602);
    expect(ids.indexOf(zoo.id)).toBe(601);
    return { w, zoo, ids, client: await register(app.origin) };
  }

  const grantedOrganizations = async (userId: number) => {
    const [row] = await db().query<{ organizationIds: string | null }>('SELECT organization_ids AS organizationIds FROM mcp_authorizations WHERE user_id = ? ORDER BY id DESC LIMIT 1', {
      replacements: [userId],
      type: QueryTypes.SELECT,
    });
    return row.organizationIds === null ? null : (JSON.parse(row.organizationIds) as number[]);
  };

  it('lists an organisation beyond the first 500 and grants it: the token sees it, and no other', async () => {
    const { w, zoo, client } = await bigAgency();
    const stranger = await oauthWorld();
    let listed = '';
    const { issued } = await connect(app.origin, new Browser(), {
      clientId: client.client_id,
      email: w.owner.email,
      password: w.password,
      consent: (page) => {
        listed = page;
        // Another agency's organisation posted with it is left out.
        return { organizations: 'some', organization: [String(zoo.id), String(stranger.org.id)] };
      },
    });
    expect(listed).toContain('Zoo Deli');
    expect(listed).toContain(`value="${zoo.id}"`);
    expect(listed).toContain('Branch 0600');
    expect(issued.status).toBe(200);
    expect(await grantedOrganizations(w.owner.id)).toEqual([zoo.id]);
    const res = await fetch(`${app.origin}/api/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${issued.json.access_token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_organizations', arguments: {} } }),
    });
    expect(res.status).toBe(200);
    const seen = JSON.stringify(((await res.json()) as { result: { structuredContent: unknown } }).result.structuredContent);
    expect(seen).toContain('Zoo Deli');
    expect(seen).not.toContain('Bakery');
    expect(seen).not.toContain('Branch 0001');
  });

  it('grants every one of 602 ticked organisations', async () => {
    const { w, ids, client } = await bigAgency();
    const { issued } = await connect(app.origin, new Browser(), {
      clientId: client.client_id,
      email: w.owner.email,
      password: w.password,
      consent: () => ({ scope: 'mcp:writes', organizations: 'some', organization: ids.map(String) }),
    });
    expect(issued.status).toBe(200);
    expect(await grantedOrganizations(w.owner.id)).toEqual([...ids].sort((a, b) => a - b));
  });

  it('refuses more than 1,000 ticked organisations with a page that says so, and the consent can then be given', async () => {
    const { w, zoo, ids, client } = await bigAgency();
    const browser = new Browser();
    const refusals: Array<{ status: number; page: string }> = [];
    const { issued } = await connect(app.origin, browser, {
      clientId: client.client_id,
      email: w.owner.email,
      password: w.password,
      consent: async (_page, uid) => {
        // 1,001 ids (the parser reads them, the consent refuses them), then 2,000 (more than the parser reads).
        const tooMany = [...ids, ...Array.from({ length: 399 }, (_, i) => 900_000_000 + i)].map(String);
        const wayTooMany = Array.from({ length: 2000 }, (_, i) => String(900_000_000 + i));
        for (const organization of [tooMany, wayTooMany]) {
          expect(organization.length).toBeGreaterThan(1000);
          const res = await postConsent(app.origin, browser, uid, { organizations: 'some', organization });
          refusals.push({ status: res.status, page: await res.text() });
        }
        return { organizations: 'some', organization: [String(zoo.id)] };
      },
    });
    expect(refusals.map((r) => r.status)).toEqual([400, 413]);
    for (const { page } of refusals) {
      expect(page).toContain('Too many organisations ticked');
      expect(page).toContain('At most 1,000 organisations can be ticked');
    }
    // The interaction stayed open: the same consent page, answered with one organisation, went through.
    expect(issued.status).toBe(200);
    expect(await grantedOrganizations(w.owner.id)).toEqual([zoo.id]);
  });
});
