import { FacebookGraphClient } from '../../src/providers/facebook/graph.client';
import { GoogleBusinessClient } from '../../src/providers/google/business.client';
import { startProviderApis } from '../support/providers/review-platforms';

/** The embedded-default simulators (seeded) through the real clients: deterministic, and growing over time. */
describe('platform simulators (seeded)', () => {
  const HOUR = 60 * 60 * 1000;

  it('Google: the same location always has the same reviews, and a new one arrives every interval', async () => {
    let now = new Date('2026-11-01T00:00:00Z');
    const a = await startProviderApis({ google: { seed: true, growEveryMs: 6 * HOUR, now: () => now } });
    const b = await startProviderApis({ google: { seed: true, growEveryMs: 6 * HOUR, now: () => now } });
    try {
      const ca = new GoogleBusinessClient({ baseUrl: a.googleUrl });
      const cb = new GoogleBusinessClient({ baseUrl: b.googleUrl });
      const businesses = await ca.listBusinesses('any-token');
      expect(businesses).toHaveLength(3);
      // Three distinct locations with distinct reviews (ids are strings: no number precision loss).
      expect(new Set(businesses.map((x) => x.externalId)).size).toBe(3);
      expect(businesses[0].externalId).toMatch(/^accounts\/\d+\/locations\/\d+$/);
      const first = await ca.listReviews('t', businesses[0].externalId);
      expect(first.reviews.length).toBeGreaterThanOrEqual(3);
      expect((await cb.listReviews('t', businesses[0].externalId)).reviews).toEqual(first.reviews);
      now = new Date(now.getTime() + 6 * HOUR + 1);
      const later = await ca.listReviews('t', businesses[0].externalId);
      expect(later.reviews).toHaveLength(first.reviews.length + 1);
      expect(later.reviews[0].publishedAt.getTime()).toBeGreaterThan(first.reviews[0].publishedAt.getTime());
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('Facebook: any user token sees the simulated pages, with deterministic ratings', async () => {
    const now = new Date('2026-11-01T00:00:00Z');
    const a = await startProviderApis({ facebook: { seed: true, now: () => now } });
    const b = await startProviderApis({ facebook: { seed: true, now: () => now } });
    try {
      const ca = new FacebookGraphClient({ baseUrl: a.facebookUrl });
      const pages = await ca.listBusinesses('user');
      expect(pages.map((p) => p.name)).toEqual(['Simulated Page 1', 'Simulated Page 2']);
      expect(new Set(pages.map((p) => p.externalId)).size).toBe(2);
      const ratings = await ca.listReviews('user', pages[0].externalId);
      expect(ratings.reviews.length).toBeGreaterThanOrEqual(3);
      expect(ratings.reviews.every((r) => r.rating === 5 || r.rating === 1)).toBe(true);
      expect((await new FacebookGraphClient({ baseUrl: b.facebookUrl }).listReviews('other', pages[0].externalId)).reviews).toEqual(ratings.reviews);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
