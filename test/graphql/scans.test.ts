import { Scan } from '../../src/models';
import { configureGridProviders } from '../../src/services/grid-providers.service';
import { useApp } from '../support/app';
import { makeWorld, tokenFor } from '../support/factories';
import { useTemporalWorker } from '../support/temporal';
import { waitUntil } from '../support/wait';

/** GraphQL `createScan` and `scanCost`: the scan's `locationId`, a location of the caller's own tenant or nothing. */
jest.setTimeout(60_000);

describe('GraphQL createScan locationId', () => {
  const t = useApp();
  useTemporalWorker();

  const input = (locationId: number) => ({ location: 'Main Street Dental', keywords: ['dentist'], gridSize: 3, distance: 2, distanceUnit: 'km', lat: 40.7128, lng: -74.006, locationId });
  const gql = (token: string, query: string, variables: Record<string, unknown>) => t.as(token).post('/graphql').send({ query, variables });
  const createScan = (token: string, locationId: number) =>
    gql(token, 'mutation($input: CreateScanInput!) { createScan(input: $input) { uuid } }', { input: input(locationId) });
  const scanCost = (token: string, locationId: number) => gql(token, 'query($input: CreateScanInput!) { scanCost(input: $input) { pins } }', { input: input(locationId) });

  async function agency() {
    const w = await makeWorld();
    await configureGridProviders({ tenantId: w.tenant.id, mode: 'simulator' });
    return { ...w, token: await tokenFor(w.owner, ['organizations:read', 'organizations:update']) };
  }
  const refused = { code: 'VALIDATION', fields: { location_id: ["The location must be one of the agency's locations."] } };

  it("refuses an unknown id, -1 and another tenant's location with the location_id field error, and stores no scan", async () => {
    const a = await agency();
    const b = await agency();
    for (const locationId of [b.branch.id + 1_000_000, -1, 0, b.home.id]) {
      const res = await createScan(a.token, locationId);
      expect([locationId, res.body.errors?.[0]?.extensions]).toEqual([locationId, expect.objectContaining(refused)]);
      expect(res.body.data).toBeNull();
    }
    expect(await Scan.count({ where: { tenantId: a.tenant.id } })).toBe(0);
    // The dry run applies the same rule.
    expect((await scanCost(a.token, b.home.id)).body.errors[0].extensions).toMatchObject(refused);
  });

  it("reports the location_id error together with the other field errors", async () => {
    const a = await agency();
    const res = await gql(a.token, 'mutation($input: CreateScanInput!) { createScan(input: $input) { uuid } }', { input: { ...input(-1), keywords: [''], distanceUnit: 'feet' } });
    expect(Object.keys(res.body.errors[0].extensions.fields).sort()).toEqual(['distance_unit', 'keywords', 'location_id']);
  });

  it("accepts a location of the caller's tenant and stores it on the scan", async () => {
    const a = await agency();
    expect((await scanCost(a.token, a.branch.id)).body.data.scanCost.pins).toBe(9);
    const res = await createScan(a.token, a.branch.id);
    expect(res.body.errors).toBeUndefined();
    const uuid: string = res.body.data.createScan.uuid;
    expect((await Scan.findOne({ where: { uuid } }))!.locationId).toBe(a.branch.id);
    await waitUntil(async () => (await Scan.findOne({ where: { uuid } }))!.isRunning === false);
  });
});
