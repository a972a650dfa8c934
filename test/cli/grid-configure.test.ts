import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { QueryTypes } from 'sequelize';
import { decryptSecret } from '../../src/crypto/secrets';
import { SimulatedMarket } from '../../src/providers/ranking/simulator';
import { gridProviderSimulator } from '../../src/providers/ranking/simulator-http';
import { TenantDomain } from '../../src/models';
import { gridProvidersFor } from '../../src/services/grid-providers.service';
import { useDatabase } from '../support/db';
import { makeTenant } from '../support/factories';
import { cliJson } from './binary';

/**
 * `reviewgrid grid:configure` (the built binary), run as a process against this worker's database: the tenant's Local Search Grid
 * providers are stored (secrets encrypted at rest, and usable: the stored credentials open a loopback server speaking
 * DataForSEO's and Google's wire formats), the simulator mode works, and bad arguments fail clearly.
 */
jest.setTimeout(60_000);

describe('reviewgrid grid:configure', () => {
  const db = useDatabase();
  const market = new SimulatedMarket();
  const cli = cliJson;
  const rawRow = async (tenantId: number) =>
    (
      await db().query<Record<string, string | null>>(
        'SELECT mode, dataforseo_login, dataforseo_password, google_maps_key, dataforseo_base_url, google_maps_base_url FROM grid_provider_settings WHERE tenant_id = ?',
        { replacements: [tenantId], type: QueryTypes.SELECT },
      )
    )[0];

  let server: http.Server;
  let baseUrl = '';
  beforeAll(async () => {
    const app = express().use(gridProviderSimulator(market, { login: 'dfs-login', password: 'dfs-Secret-1', apiKey: 'maps-Key-1' }));
    server = await new Promise<http.Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it('stores live DataForSEO + Google settings with the password and key encrypted at rest, and they work', async () => {
    const { tenant } = await makeTenant();
    const { domain } = (await TenantDomain.findOne({ where: { tenantId: tenant.id } }))!;
    const res = await cli(
      'grid:configure', '--tenant', domain, '--mode', 'live',
      '--dataforseo-login', 'dfs-login', '--dataforseo-password', 'dfs-Secret-1', '--google-maps-key', 'maps-Key-1',
      '--dataforseo-url', baseUrl, '--google-maps-url', baseUrl,
    );
    expect(res.code).toBe(0);
    expect(res.json).toEqual({ tenant: { id: tenant.id }, grid_providers: { mode: 'live', dataforseo_login: 'dfs-login' } });
    expect(res.stdout + res.stderr).not.toContain('dfs-Secret-1');
    expect(res.stdout + res.stderr).not.toContain('maps-Key-1');

    const row = await rawRow(tenant.id);
    expect(row).toMatchObject({ mode: 'live', dataforseo_login: 'dfs-login', dataforseo_base_url: baseUrl, google_maps_base_url: baseUrl });
    for (const [column, plain] of [['dataforseo_password', 'dfs-Secret-1'], ['google_maps_key', 'maps-Key-1']] as const) {
      const stored = row[column]!;
      expect(stored).not.toContain(plain);
      expect(stored).toMatch(/^v2\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(decryptSecret(stored)).toBe(plain);
    }

    // The stored settings drive the real clients: the loopback server accepts only the right credentials.
    const providers = (await gridProvidersFor(tenant.id))!;
    expect(providers.mode).toBe('live');
    const at = { lat: 30.2672, lng: -97.7431 };
    const ranked = await providers.ranking.searchMaps({ keyword: 'dentist', ...at });
    expect(ranked.map((r) => r.placeId)).toEqual(market.rank('dentist', at.lat, at.lng).map((r) => r.placeId));
    expect(await providers.geocoder.geocode('Congress Ave, Austin, TX')).toMatchObject({ lat: expect.any(Number), lng: expect.any(Number) });
  });

  it('--mode simulator replaces live settings: no secrets kept, the simulated market answers', async () => {
    const { tenant } = await makeTenant();
    const live = await cli('grid:configure', '--tenant', String(tenant.id), '--mode', 'live', '--dataforseo-login', 'l', '--dataforseo-password', 'p', '--google-maps-key', 'k');
    expect(live.code).toBe(0);
    const res = await cli('grid:configure', '--tenant', String(tenant.id), '--mode', 'simulator');
    expect(res.code).toBe(0);
    expect(res.json).toEqual({ tenant: { id: tenant.id }, grid_providers: { mode: 'simulator', dataforseo_login: null } });
    expect(await rawRow(tenant.id)).toEqual({
      mode: 'simulator', dataforseo_login: null, dataforseo_password: null, google_maps_key: null, dataforseo_base_url: null, google_maps_base_url: null,
    });
    const providers = (await gridProvidersFor(tenant.id))!;
    expect(providers.mode).toBe('simulator');
    expect(await providers.ranking.searchMaps({ keyword: 'plumber', lat: 51.5, lng: -0.12 })).toEqual(market.rank('plumber', 51.5, -0.12));
  });

  it('rejects bad arguments with a clear error and exit 2, storing nothing', async () => {
    const { tenant } = await makeTenant();
    const id = String(tenant.id);

    // Argument parsing (commander): an unknown mode, a missing --mode; with --json, the one JSON error line too.
    const mode = await cli('grid:configure', '--tenant', id, '--mode', 'cloud');
    expect(mode.code).toBe(2); // README: 2 = invalid input
    expect(mode.json.error.message).toContain("argument 'cloud' is invalid. Allowed choices are simulator, live.");
    const missing = await cli('grid:configure', '--tenant', id);
    expect(missing.code).toBe(2);
    expect(missing.json.error.message).toContain("required option '--mode <mode>' not specified");

    // Validation (exit 2, a JSON error naming the fields).
    const incomplete = await cli('grid:configure', '--tenant', id, '--mode', 'live', '--dataforseo-login', 'l');
    expect(incomplete.code).toBe(2);
    expect(Object.keys(incomplete.json.error.fields).sort()).toEqual(['dataforseo_password', 'google_maps_key']);
    const badUrl = await cli('grid:configure', '--tenant', id, '--mode', 'simulator', '--dataforseo-url', 'ftp://example.test');
    expect(badUrl.code).toBe(2);
    expect(badUrl.json.error.fields).toEqual({ dataforseo_base_url: ['Must be an http(s) URL.'] });
    // Past the columns (a database error before): a 256-character login, a 501-character URL.
    const long = await cli('grid:configure', '--tenant', id, '--mode', 'live', '--dataforseo-login', 'l'.repeat(256), '--dataforseo-password', 'p', '--google-maps-key', 'k', '--google-maps-url', `https://maps.test/${'x'.repeat(483)}`);
    expect(long.code).toBe(2);
    expect(long.json.error.fields).toEqual({
      dataforseo_login: ['The DataForSEO login may not be greater than 255 characters.'],
      google_maps_base_url: ['The URL may not be greater than 500 characters.'],
    });
    const unknown = await cli('grid:configure', '--tenant', 'no-such-agency.test', '--mode', 'simulator');
    expect(unknown.code).toBe(2);
    expect(unknown.json.error.message).toMatch(/tenant not found/i);

    expect(await rawRow(tenant.id)).toBeUndefined();
    expect(await gridProvidersFor(tenant.id)).toBeNull();
  });
});
