import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SENTIMENT_VERSION } from '../../src/analytics/sentiment';
import { Review } from '../../src/models';
import { makeReview, testimonialsOf } from '../support/factories';
import { connect, mcpWorld, useMcpApp } from '../mcp/support';

/**
 * Issue 19, item 1 through the APIs: each review's detected language, the reason of its sentiment and its aspects
 * (GraphQL `Review`), the aspect filter (GraphQL `reviews`, MCP list_reviews) and the aspect breakdown (GraphQL
 * `reviewMetrics.totals.aspects`, MCP get_metrics `totals.aspect_distribution`).
 */
describe('review languages and aspects through GraphQL and MCP', () => {
  const app = useMcpApp();
  let world: Awaited<ReturnType<typeof mcpWorld>>;
  let client: Client;
  const ids: Record<string, number> = {};
  const gql = async (query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(`${app.origin()}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${world.tokens.owner}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the wire's JSON, asserted field by field
    return (await res.json()) as any;
  };

  beforeAll(async () => {
    world = await mcpWorld({ scan: false });
    const home = await testimonialsOf(world.home);
    const at = (day: number) => new Date(Date.UTC(2026, 1, day));
    const es = await makeReview(home, { author: 'Lucía', rating: 2, publishedAt: at(1), message: 'El dentista muy amable, pero esperé más de una hora y nadie me explicó nada. Carísimo.' });
    const de = await makeReview(home, { author: 'Jonas', rating: 5, publishedAt: at(2), message: 'Super freundliches Team und alles blitzsauber. Sehr zu empfehlen!' });
    const fr = await makeReview(home, { author: 'Chloé', rating: 1, publishedAt: at(3), message: 'Une équipe formidable, merci infiniment pour tout ! Je recommande vivement.' });
    const en = await makeReview(home, { author: 'Sam', rating: 4, publishedAt: at(4), message: 'Great results, fair price.' });
    Object.assign(ids, { es: es.id, de: de.id, fr: fr.id, en: en.id });
    client = await connect(app, world.ai.owner);
    await client.listTools(); // the SDK then checks each structuredContent against the published outputSchema
  });
  afterAll(async () => {
    await client.close();
  });

  it('stores and answers the language, the reason and the aspects of each review', async () => {
    const res = await gql(`query ($id: Int!) { review(id: $id) { language sentiment sentimentReason aspects { aspect sentiment } } }`, { id: ids.es });
    expect(res.errors).toBeUndefined();
    const r = res.data.review;
    expect(r).toMatchObject({ language: 'es', sentiment: 'negative', sentimentReason: 'text_and_rating' });
    const aspects = Object.fromEntries(r.aspects.map((a: { aspect: string; sentiment: string }) => [a.aspect, a.sentiment]));
    expect(aspects).toMatchObject({ staff: 'positive', wait_time: 'negative', communication: 'negative', price: 'negative' });
    // A 1-star review whose text is clearly warm: positive, and the reason says why.
    const fr = await gql(`query ($id: Int!) { review(id: $id) { language sentiment sentimentReason } }`, { id: ids.fr });
    expect(fr.data.review).toEqual({ language: 'fr', sentiment: 'positive', sentimentReason: 'text_outweighs_rating' });
    const stored = (await Review.findByPk(ids.de))!;
    expect(stored).toMatchObject({ language: 'de', sentiment: 'positive', aspectStaff: 'positive', aspectCleanliness: 'positive', sentimentVersion: SENTIMENT_VERSION });
  });

  it('filters reviews by aspect, and by aspect and tone (GraphQL)', async () => {
    const page = async (args: string) =>
      ((await gql(`{ reviews(organizationId: ${world.org.id}, page: 1, perPage: 50, ${args}) { total items { id } } }`)).data.reviews as { total: number; items: { id: number }[] });
    const staff = await page('aspect: "staff"');
    expect(new Set(staff.items.map((i) => i.id))).toEqual(new Set([ids.es, ids.de, ids.fr]));
    expect(staff.total).toBe(3);
    const negativePrice = await page('aspect: "price", aspectSentiment: "negative"');
    expect(negativePrice.items.map((i) => i.id)).toEqual([ids.es]);
    expect(negativePrice.total).toBe(1);
    const bad = await gql(`{ reviews(page: 1, perPage: 5, aspect: "parking") { total } }`);
    expect(bad.errors[0].message).toMatch(/aspect is invalid/);
  });

  it('breaks the period down by aspect and tone (GraphQL reviewMetrics)', async () => {
    const res = await gql(`query ($o: Int) { reviewMetrics(organizationId: $o, dateFrom: "2026-02-01", dateTo: "2026-02-28") { totals { totalReviews aspects { aspect positive neutral negative } } } }`, { o: world.org.id });
    expect(res.errors).toBeUndefined();
    const { totals } = res.data.reviewMetrics;
    expect(totals.totalReviews).toBe(4);
    expect(totals.aspects.map((a: { aspect: string }) => a.aspect)).toEqual(['staff', 'price', 'wait_time', 'cleanliness', 'quality', 'communication']);
    const of = (aspect: string) => totals.aspects.find((a: { aspect: string }) => a.aspect === aspect);
    expect(of('staff')).toEqual({ aspect: 'staff', positive: 3, neutral: 0, negative: 0 });
    expect(of('price')).toEqual({ aspect: 'price', positive: 1, neutral: 0, negative: 1 });
    expect(of('wait_time')).toEqual({ aspect: 'wait_time', positive: 0, neutral: 0, negative: 1 });
  });

  it('offers the aspect filter on list_reviews and the breakdown on get_metrics (MCP)', async () => {
    const listed = await client.callTool({ name: 'list_reviews', arguments: { organization_id: world.org.id, aspect: 'wait_time', aspect_sentiment: 'negative' } });
    expect(listed.isError).toBeFalsy();
    // Lucía's wait of an hour, and mcpWorld's January "Slow." (2 stars).
    expect((listed.structuredContent as { data: { id: number }[] }).data.map((r) => r.id)).toEqual([ids.es, world.reviews[1].id]);
    await expect(client.callTool({ name: 'list_reviews', arguments: { organization_id: world.org.id, aspect_sentiment: 'negative' } })).rejects.toThrow(
      /-32602: Invalid arguments for list_reviews: aspect_sentiment requires aspect/,
    );
    const metrics = await client.callTool({ name: 'get_metrics', arguments: { organization_id: world.org.id, date_from: '2026-02-01', date_to: '2026-02-28' } });
    expect(metrics.isError).toBeFalsy();
    const totals = (metrics.structuredContent as { totals: { aspect_distribution: Record<string, unknown> } }).totals;
    expect(totals.aspect_distribution.staff).toEqual({ positive: 3, neutral: 0, negative: 0 });
    expect(Object.keys(totals.aspect_distribution)).toEqual(['staff', 'price', 'wait_time', 'cleanliness', 'quality', 'communication']);
  });
});
