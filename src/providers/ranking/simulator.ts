import { createHash } from 'node:crypto';
import { distanceKm } from '../../grid/pins';
import { TRADES, tradeOfName, type Trade } from '../../domain/trades';
import type { GeocodeResult, Geocoder, MapResult, RankingProvider } from './types';

/**
 * A deterministic local market for the embedded default, the demo and the benchmarks. Businesses sit on a world
 * lattice (cells of 0.01 degree hold 0-2 businesses each, derived from the cell's hash), so every pin of every scan
 * sees the same world. A business's score for a query is
 *     2 x relevance(keyword) + prominence - distance_km / 2.5
 * and the 20 best relevant businesses (relevance >= 0.25) are the results. Relevance and prominence are hashes in
 * [0, 1): the same question always gets the same answer. Three businesses in four have a trade (dentist, vet,
 * bakery: src/domain/trades.ts) that their name says ("Maple Family Dentistry"); a keyword of a trade ("dentist near
 * me", "emergency vet") finds only businesses of that trade, any other keyword any business.
 */
const CELL_DEG = 0.01;
const REACH_CELLS = 10;
const MIN_RELEVANCE = 0.25;

const PREFIXES = ['Maple', 'Harbor', 'Summit', 'Oak', 'Riverside', 'Northside', 'Bright', 'Cedar', 'Union', 'Elm', 'Granite', 'Willow', 'Park', 'Liberty', 'Crown', 'Silver'];
const SUFFIXES = ['& Co.', 'Group', 'Studio', 'Partners', 'Works', 'Collective', 'House', 'Center', 'Services', 'Associates'];
const TRADE_SUFFIXES: Record<Trade, readonly string[]> = {
  dentist: ['Dental', 'Family Dentistry', 'Dental Care', 'Smiles', 'Orthodontics', 'Dental Studio'],
  vet: ['Animal Hospital', 'Vet Clinic', 'Pet Care', 'Veterinary Center', 'Animal Clinic'],
  bakery: ['Bakery', 'Bakehouse', 'Patisserie', 'Bread Co.', 'Pastry Shop'],
};

/** Uniform in [0, 1) from a string. */
function unit(s: string): number {
  return createHash('sha1').update(s).digest().readUInt32BE(0) / 2 ** 32;
}

interface Business {
  placeId: string;
  name: string;
  trade: Trade | null;
  lat: number;
  lng: number;
  prominence: number;
}

function businessesIn(cx: number, cy: number): Business[] {
  const key = `${cx}:${cy}`;
  const n = Math.floor(unit(`count:${key}`) * 2.6); // 0, 1 or 2
  const out: Business[] = [];
  for (let k = 0; k < n; k++) {
    const id = `sim-${cx}-${cy}-${k}`;
    const t = Math.floor(unit(`trade:${id}`) * (TRADES.length + 1));
    const trade = t < TRADES.length ? TRADES[t] : null;
    const suffixes = trade ? TRADE_SUFFIXES[trade] : SUFFIXES;
    out.push({
      placeId: id,
      trade,
      name: `${PREFIXES[Math.floor(unit(`p:${id}`) * PREFIXES.length)]} ${suffixes[Math.floor(unit(`s:${id}`) * suffixes.length)]}`,
      lat: (cy + unit(`y:${id}`)) * CELL_DEG,
      lng: (cx + unit(`x:${id}`)) * CELL_DEG,
      prominence: unit(`prom:${id}`),
    });
  }
  return out;
}

const normalise = (keyword: string) => keyword.trim().toLowerCase().replace(/\s+/g, ' ');

/** How relevant a business is for a keyword, in [0, 1): a trade's keyword ranks its trade high and the rest out. */
function relevance(b: Business, kw: string, kwTrade: Trade | null): number {
  const r = unit(`rel:${b.placeId}:${kw}`);
  if (!kwTrade) return r;
  return b.trade === kwTrade ? MIN_RELEVANCE + (1 - MIN_RELEVANCE) * r : r * MIN_RELEVANCE * 0.9;
}

export class SimulatedMarket implements RankingProvider, Geocoder {
  readonly name = 'simulator';

  /** The business scores and ranks as a provider would see them from (lat, lng). */
  rank(keyword: string, lat: number, lng: number, limit = 20): MapResult[] {
    const kw = normalise(keyword);
    const kwTrade = tradeOfName(kw);
    const cx0 = Math.floor(lng / CELL_DEG);
    const cy0 = Math.floor(lat / CELL_DEG);
    const scored: Array<{ b: Business; score: number }> = [];
    for (let dy = -REACH_CELLS; dy <= REACH_CELLS; dy++) {
      for (let dx = -REACH_CELLS; dx <= REACH_CELLS; dx++) {
        for (const b of businessesIn(cx0 + dx, cy0 + dy)) {
          const rel = relevance(b, kw, kwTrade);
          if (rel < MIN_RELEVANCE) continue;
          scored.push({ b, score: 2 * rel + b.prominence - distanceKm({ lat, lng }, b) / 2.5 });
        }
      }
    }
    scored.sort((a, b) => b.score - a.score || a.b.placeId.localeCompare(b.b.placeId));
    return scored.slice(0, limit).map((s, i) => ({ placeId: s.b.placeId, name: s.b.name, rank: i + 1 }));
  }

  async searchMaps(q: { keyword: string; lat: number; lng: number }): Promise<MapResult[]> {
    return this.rank(q.keyword, q.lat, q.lng);
  }

  /** The business nearest to a point that is relevant for the keyword: the demo's scan target. */
  nearestPlace(keyword: string, lat: number, lng: number): MapResult & { lat: number; lng: number } {
    const kw = normalise(keyword);
    const kwTrade = tradeOfName(kw);
    let best: { b: Business; d: number } | null = null;
    for (let r = 0; r <= REACH_CELLS && !best; r++) {
      const cx0 = Math.floor(lng / CELL_DEG);
      const cy0 = Math.floor(lat / CELL_DEG);
      for (let dy = -r; dy <= r; dy++) {
        for (let dx = -r; dx <= r; dx++) {
          for (const b of businessesIn(cx0 + dx, cy0 + dy)) {
            if (relevance(b, kw, kwTrade) < MIN_RELEVANCE) continue;
            const d = distanceKm({ lat, lng }, b);
            if (!best || d < best.d) best = { b, d };
          }
        }
      }
    }
    if (!best) throw new Error('no relevant business near the point');
    return { placeId: best.b.placeId, name: best.b.name, rank: 0, lat: best.b.lat, lng: best.b.lng };
  }

  /**
   * Any address lands somewhere in a box over the contiguous United States, the same place every time; an address
   * containing the word "nowhere" matches nothing (so the `missing_coords` path can be tried against the simulator).
   */
  async geocode(address: string): Promise<GeocodeResult | null> {
    const a = address.trim();
    if (!a || /\bnowhere\b/i.test(a)) return null;
    const lat = 30 + unit(`lat:${a.toLowerCase()}`) * 15;
    const lng = -120 + unit(`lng:${a.toLowerCase()}`) * 45;
    return { lat: Math.round(lat * 1e6) / 1e6, lng: Math.round(lng * 1e6) / 1e6, formattedAddress: a, placeId: null };
  }
}
