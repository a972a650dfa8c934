import { hash32, prng } from '../sim-data';
import { dayOf } from '../../gbp/dates';
import { TRADES, type Trade } from '../../domain/trades';

/**
 * Deterministic business-profile performance for the simulator and the demo seed: the same location, metric and
 * day always give the same count, on every machine. Counts are shaped like a small local business (mostly
 * mobile, more search than maps, a dip at weekends, a few calls and direction requests a day).
 */
const DAILY_BASE: Record<string, number> = {
  BUSINESS_IMPRESSIONS_DESKTOP_MAPS: 6,
  BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: 14,
  BUSINESS_IMPRESSIONS_MOBILE_MAPS: 38,
  BUSINESS_IMPRESSIONS_MOBILE_SEARCH: 52,
  CALL_CLICKS: 3,
  WEBSITE_CLICKS: 5,
  BUSINESS_DIRECTION_REQUESTS: 4,
  // Legacy Insights metrics (profile and photo views) that older data carries; never served by our API.
  VIEWS_MAPS: 30,
  VIEWS_SEARCH: 40,
  PHOTOS_VIEWS_MERCHANT: 12,
  PHOTOS_VIEWS_CUSTOMERS: 9,
};

/** A location's size: 0.6 to 1.6 times the base counts. */
const scaleOf = (location: string): number => 0.6 + (hash32(`scale:${location}`) % 1000) / 1000;

/** The simulated count of `metric` at `location` on day `iso` (`Y-m-d`). */
export function simulatedDailyValue(location: string, metric: string, iso: string): number {
  const base = DAILY_BASE[metric] ?? 2;
  const day = dayOf(iso) ?? 0;
  const weekday = new Date(day * 86_400_000).getUTCDay();
  const weekend = weekday === 0 || weekday === 6 ? 0.75 : 1;
  const noise = 0.5 + prng(hash32(`${location}|${metric}|${iso}`))();
  return Math.floor(base * scaleOf(location) * weekend * noise);
}

const THEMES: Record<Trade, readonly string[]> = {
  dentist: ['dentist near me', 'dentist', 'dental clinic', 'emergency dentist', 'teeth whitening', 'family dentist', 'dental implants', 'orthodontist', 'invisalign', 'tooth extraction', 'dental cleaning', 'root canal'],
  vet: ['vet near me', 'veterinarian', 'animal hospital', 'emergency vet', 'pet clinic', 'cat vet', 'dog vaccinations', 'pet dental care', 'exotic vet', 'pet microchip', 'spay and neuter', 'puppy checkup'],
  bakery: ['bakery near me', 'bakery', 'sourdough bread', 'birthday cake', 'croissants', 'custom cakes', 'gluten free bakery', 'cupcakes', 'wedding cake', 'pastry shop', 'bagels', 'donuts'],
};
const KEYWORD_BASE = [420, 260, 180, 120, 90, 60, 42, 30, 21, 14, 9, 6];

/** Below this, Google masks a keyword's count and gives the threshold instead. */
export const SIMULATED_KEYWORD_THRESHOLD = 15;

export interface SimulatedKeyword {
  keyword: string;
  /** Null when masked (below `SIMULATED_KEYWORD_THRESHOLD`). */
  value: number | null;
  threshold: number | null;
}

/**
 * The simulated search keywords of `location` in one month: its trade's (when known: the demo passes the business's),
 * else a trade picked from the location's name.
 */
export function simulatedMonthKeywords(location: string, year: number, month: number, trade?: Trade | null): SimulatedKeyword[] {
  const theme = THEMES[trade ?? TRADES[hash32(`theme:${location}`) % TRADES.length]];
  const scale = scaleOf(location);
  // A little seasonality: more searches in spring and autumn.
  const season = 1 + 0.15 * Math.sin(((month - 3) / 12) * 2 * Math.PI);
  return theme.map((keyword, i) => {
    const noise = 0.7 + 0.6 * prng(hash32(`${location}|${keyword}|${year}-${month}`))();
    const n = Math.floor(KEYWORD_BASE[i] * scale * season * noise);
    return n < SIMULATED_KEYWORD_THRESHOLD ? { keyword, value: null, threshold: SIMULATED_KEYWORD_THRESHOLD } : { keyword, value: n, threshold: null };
  });
}
