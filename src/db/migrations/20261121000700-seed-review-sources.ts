import type { Migration } from '../umzug';

/** The review-source catalogue. Data migration: later catalogue changes get migrations of their own. */
export const SOURCE_CATALOGUE: ReadonlyArray<{
  slug: string;
  name: string;
  url: string;
  kind: 'synced' | 'testimonials' | 'custom';
  canCollect: boolean;
  deepLinking: boolean;
}> = [
  { slug: 'google', name: 'Google', url: 'https://www.google.com/maps', kind: 'synced', canCollect: true, deepLinking: true },
  { slug: 'facebook', name: 'Facebook', url: 'https://www.facebook.com', kind: 'synced', canCollect: true, deepLinking: true },
  { slug: 'yelp', name: 'Yelp', url: 'https://www.yelp.com', kind: 'synced', canCollect: false, deepLinking: true },
  { slug: 'tripadvisor', name: 'Tripadvisor', url: 'https://www.tripadvisor.com', kind: 'synced', canCollect: true, deepLinking: true },
  { slug: 'trustpilot', name: 'Trustpilot', url: 'https://www.trustpilot.com', kind: 'synced', canCollect: true, deepLinking: true },
  { slug: 'booking', name: 'Booking.com', url: 'https://www.booking.com', kind: 'synced', canCollect: false, deepLinking: false },
  { slug: 'airbnb', name: 'Airbnb', url: 'https://www.airbnb.com', kind: 'synced', canCollect: false, deepLinking: false },
  { slug: 'glassdoor', name: 'Glassdoor', url: 'https://www.glassdoor.com', kind: 'synced', canCollect: false, deepLinking: false },
  { slug: 'healthgrades', name: 'Healthgrades', url: 'https://www.healthgrades.com', kind: 'synced', canCollect: true, deepLinking: true },
  { slug: 'zillow', name: 'Zillow', url: 'https://www.zillow.com', kind: 'synced', canCollect: true, deepLinking: false },
  { slug: 'houzz', name: 'Houzz', url: 'https://www.houzz.com', kind: 'synced', canCollect: true, deepLinking: true },
  { slug: 'g2', name: 'G2', url: 'https://www.g2.com', kind: 'synced', canCollect: true, deepLinking: true },
  { slug: 'testimonials', name: 'Testimonials', url: 'https://example.invalid/testimonials', kind: 'testimonials', canCollect: true, deepLinking: false },
  { slug: 'custom', name: 'Custom', url: 'https://example.invalid/custom', kind: 'custom', canCollect: false, deepLinking: false },
];

export const up: Migration = async ({ context: sql }) => {
  for (const s of SOURCE_CATALOGUE) {
    await sql(
      `INSERT INTO review_sources (slug, name, url, kind, available, can_collect_reviews, deep_linking_supported, created_at, updated_at)
       VALUES (?, ?, ?, ?, 1, ?, ?, NOW(3), NOW(3))`,
      [s.slug, s.name, s.url, s.kind, s.canCollect ? 1 : 0, s.deepLinking ? 1 : 0],
    );
  }
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DELETE FROM review_sources');
};
