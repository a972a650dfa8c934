import { fixedClock } from '../../src/domain/clock';
import { figuresOf, insightTexts, quotesOnlyFacts, sharesOf, type InsightFacts } from '../../src/analytics/insights';
import { indexTerms, nameStopWords, topThemes } from '../../src/analytics/themes';
import type { Integration } from '../../src/models';
import { useApp } from '../support/app';
import { makeReview, makeWorld, testimonialsOf } from '../support/factories';
import { completion, startChatServer } from '../support/providers/ai';

const QUERY = `query I($organizationId: Int!, $locationId: Int, $periodStart: String, $periodEnd: String) {
  aiInsights(organizationId: $organizationId, locationId: $locationId, periodStart: $periodStart, periodEnd: $periodEnd) {
    organizationId locationId
    period { from to } previousPeriod { from to }
    totals { totalReviews avgRating responded responseRate sentimentDistribution { positive neutral negative } }
    previousTotals { totalReviews avgRating }
    analysedReviews
    themes { theme mentions positive neutral negative score sentiment example previousMentions }
    changes { subject previous current direction text }
    strengths complaints suggestedActions narrative narrativeSource
  }
}`;

/** October 2026 (31 days) against the 31 days before it: 2026-08-31 to 2026-09-30. */
const CURRENT = [
  { at: '2026-10-02T10:00:00Z', rating: 5, message: 'The front desk staff were friendly and helpful.', reply: 'Thanks!' },
  { at: '2026-10-05T10:00:00Z', rating: 5, message: 'Front desk was quick and friendly.', reply: null },
  { at: '2026-10-10T10:00:00Z', rating: 1, message: 'The wait time was terrible, over an hour.', reply: null },
  { at: '2026-10-15T10:00:00Z', rating: 2, message: 'Long wait time and the parking is a nightmare.', reply: 'Sorry.' },
  { at: '2026-10-20T10:00:00Z', rating: 3, message: 'Parking was awful but the dentist was kind.', reply: null },
  { at: '2026-10-25T10:00:00Z', rating: 5, message: 'Great dentist, explained everything.', reply: 'Thank you.' },
];
const PREVIOUS = [
  { at: '2026-09-03T10:00:00Z', rating: 5, message: 'Great dentist.', reply: 'Thanks.' },
  { at: '2026-09-12T10:00:00Z', rating: 5, message: 'The dentist was kind.', reply: 'Thanks.' },
  { at: '2026-09-20T10:00:00Z', rating: 4, message: 'Parking is easy.', reply: 'Thanks.' },
];

