import { randomUUID } from 'node:crypto';
import { ApiError, createAgencyClient, pages, paginate, type AgencyClient } from '../../clients/typescript/src';
import { serveApp, type ServedApp } from '../support/app';
import { useDatabase } from '../support/db';
import { agencyTokenFor, makeTenant } from '../support/factories';

/** The typed client against the agency API of the real app (issue 15 item 5): the customer list has links, no last page. */
describe('typed client: agency API end to end', () => {
  useDatabase();
  let served: ServedApp;
  beforeAll(async () => {
    served = await serveApp();
  });
  afterAll(async () => {
    await served?.close();
  });

  async function agency(): Promise<AgencyClient> {
    const { owner } = await makeTenant();
    return createAgencyClient({ baseUrl: served.origin, token: await agencyTokenFor(owner) });
  }

  it('creates customers on a custom plan, walks the customer list page by page and pauses one', async () => {
    const client = await agency();
    const { data: plans } = await client.GET('/custom-plans');
    const [plan] = plans.data;
    expect(plan).toBeDefined();

    const created: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { data, response } = await client.POST('/customers', {
        body: { name: `Dana ${i}`, company: `Bright Smiles ${i}`, email: `dana-${randomUUID().slice(0, 8)}@brightsmiles.test`, password: 'correct horse', custom_plan_id: plan.id },
      });
      expect(response.status).toBe(201);
      created.push(data.data.id);
    }

    const seen: number[] = [];
    let pageCount = 0;
    for await (const page of pages(client, '/customers', { query: { per_page: 2 } })) {
      pageCount += 1;
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((c) => c.id));
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(created));
    expect(pageCount).toBe(Math.ceil(seen.length / 2));
    const names: string[] = [];
    for await (const c of paginate(client, '/customers', { query: { per_page: 2, search: 'Dana 1' } })) names.push(c.name);
    expect(names).toEqual(['Dana 1']);

    const { data: paused } = await client.PUT('/customers/{customer}/pause', { params: { path: { customer: created[0] } } });
    expect(paused).toBeDefined();

    const unknown = await client.PUT('/customers/{customer}/pause', { params: { path: { customer: 999_999_999 } } }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ApiError);
    expect((unknown as ApiError).status).toBe(404);

    const invalid = (await client.POST('/customers', { body: { name: 'No Email', company: 'X', password: 'short', custom_plan_id: plan.id } }).catch((e: unknown) => e)) as ApiError;
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.errors)).toEqual(expect.arrayContaining(['email']));
  });
});
