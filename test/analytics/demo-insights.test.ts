import { randomUUID } from 'node:crypto';
import { Op } from 'sequelize';
import { figuresOf, sharesOf } from '../../src/analytics/insights';
import { GbpSearchKeyword, Organization, Review, Scan, ScanResult, ScanSnapshot } from '../../src/models';
import { dayAt, isoOf } from '../../src/domain/days';
import { DEMO_BUSINESSES } from '../../src/services/demo-content';
import { DEMO_REVIEW_DAYS, seedDemo } from '../../src/services/demo.service';
import { useApp } from '../support/app';

/**
 * Issue 19, items 2 and 3, on a seeded tenant with mixed reviews (the demo: a dental practice with English and
 * Spanish patients, a vet with English and French clients, a bakery with English, German and Italian ones): the
 * insights never contradict the figures beside them, the sentiment never contradicts the stars without saying why,
 * and each business's search terms, reviews and competitors fit its trade.
 */
jest.setTimeout(120_000);

const QUERY = `query I($organizationId: Int!, $periodStart: String, $periodEnd: String) {
  aiInsights(organizationId: $organizationId, periodStart: $periodStart, periodEnd: $periodEnd) {
    totals { totalReviews responded responseRate sentimentDistribution { positive neutral negative } aspects { aspect positive neutral negative } }
    strengths complaints narrative narrativeSource
  }
}`;