describe('AI insights', () => {
  describe('deterministic text analysis (no provider)', () => {
    const themesOf = (rows: { message: string; rating: number }[]) => topThemes(indexTerms(rows));

    it('finds nouns and noun compounds mentioned in 2+ reviews, with the tone of each mention', () => {
      const themes = themesOf([...CURRENT].reverse());
      expect(themes.map((t) => t.theme).sort()).toEqual(['dentist', 'front desk', 'parking', 'wait time']);
      const byName = Object.fromEntries(themes.map((t) => [t.theme, t]));
      expect(byName['front desk']).toMatchObject({ mentions: 2, positive: 2, negative: 0, sentiment: 'positive' });
      expect(byName['wait time']).toMatchObject({ mentions: 2, positive: 0, negative: 2, sentiment: 'negative' });
      // "Parking was awful but the dentist was kind": the clause decides, not the sentence.
      expect(byName.parking).toMatchObject({ mentions: 2, negative: 2 });
      expect(byName.dentist).toMatchObject({ mentions: 2, positive: 2, negative: 0 });
      // Examples quote the review as written (not lower-cased).
      expect(byName['front desk'].example).toBe('Front desk was quick and friendly.');
    });

    it('drops stop words, generic review words and the business name', () => {
      const rows = [
        { message: 'Main Street Dental is the best place, the experience was great and the dentist was kind.', rating: 5 },
        { message: 'Main Street Dental: what a place! Great experience, kind dentist.', rating: 5 },
      ];
      const themes = topThemes(indexTerms(rows, nameStopWords(['Main Street Dental'])));
      expect(themes.map((t) => t.theme)).toEqual(['dentist']);
    });

    it('turns facts into changes, strengths, complaints, actions and a narrative', () => {
      const facts: InsightFacts = {
        subject: 'Main Street Dental',
        current: {
          from: '2026-10-01',
          to: '2026-10-31',
          totals: { totalReviews: 10, avgRating: 3.8, responded: 6, responseRate: 60, sentimentDistribution: { positive: 6, neutral: 1, negative: 3 } },
          unansweredNegative: 2,
        },
        previous: {
          from: '2026-08-31',
          to: '2026-09-30',
          totals: { totalReviews: 20, avgRating: 4.5, responded: 19, responseRate: 95, sentimentDistribution: { positive: 18, neutral: 1, negative: 1 } },
          unansweredNegative: 0,
        },
        analysedReviews: 10,
        previousAnalysedReviews: 20,
        themes: [
          { theme: 'wait time', mentions: 4, positive: 0, neutral: 1, negative: 3, score: -0.4, sentiment: 'negative', example: 'The wait time was terrible', previousMentions: 0 },
          { theme: 'staff', mentions: 5, positive: 4, neutral: 1, negative: 0, score: 0.6, sentiment: 'positive', example: 'Lovely staff', previousMentions: 6 },
        ],
        faded: [{ theme: 'parking', previousMentions: 4 }],
      };
      const out = insightTexts(facts);
      expect(out.changes).toEqual([
        { subject: 'Reviews', previous: 20, current: 10, direction: 'down', text: 'Reviews fell from 20 to 10.' },
        { subject: 'Average rating', previous: 4.5, current: 3.8, direction: 'down', text: 'Average rating fell from 4.5 stars to 3.8 stars.' },
        { subject: 'Response rate', previous: 95, current: 60, direction: 'down', text: 'Response rate fell from 95% to 60%.' },
        { subject: 'Negative reviews', previous: 5, current: 30, direction: 'up', text: 'Negative reviews rose from 5% to 30%.' },
        { subject: 'wait time', previous: 0, current: 4, direction: 'new', text: 'New theme: wait time (4 reviews, not mentioned in the previous period).' },
        // staff: 6 of 20 (30%) before, 5 of 10 (50%) now: +20 points.
        { subject: 'staff', previous: 30, current: 50, direction: 'up', text: 'Mentions of staff rose from 30% to 50% of reviews.' },
        { subject: 'parking', previous: 4, current: 0, direction: 'gone', text: 'parking is no longer mentioned (4 reviews in the previous period).' },
      ]);
      expect(out.strengths).toEqual(['Customers praise the staff: 4 of 5 reviews mentioning it are positive ("Lovely staff").']);
      expect(out.complaints).toEqual(['Customers complain about the wait time: 3 of 4 reviews mentioning it are negative ("The wait time was terrible").']);
      expect(out.suggestedActions).toEqual([
        'Reply to the 2 negative reviews still without a response: a calm, specific answer is what later readers judge.',
        'Look into the wait time: 3 of 4 reviews mentioning it are negative.',
        'Raise the response rate (60%) to at least 90%: 4 reviews of the period have no reply.',
        'The average rating fell from 4.5 to 3.8 stars: read the period\'s low-rated reviews for a common cause.',
        'Ask more customers for reviews (a review-request campaign): 10 reviews this period against 20 before.',
        'Feature what customers value (staff) in replies, on the website and in marketing.',
      ]);
      expect(out.narrative).toBe(
        'Between 2026-10-01 and 2026-10-31, Main Street Dental received 10 reviews (20 in the previous period) with an average rating of 3.8 stars (4.5 before). ' +
          '60% were positive, 10% neutral and 30% negative. Customers talk most about the staff (5 reviews) and the wait time (4 reviews). ' +
          'They praise the staff (4 of 5 positive). Complaints centre on the wait time (3 of 4 negative). 60% of the reviews have a reply.',
      );
      // Every sentence quotes the figures it rests on.
      for (const sentence of out.narrative.split(/(?<=\.) /)) expect(figuresOf(sentence).length).toBeGreaterThan(0);
    });

    it('rounds the sentiment shares of the narrative so they add up to 100% (largest remainder)', () => {
      const totals = { totalReviews: 3, avgRating: 3, responded: 3, responseRate: 100, sentimentDistribution: { positive: 1, neutral: 1, negative: 1 } };
      const facts: InsightFacts = {
        subject: 'Main Street Dental',
        current: { from: '2026-10-01', to: '2026-10-31', totals, unansweredNegative: 0 },
        previous: { from: '2026-08-31', to: '2026-09-30', totals, unansweredNegative: 0 },
        analysedReviews: 3,
        previousAnalysedReviews: 3,
        themes: [],
        faded: [],
      };
      const texts = insightTexts(facts);
      expect(texts.narrative).toContain('33.4% were positive, 33.3% neutral and 33.3% negative.');
      // A chat narrative quoting the shown shares quotes facts.
      expect(quotesOnlyFacts('33.4% of the reviews were positive.', facts, texts)).toBe(true);
      expect(sharesOf([2, 2, 2], 6)).toEqual([33.4, 33.3, 33.3]);
      expect(sharesOf([1, 1, 4], 6)).toEqual([16.7, 16.7, 66.6]);
      expect(sharesOf([1, 5, 1], 7)).toEqual([14.3, 71.4, 14.3]);
      expect(sharesOf([2, 1, 0], 3)).toEqual([66.7, 33.3, 0]);
      expect(sharesOf([0, 0, 0], 0)).toEqual([0, 0, 0]);
      // Parts that do not make the whole (reviews not yet classified) add up to their own share.
      expect(sharesOf([1, 1], 3)).toEqual([33.4, 33.3]);
    });

    it('takes a change a reader sees as the threshold for one (4.6 to 4.4 stars is a 0.2 fall; 55.6% to 65.6% of reviews a 10-point shift)', () => {
      const totals = (avgRating: number, totalReviews: number) => ({ totalReviews, avgRating, responded: totalReviews, responseRate: 100, sentimentDistribution: { positive: totalReviews, neutral: 0, negative: 0 } });
      const facts = (previous: number, current: number): InsightFacts => ({
        subject: 'Main Street Dental',
        current: { from: '2026-10-01', to: '2026-10-31', totals: totals(current, 32), unansweredNegative: 0 },
        previous: { from: '2026-08-31', to: '2026-09-30', totals: totals(previous, 9), unansweredNegative: 0 },
        analysedReviews: 32,
        previousAnalysedReviews: 9,
        // 5 of 9 before (55.6%), 21 of 32 now (65.6%): 65.6 - 55.6 is 9.99999... in binary.
        themes: [{ theme: 'staff', mentions: 21, positive: 21, neutral: 0, negative: 0, score: 0.6, sentiment: 'positive', example: 'Lovely staff', previousMentions: 5 }],
        faded: [],
      });
      const fell = (previous: number, current: number) => insightTexts(facts(previous, current)).suggestedActions.some((a) => a.startsWith('The average rating fell'));
      for (const [previous, current] of [[4.6, 4.4], [4.5, 4.3], [3.9, 3.7], [4.2, 4]]) expect([previous, current, fell(previous, current)]).toEqual([previous, current, true]);
      expect(fell(4.6, 4.41)).toBe(false);
      expect(insightTexts(facts(4.5, 4.5)).changes).toContainEqual(expect.objectContaining({ subject: 'staff', previous: 55.6, current: 65.6, direction: 'up' }));
    });

    it('names aspects (counted in every language) as topics, before the themes they cover', () => {
      const totals = (negativeStaff: number) => ({
        totalReviews: 8, avgRating: 3.9, responded: 8, responseRate: 100, sentimentDistribution: { positive: 5, neutral: 1, negative: 2 },
        aspects: [
          { aspect: 'staff', positive: 5, neutral: 0, negative: negativeStaff },
          { aspect: 'price', positive: 0, neutral: 1, negative: 2 },
          { aspect: 'wait_time', positive: 1, neutral: 0, negative: 0 },
        ],
      });
      const facts: InsightFacts = {
        subject: 'Clínica Sol',
        current: { from: '2026-10-01', to: '2026-10-31', totals: totals(1), unansweredNegative: 0 },
        previous: { from: '2026-08-31', to: '2026-09-30', totals: totals(0), unansweredNegative: 0 },
        analysedReviews: 3,
        previousAnalysedReviews: 3,
        themes: [
          { theme: 'staff', mentions: 2, positive: 2, neutral: 0, negative: 0, score: 0.5, sentiment: 'positive', example: 'Kind staff', previousMentions: 2 },
          { theme: 'parking', mentions: 2, positive: 0, neutral: 0, negative: 2, score: -0.5, sentiment: 'negative', example: 'No parking', previousMentions: 2 },
        ],
        faded: [],
      };
      const out = insightTexts(facts);
      // staff 6 mentions (the aspect; the theme "staff" is covered by it), prices 3, parking 2; wait time has 1 (too few).
      expect(out.strengths).toEqual(['Customers praise the staff: 5 of 6 reviews mentioning it are positive.']);
      expect(out.complaints).toEqual([
        'Customers complain about the prices: 2 of 3 reviews mentioning it are negative.',
        'Customers complain about the parking: 2 of 2 reviews mentioning it are negative ("No parking").',
      ]);
      expect(out.narrative).toContain('Customers talk most about the staff (6 reviews), the prices (3 reviews) and the parking (2 reviews).');
      expect(out.narrative).toContain('They praise the staff (5 of 6 positive). Complaints centre on the prices (2 of 3 negative) and the parking (2 of 2 negative).');
    });

    /** October's facts of a business with 3 reviews (2 positive, 1 with a reply) after a September without any. */
    const october = (subject: string, avgRating: number, themes: InsightFacts['themes'] = []): InsightFacts => ({
      subject,
      current: { from: '2026-10-01', to: '2026-10-31', totals: { totalReviews: 3, avgRating, responded: 1, responseRate: 33.3, sentimentDistribution: { positive: 2, neutral: 0, negative: 1 } }, unansweredNegative: 1 },
      previous: { from: '2026-08-31', to: '2026-09-30', totals: { totalReviews: 0, avgRating: null, responded: 0, responseRate: null, sentimentDistribution: { positive: 0, neutral: 0, negative: 0 } }, unansweredNegative: 0 },
      analysedReviews: 3,
      previousAnalysedReviews: 0,
      themes,
      faded: [],
    });

    it('accepts a narrative only if every figure it quotes is one of the facts (or a rounding of one)', () => {
      const facts = october('Main Street Dental', 4.33);
      const texts = insightTexts(facts);
      expect(quotesOnlyFacts('Three reviews in October, 2 of them positive (66.7%), an average of 4.33 stars; only 33% have a reply.', facts, texts)).toBe(true);
      expect(quotesOnlyFacts('All reviews were glowing: 100% positive.', facts, texts)).toBe(false);
      expect(quotesOnlyFacts('Ratings reached 4.9 stars.', facts, texts)).toBe(false);
      expect(quotesOnlyFacts('A good month with loyal customers.', facts, texts)).toBe(true);
      // A rounding is to the precision quoted: the count of 5 reviews is no "4.9".
      const five = { ...facts, current: { ...facts.current, totals: { ...facts.current.totals, totalReviews: 5 } } };
      expect(quotesOnlyFacts('Ratings reached 4.9 stars.', five, insightTexts(five))).toBe(false);
      expect(quotesOnlyFacts('An average of 4.3 stars.', facts, texts)).toBe(true);
    });

    it('does not take the digits of a name for figures, in the facts or in the narrative', () => {
      const named = october('Clinic 92 (Route 49)', 4, [
        { theme: '24 hour service', mentions: 2, positive: 2, neutral: 0, negative: 0, previousMentions: 0, example: 'Open 24/7, 92 stars if I could' },
      ] as InsightFacts['themes']);
      const texts = insightTexts(named);
      expect(quotesOnlyFacts('92% of the reviews were positive.', named, texts)).toBe(false);
      expect(quotesOnlyFacts('Clinic 92 (Route 49) had 3 reviews; the 24 hour service drew 2 mentions.', named, texts)).toBe(true);
    });
  });

  describe('GraphQL aiInsights', () => {
    const clock = fixedClock(new Date('2026-11-25T12:00:00Z'));
    const t = useApp({ clock });
    const gql = (token: string, variables: Record<string, unknown>) =>
      t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query: QUERY, variables });
    let chat: Awaited<ReturnType<typeof startChatServer>>;
    const saved = process.env.AI_API_URL;
    let fx: Awaited<ReturnType<typeof makeWorld>>;
    const OCTOBER = { periodStart: '2026-10-01', periodEnd: '2026-10-31' };

    beforeAll(async () => {
      chat = await startChatServer();
      fx = await makeWorld();
      const source: Integration = await testimonialsOf(fx.home);
      for (const r of [...CURRENT, ...PREVIOUS]) {
        await makeReview(source, { publishedAt: new Date(r.at), rating: r.rating, originalRating: r.rating, message: r.message, reply: r.reply, replyDate: r.reply ? new Date(r.at) : null });
      }
    });
    afterAll(() => chat.close());
    afterEach(() => {
      if (saved === undefined) delete process.env.AI_API_URL;
      else process.env.AI_API_URL = saved;
    });

    const insights = async (variables: Record<string, unknown>, token = fx.tokens.orgOwner) => {
      const res = await gql(token, { organizationId: fx.org.id, ...variables });
      expect(res.body.errors).toBeUndefined();
      return res.body.data.aiInsights;
    };

    it('answers themes, changes, strengths, complaints and actions without any AI provider', async () => {
      delete process.env.AI_API_URL;
      const i = await insights(OCTOBER);
      expect(i.period).toEqual({ from: '2026-10-01', to: '2026-10-31' });
      expect(i.previousPeriod).toEqual({ from: '2026-08-31', to: '2026-09-30' });
      expect(i.totals).toEqual({ totalReviews: 6, avgRating: 3.5, responded: 3, responseRate: 50, sentimentDistribution: { positive: 3, neutral: 1, negative: 2 } });
      expect(i.previousTotals).toEqual({ totalReviews: 3, avgRating: 4.67 });
      expect(i.analysedReviews).toBe(6);
      const byName = Object.fromEntries(i.themes.map((th: { theme: string }) => [th.theme, th]));
      expect(Object.keys(byName).sort()).toEqual(['dentist', 'front desk', 'parking', 'wait time']);
      expect(byName.dentist).toMatchObject({ mentions: 2, previousMentions: 2 });
      expect(byName.parking).toMatchObject({ mentions: 2, negative: 2, previousMentions: 1 });
      expect(byName['wait time']).toMatchObject({ previousMentions: 0 });
      // The newest review mentioning a theme is its example.
      expect(byName.dentist.example).toBe('Great dentist, explained everything.');
      expect(i.changes.map((c: { subject: string; direction: string }) => `${c.subject}:${c.direction}`)).toEqual(
        expect.arrayContaining(['Reviews:up', 'Average rating:down', 'front desk:new', 'wait time:new']),
      );
      expect(i.strengths).toEqual(expect.arrayContaining([expect.stringContaining('the front desk'), expect.stringContaining('the dentist')]));
      expect(i.complaints).toEqual(expect.arrayContaining([expect.stringContaining('the wait time'), expect.stringContaining('the parking')]));
      // Only "The wait time was terrible" is negative as a whole and unanswered ("Parking was awful but the dentist was
      // kind" reads neutral overall, "... the parking is a nightmare" has no opinion word and was answered).
      expect(i.suggestedActions[0]).toBe('Reply to the 1 negative review still without a response: a calm, specific answer is what later readers judge.');
      expect(i.narrativeSource).toBe('deterministic');
      expect(i.narrative).toMatch(/^Between 2026-10-01 and 2026-10-31, .* received 6 reviews \(3 in the previous period\) with an average rating of 3\.5 stars \(4\.67 before\)\./);
      expect(chat.requests).toHaveLength(0);
    });

    it('has the chat API write the narrative from the computed facts when one is configured', async () => {
      process.env.AI_API_URL = chat.url;
      chat.requests.length = 0;
      chat.answer(completion('October brought twice the reviews but a lower rating; fix the wait time.'));
      const i = await insights(OCTOBER);
      expect(i.narrativeSource).toBe('ai');
      expect(i.narrative).toBe('October brought twice the reviews but a lower rating; fix the wait time.');
      expect(chat.requests).toHaveLength(1);
      const { messages } = chat.requests[0].body;
      expect(messages![0]).toMatchObject({ role: 'system', content: expect.stringContaining('Use only the facts') });
      const facts = JSON.parse(messages![1].content.replace(/^Facts:\n/, ''));
      expect(facts.period).toMatchObject({ from: '2026-10-01', to: '2026-10-31', totalReviews: 6, avgRating: 3.5 });
      expect(facts.previous_period).toMatchObject({ totalReviews: 3 });
      expect(facts.themes.map((th: { theme: string }) => th.theme).sort()).toEqual(['dentist', 'front desk', 'parking', 'wait time']);
      expect(facts.suggested_actions).toEqual(i.suggestedActions);
      // The rest of the answer is the same deterministic analysis.
      delete process.env.AI_API_URL;
      const plain = await insights(OCTOBER);
      expect({ ...i, narrative: null, narrativeSource: null }).toEqual({ ...plain, narrative: null, narrativeSource: null });
    });

    it('shows the deterministic narrative when the chat API quotes a figure the facts do not hold', async () => {
      delete process.env.AI_API_URL;
      const plain = await insights(OCTOBER);
      process.env.AI_API_URL = chat.url;
      chat.answer(completion('A superb October: 92% of the reviews were positive and the rating climbed to 4.9 stars.'));
      const i = await insights(OCTOBER);
      expect(i.narrativeSource).toBe('deterministic');
      expect(i.narrative).toBe(plain.narrative);
      // One that quotes the facts is shown.
      chat.answer(completion('6 reviews this month against 3 before, averaging 3.5 stars; the wait time draws the complaints.'));
      expect(await insights(OCTOBER)).toMatchObject({ narrativeSource: 'ai', narrative: expect.stringContaining('6 reviews this month') });
    });

    it('falls back to the deterministic narrative when the chat API fails', async () => {
      delete process.env.AI_API_URL;
      const plain = await insights(OCTOBER);
      process.env.AI_API_URL = chat.url;
      chat.answer({ status: 500, body: { error: { message: 'The server had an error' } } });
      const i = await insights(OCTOBER);
      expect(i.narrativeSource).toBe('deterministic');
      expect(i.narrative).toBe(plain.narrative);
    });

    it('defaults to the last 90 days ending today', async () => {
      delete process.env.AI_API_URL;
      const i = await insights({});
      expect(i.period).toEqual({ from: '2026-08-28', to: '2026-11-25' });
      expect(i.previousPeriod).toEqual({ from: '2026-05-30', to: '2026-08-27' });
      expect(i.totals.totalReviews).toBe(9);
    });

    it('reads themes from English reviews only: Dutch words are not taken for nouns', async () => {
      delete process.env.AI_API_URL;
      const w = await makeWorld();
      const source = await testimonialsOf(w.home);
      const dutch = ['De tandarts was heel vriendelijk en de behandeling was goed.', 'Heel vriendelijk personeel, de behandeling was snel.', 'Vriendelijk ontvangen, behandeling pijnloos.'];
      for (const [i, message] of dutch.entries()) await makeReview(source, { publishedAt: new Date(Date.UTC(2026, 9, 10 + i)), rating: 5, originalRating: 5, message });
      const i = await insights({ ...OCTOBER, organizationId: w.org.id }, w.tokens.orgOwner);
      expect(i.totals.totalReviews).toBe(3);
      expect(i.themes).toEqual([]);
      expect(i.narrative).not.toContain('vriendelijk');
    });

    it('narrows to a location and refuses one outside the scope', async () => {
      delete process.env.AI_API_URL;
      const branch = await insights({ ...OCTOBER, locationId: fx.branch.id });
      expect(branch).toMatchObject({ locationId: fx.branch.id, totals: { totalReviews: 0 }, themes: [], narrativeSource: 'deterministic' });
      expect(branch.narrative).toContain('received no reviews between 2026-10-01 and 2026-10-31');
      const denied = await gql(fx.tokens.member, { organizationId: fx.org.id, locationId: fx.home.id, ...OCTOBER });
      expect(denied.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'location_access_denied' });
      const stranger = await makeWorld();
      const foreign = await gql(stranger.tokens.orgOwner, { organizationId: fx.org.id, ...OCTOBER });
      expect(foreign.body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'organization_access_denied' });
    });

    it('validates the period (Y-m-d, start before end, at most 540 days)', async () => {
      const errorOf = async (variables: Record<string, unknown>) => (await gql(fx.tokens.orgOwner, { organizationId: fx.org.id, ...variables })).body.errors[0].extensions;
      expect(await errorOf({ periodStart: '01/10/2026' })).toMatchObject({ code: 'VALIDATION', fields: { period_start: [expect.any(String)] } });
      expect(await errorOf({ periodStart: '2026-10-31', periodEnd: '2026-10-01' })).toMatchObject({ code: 'VALIDATION', fields: { period_end: [expect.any(String)] } });
      expect(await errorOf({ periodStart: '2025-01-01', periodEnd: '2026-06-25' })).toMatchObject({ code: 'VALIDATION', reason: 'invalid_date_range' });
      const missing = await t.http().post('/graphql').set('Authorization', `Bearer ${fx.tokens.orgOwner}`).send({ query: QUERY, variables: {} });
      expect(missing.body.errors[0].message).toMatch(/organizationId/);
    });
  });
});
