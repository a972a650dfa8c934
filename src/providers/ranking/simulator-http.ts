import express, { type Request, type Response, type Router } from 'express';
import type { SimulatedMarket } from './simulator';

/**
 * The simulated market behind the providers' own wire formats, so the real HTTP clients can be pointed at it:
 * DataForSEO `POST /v3/serp/google/maps/live/advanced` (Basic auth) and Google `GET /maps/api/geocode/json`.
 * Used by the client tests and `npm run bench:scans` (with `delayMs` standing in for the provider's latency).
 */
export interface SimulatorHttpOptions {
  login: string;
  password: string;
  apiKey: string;
  delayMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function gridProviderSimulator(market: SimulatedMarket, opts: SimulatorHttpOptions): Router {
  const router = express.Router();
  const expectedAuth = `Basic ${Buffer.from(`${opts.login}:${opts.password}`).toString('base64')}`;

  router.post('/v3/serp/google/maps/live/advanced', express.json({ limit: '1mb' }), async (req: Request, res: Response) => {
    if (req.headers.authorization !== expectedAuth) {
      res.status(401).json({ status_code: 40100, status_message: 'You are not authorized to access this resource.', tasks: null });
      return;
    }
    const tasks = Array.isArray(req.body) ? (req.body as Array<Record<string, unknown>>) : [];
    if (tasks.length !== 1) {
      res.json({ status_code: 40000, status_message: 'You can set only one task at a time.', tasks: [] });
      return;
    }
    if (opts.delayMs) await sleep(opts.delayMs);
    const t = tasks[0];
    const coord = typeof t.location_coordinate === 'string' ? t.location_coordinate.split(',') : [];
    const [lat, lng] = [Number(coord[0]), Number(coord[1])];
    if (typeof t.keyword !== 'string' || !t.keyword.trim() || !Number.isFinite(lat) || !Number.isFinite(lng)) {
      res.json({
        status_code: 20000,
        status_message: 'Ok.',
        tasks: [{ id: 'sim', status_code: 40501, status_message: 'Invalid Field: keyword or location_coordinate.', result: null }],
      });
      return;
    }
    const items = market.rank(t.keyword, lat, lng).map((r) => ({
      type: 'maps_search',
      rank_group: r.rank,
      rank_absolute: r.rank,
      title: r.name,
      place_id: r.placeId,
      cid: r.placeId,
    }));
    res.json({
      status_code: 20000,
      status_message: 'Ok.',
      tasks_count: 1,
      tasks_error: 0,
      tasks: [
        {
          id: `sim-${Date.now()}`,
          status_code: 20000,
          status_message: 'Ok.',
          data: { api: 'serp', function: 'live', se: 'google', se_type: 'maps', ...t },
          result: [{ keyword: t.keyword, type: 'maps', se_domain: 'google.com', items_count: items.length, items }],
        },
      ],
    });
  });

  router.get('/maps/api/geocode/json', async (req: Request, res: Response) => {
    if (req.query.key !== opts.apiKey) {
      res.json({ status: 'REQUEST_DENIED', error_message: 'The provided API key is invalid.', results: [] });
      return;
    }
    const address = typeof req.query.address === 'string' ? req.query.address : '';
    if (!address) {
      res.json({ status: 'INVALID_REQUEST', error_message: 'Invalid request. Missing the \'address\' parameter.', results: [] });
      return;
    }
    const found = await market.geocode(address);
    if (!found) {
      res.json({ status: 'ZERO_RESULTS', results: [] });
      return;
    }
    res.json({
      status: 'OK',
      results: [{ formatted_address: found.formattedAddress, ...(found.placeId ? { place_id: found.placeId } : {}), geometry: { location: { lat: found.lat, lng: found.lng }, location_type: 'APPROXIMATE' } }],
    });
  });

  return router;
}
