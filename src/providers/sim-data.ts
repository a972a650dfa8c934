/**
 * Deterministic review content for the platform simulators (src/providers/simulators.ts): the same business name always
 * gets the same reviewers, ratings and texts, so a demo looks the same on every machine.
 */

/** FNV-1a, 32 bit. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny seeded PRNG giving floats in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = ['Ada', 'Grace', 'Alan', 'Katherine', 'Linus', 'Margaret', 'Tim', 'Barbara', 'Dennis', 'Frances', 'Ken', 'Radia'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Johnson', 'Torvalds', 'Hamilton', 'Berners-Lee', 'Liskov', 'Ritchie', 'Allen', 'Thompson', 'Perlman'];
const PRAISE = [
  'Friendly staff and quick service.',
  'Exactly what we needed, we will be back.',
  'Great value and a warm welcome.',
  'Spotless, on time and very professional.',
  'They went out of their way to help us.',
];
const MIXED = ['Decent, but the wait was long.', 'Good work, a bit pricey.', 'Okay overall; parking is hard.'];
const CRITICAL = ['Nobody answered the phone.', 'The appointment was cancelled twice.', 'Not what was promised.'];

export interface SimulatedReviewContent {
  author: string;
  rating: number;
  comment: string;
}

/** Review number `index` of the business `key`: mostly good, some mixed, a few critical, like real profiles. */
export function simulatedReview(key: string, index: number): SimulatedReviewContent {
  const rnd = prng(hash32(`${key}#${index}`));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const roll = rnd();
  const rating = roll < 0.6 ? 5 : roll < 0.8 ? 4 : roll < 0.9 ? 3 : roll < 0.95 ? 2 : 1;
  const comment = rating >= 4 ? pick(PRAISE) : rating === 3 ? pick(MIXED) : pick(CRITICAL);
  return { author: `${pick(FIRST)} ${pick(LAST)}`, rating, comment };
}

/** How many reviews a simulated business starts with (3 to 8). */
export const initialReviewCount = (key: string): number => 3 + (hash32(key) % 6);

const DAY = 24 * 60 * 60 * 1000;

/**
 * The simulated timeline of a business first seen at `origin`: its initial reviews lie in the days before,
 * and one more arrives every `growEveryMs` after (none when null), up to `max`. Returns the creation times.
 */
export function simulatedTimeline(key: string, origin: Date, now: Date, growEveryMs: number | null, max = 500): Date[] {
  const times: Date[] = [];
  const initial = initialReviewCount(key);
  for (let i = 0; i < initial; i++) times.push(new Date(origin.getTime() - (initial - i) * 3 * DAY - (hash32(`${key}@${i}`) % DAY)));
  if (growEveryMs && growEveryMs > 0) {
    const grown = Math.min(max, Math.floor((now.getTime() - origin.getTime()) / growEveryMs));
    for (let i = 1; i <= grown; i++) times.push(new Date(origin.getTime() + i * growEveryMs));
  }
  return times;
}

/** Opaque page tokens: an offset the simulators can read back. */
export const encodeOffset = (offset: number): string => Buffer.from(`o:${offset}`).toString('base64url');
export function decodeOffset(token: unknown): number | null {
  if (typeof token !== 'string' || !token) return 0;
  const m = /^o:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : null;
}
