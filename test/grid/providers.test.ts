import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { DataForSeoClient } from '../../src/providers/ranking/dataforseo.client';
import { GoogleGeocoder } from '../../src/providers/google/geocoding.client';
import { SimulatedMarket } from '../../src/providers/ranking/simulator';
import { gridProviderSimulator } from '../../src/providers/ranking/simulator-http';
import { GridProviderRejected, GridProviderUnavailable } from '../../src/providers/ranking/types';

/** The real clients against a loopback server that speaks DataForSEO's and Google Geocoding's wire formats. */
describe('Local Search Grid provider clients', () => {
  const market = new SimulatedMarket();
  let server: Server;
  let base: string;
  const failures: Array<{ status: number; body: unknown; headers?: Record<string, string> }> = [];

  beforeAll(async () => {
    const app = express();
    app.use('/failing', (_req, res) => {
      const f = failures.shift()!;
      res.status(f.status).set(f.headers ?? {}).json(f.body);
    });
    app.use(gridProviderSimulator(market, { login: 'user', password: 'secret', apiKey: 'maps-key' }));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  it('DataForSEO: one task per pin and keyword, top 20 mapped to place id, name and rank, same as the market', async () => {
    const client = new DataForSeoClient({ login: 'user', password: 'secret', baseUrl: base });
    const got = await client.searchMaps({ keyword: 'dentist', lat: 40.7128, lng: -74.006 });
    expect(got).toHaveLength(20);
    expect(got.map((r) => r.rank)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(got).toEqual(market.rank('dentist', 40.7128, -74.006));
    expect(got[0].placeId).toMatch(/^sim-/);
  });

  it('DataForSEO: wrong credentials are a rejection, 5xx and 429 are retryable with Retry-After', async () => {
    const wrong = new DataForSeoClient({ login: 'user', password: 'nope', baseUrl: base });
    await expect(wrong.searchMaps({ keyword: 'dentist', lat: 1, lng: 1 })).rejects.toThrow(GridProviderRejected);
    const failing = new DataForSeoClient({ login: 'user', password: 'secret', baseUrl: `${base}/failing` });
    failures.push({ status: 500, body: { status_code: 50000, status_message: 'Internal Error.' } });
    await expect(failing.searchMaps({ keyword: 'dentist', lat: 1, lng: 1 })).rejects.toThrow(GridProviderUnavailable);
    failures.push({ status: 429, body: { status_code: 40202, status_message: 'Rate limit' }, headers: { 'Retry-After': '7' } });
    await expect(failing.searchMaps({ keyword: 'dentist', lat: 1, lng: 1 })).rejects.toMatchObject({ retryAfterMs: 7000 });
    failures.push({ status: 200, body: { status_code: 20000, tasks: [{ status_code: 40501, status_message: 'Invalid Field: keyword.' }] } });
    await expect(failing.searchMaps({ keyword: 'dentist', lat: 1, lng: 1 })).rejects.toMatchObject({ reason: 'Invalid Field: keyword.' });
  });

  it('DataForSEO: "No Search Results." (40102) is a pin where nothing ranks; "Internal SE Server Error." (40101) is retried', async () => {
    const failing = new DataForSeoClient({ login: 'user', password: 'secret', baseUrl: `${base}/failing` });
    failures.push({ status: 200, body: { status_code: 20000, tasks: [{ status_code: 40102, status_message: 'No Search Results.', result: null }] } });
    await expect(failing.searchMaps({ keyword: 'dentist', lat: 1, lng: 1 })).resolves.toEqual([]);
    failures.push({ status: 200, body: { status_code: 20000, tasks: [{ status_code: 40101, status_message: 'Internal SE Server Error.', result: null }] } });
    await expect(failing.searchMaps({ keyword: 'dentist', lat: 1, lng: 1 })).rejects.toThrow(GridProviderUnavailable);
  });

  it('Geocoding: OK gives the first result, ZERO_RESULTS gives null, REQUEST_DENIED is a rejection', async () => {
    const geocoder = new GoogleGeocoder({ apiKey: 'maps-key', baseUrl: base });
    const found = await geocoder.geocode('1 Main Street, Springfield');
    expect(found).toEqual(await market.geocode('1 Main Street, Springfield'));
    expect(found!.lat).toBeGreaterThanOrEqual(30);
    expect(await geocoder.geocode('Nowhere Lane 5')).toBeNull();
    await expect(new GoogleGeocoder({ apiKey: 'bad', baseUrl: base }).geocode('x')).rejects.toThrow(GridProviderRejected);
  });

  it('the simulated market is deterministic and ranks nearby relevant businesses first', () => {
    const a = market.rank('plumber', 51.5, -0.12);
    expect(market.rank('plumber', 51.5, -0.12)).toEqual(a);
    expect(market.rank('dentist', 51.5, -0.12)).not.toEqual(a);
    const near = market.nearestPlace('plumber', 51.5, -0.12);
    // The nearest relevant business ranks well right next to itself.
    const atIt = market.rank('plumber', near.lat, near.lng);
    expect(atIt.findIndex((r) => r.placeId === near.placeId)).toBeLessThan(5);
    // ...and drops out far away.
    expect(market.rank('plumber', near.lat + 0.5, near.lng).some((r) => r.placeId === near.placeId)).toBe(false);
  });
});