describe('the demo tenant reads true', () => {
  const t = useApp();
  let seeded: Awaited<ReturnType<typeof seedDemo>>;
  let orgs: Organization[];
  const saved = process.env.AI_API_URL;

  beforeAll(async () => {
    delete process.env.AI_API_URL;
    seeded = await seedDemo({ reviews: 600, domain: `demo-${randomUUID().slice(0, 8)}.test` });
    orgs = await Organization.findAll({ where: { tenantId: seeded.tenant.id }, order: [['id', 'ASC']] });
  });
  afterAll(() => {
    if (saved !== undefined) process.env.AI_API_URL = saved;
  });

  it('never calls a 1-2 star review positive, or a 4-5 star one negative, without the reason that the text clearly says so', async () => {
    const contradicting = await Review.findAll({
      where: {
        tenantId: seeded.tenant.id,
        [Op.or]: [
          { rating: { [Op.lte]: 2 }, sentiment: 'positive' },
          { rating: { [Op.gte]: 4 }, sentiment: 'negative' },
        ],
      },
    });
    for (const r of contradicting) expect(r.sentimentReason).toBe('text_outweighs_rating');
    // And the demo's complaints are read as complaints: no low rating ends up positive at all.
    expect(contradicting.filter((r) => r.rating <= 2)).toEqual([]);
  });

  it("writes each business's reviews in its customers' languages, and detects them", async () => {
    for (const business of DEMO_BUSINESSES) {
      const org = orgs.find((o) => o.name === business.name)!;
      const reviews = await Review.findAll({ where: { organizationId: org.id }, attributes: ['language'] });
      const detected = new Set(reviews.map((r) => r.language));
      expect(detected).toEqual(new Set(Object.keys(business.languages)));
    }
  });

  it('dates the reviews over the years up to the day before it was seeded, so "the last 30 days" has some', async () => {
    const today = dayAt(new Date());
    const dates = (await Review.findAll({ where: { tenantId: seeded.tenant.id }, attributes: ['publishedAt'] })).map((r) => dayAt(r.publishedAt));
    // The seeding ran today or (across midnight) yesterday.
    expect(Math.max(...dates)).toBeLessThan(today);
    expect(Math.min(...dates)).toBeGreaterThanOrEqual(today - 1 - DEMO_REVIEW_DAYS);
    expect(dates.filter((d) => d >= today - 30).length).toBeGreaterThan(5);
  });

  it('gives every insight sentence its figures, and no figure the totals contradict', async () => {
    const yesterday = dayAt(new Date()) - 1;
    for (const org of orgs) {
      const res = await t
        .http()
        .post('/graphql')
        .set('Authorization', `Bearer ${seeded.tokens[0].token}`)
        .send({ query: QUERY, variables: { organizationId: org.id, periodStart: isoOf(yesterday - 500), periodEnd: isoOf(yesterday) } });
      expect(res.body.errors).toBeUndefined();
      const i = res.body.data.aiInsights;
      expect(i.narrativeSource).toBe('deterministic');
      const { totals } = i;
      expect(totals.totalReviews).toBeGreaterThan(20);
      const sentences = i.narrative.split(/(?<=\.) (?=[A-Z0-9])/);
      for (const sentence of sentences) expect(figuresOf(sentence).length).toBeGreaterThan(0);
      // The count and the shares it states are the totals'.
      expect(sentences[0]).toContain(`received ${totals.totalReviews} reviews`);
      // The shares by the largest remainder: they add up to 100.
      const s = totals.sentimentDistribution;
      const [positive, neutral, negative] = sharesOf([s.positive, s.neutral, s.negative], totals.totalReviews);
      expect(Math.round((positive + neutral + negative) * 10)).toBe(1000);
      expect(sentences[1]).toBe(`${positive}% were positive, ${neutral}% neutral and ${negative}% negative.`);
      // Strengths and complaints quote counts that hold their rule, and the aspects' counts are the breakdown's.
      const counts = (text: string) => text.match(/: (\d+) of (\d+) reviews/)!.slice(1).map(Number);
      for (const strength of i.strengths) {
        const [positive, mentions] = counts(strength);
        expect(positive / mentions).toBeGreaterThanOrEqual(0.6);
      }
      for (const complaint of i.complaints) {
        const [negative, mentions] = counts(complaint);
        expect(negative / mentions).toBeGreaterThanOrEqual(0.4);
      }
      const staff = totals.aspects.find((a: { aspect: string }) => a.aspect === 'staff');
      const staffLine = [...i.strengths, ...i.complaints].find((l: string) => l.includes('the staff:'));
      if (staffLine) expect(counts(staffLine)[1]).toBe(staff.positive + staff.neutral + staff.negative);
      // Mixed reviews give both sides: something praised and something complained about.
      expect(i.strengths.length).toBeGreaterThan(0);
      expect(i.complaints.length).toBeGreaterThan(0);
    }
  });

  it("searches for each business by its trade's keywords", async () => {
    const words = { dentist: /dent|teeth|tooth|orthodont|invisalign|root canal/, vet: /vet|animal|pet|puppy|spay|cat|dog/, bakery: /bak|bread|cake|croissant|pastry|bagel|donut|cupcake/ };
    // Business-profile data comes with the Google-connected locations (the demo connects every other location to Google).
    let searched = 0;
    for (const business of DEMO_BUSINESSES) {
      const org = orgs.find((o) => o.name === business.name)!;
      const keywords = await GbpSearchKeyword.findAll({ where: { locationId: (await org.$get('locations')).map((l) => l.id) } });
      if (keywords.length) searched += 1;
      for (const k of keywords) expect(k.keyword).toMatch(words[business.trade]);
    }
    expect(searched).toBeGreaterThanOrEqual(2);
  });

  it('puts the demo scan among competitors of its trade', async () => {
    const scan = (await Scan.findOne({ where: { tenantId: seeded.tenant.id } }))!;
    expect(scan.location).toMatch(/Dental|Dentistry|Smiles|Orthodontics/);
    const snapshots = await ScanSnapshot.findAll({ where: { scanId: scan.id } });
    const results = await ScanResult.findAll({ where: { snapshotId: snapshots.map((s) => s.id) } });
    const names = new Set(results.flatMap((r) => r.topResults.map((p) => p.name)));
    expect(names.size).toBeGreaterThan(3);
    for (const name of names) expect(name).toMatch(/Dental|Dentistry|Smiles|Orthodontics/);
  });
});
