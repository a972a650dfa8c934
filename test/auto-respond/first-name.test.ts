import { firstNameOf, prepareAutoResponse } from '../../src/jobs/auto-respond-runs';
import { AutoRespondRun } from '../../src/models';
import { renderTemplate } from '../../src/services/auto-respond.service';
import { useApp } from '../support/app';
import { customSourceOf, makeReview, makeWorld } from '../support/factories';
import { completion, startChatServer } from '../support/providers/ai';
import { graphql, setAutoRespondFeature } from './support';

/**
 * `{first_name}` of an auto-respond reply: the reviewer's first name, never "A" of "A Google user" (what the platform
 * clients store for reviewers without a name) nor a title ("Dr." of "Dr. Jane Roe"). When no first name is known the
 * reply is written without a name: the placeholder goes with the comma or space joining it ("Thank you!"), the
 * default replies greet without a name, and the chat API is told there is none (docs/decisions/reviews.md).
 */
describe('auto-respond: the first name a reply greets', () => {
  const t = useApp();
  const gql = graphql(t);
  let chat: Awaited<ReturnType<typeof startChatServer>>;

  beforeAll(async () => {
    chat = await startChatServer();
  });
  afterAll(async () => {
    delete process.env.AI_API_URL;
    await chat.close();
  });
  afterEach(() => {
    delete process.env.AI_API_URL;
  });

  it('skips titles, keeps a title with a lone surname, and knows none for anonymous reviewers', () => {
    expect(firstNameOf('Dr. Jane Roe')).toBe('Jane');
    expect(firstNameOf('  Mrs   Ada  Lovelace ')).toBe('Ada');
    expect(firstNameOf('prof. dr. Max Muster')).toBe('Max');
    expect(firstNameOf('Ms. Grace Hopper')).toBe('Grace');
    expect(firstNameOf('Mr. Bean')).toBe('Mr. Bean');
    expect(firstNameOf('Ada')).toBe('Ada');
    expect(firstNameOf('Drew Barrymore')).toBe('Drew');
    expect(firstNameOf('A Google user')).toBe('');
    expect(firstNameOf('A Google User')).toBe('');
    expect(firstNameOf('A Facebook user')).toBe('');
    expect(firstNameOf('Dr.')).toBe('');
    expect(firstNameOf('   ')).toBe('');
  });

  it('writes a template without the name when none is known, taking the joining comma or space with it', () => {
    const values = (first: string) => ({ author: 'x', first_name: first, rating: '5', business_name: 'Main Street Dental', location_name: 'Downtown', source: 'Google' });
    const cases: Array<[string, string, string]> = [
      ['Thank you, {first_name}!', 'Thank you!', 'Thank you, Ada!'],
      ['Hi {first_name}, thanks for the {rating} stars.', 'Hi, thanks for the 5 stars.', 'Hi Ada, thanks for the 5 stars.'],
      ['Thanks, {first_name}, for visiting {location_name}.', 'Thanks for visiting Downtown.', 'Thanks, Ada, for visiting Downtown.'],
      ['Thanks {first_name} for the review', 'Thanks for the review', 'Thanks Ada for the review'],
      ['{first_name}, thank you!\n{first_name}: see you soon.', 'Thank you!\nSee you soon.', 'Ada, thank you!\nAda: see you soon.'],
    ];
    for (const [template, without, withName] of cases) {
      expect(renderTemplate(template, values(''))).toBe(without);
      expect(renderTemplate(template, values('Ada'))).toBe(withName);
    }
  });

  async function run(author: string, rule: Record<string, unknown>, rating = 5) {
    const w = await makeWorld();
    await setAutoRespondFeature(w.orgOwner.customerId!, true);
    const review = await makeReview(await customSourceOf(w.home), { author, rating, originalRating: rating, message: 'Lovely team.' });
    const created = await gql(w.tokens.orgOwner, 'mutation ($input: CreateAutoRespondRuleInput!) { createAutoRespondRule(input: $input) { id } }', {
      input: { organizationId: w.org.id, name: 'Thanks', ratings: [1, 2, 3, 4, 5], ...rule },
    });
    expect(created.errors).toBeUndefined();
    await AutoRespondRun.destroy({ where: { reviewId: review.id } });
    await AutoRespondRun.create({ tenantId: w.tenant.id, customerId: w.orgOwner.customerId!, reviewId: review.id, ruleId: created.data!.createAutoRespondRule.id, status: 'pending' });
    return { plan: await prepareAutoResponse(review.id), org: w.org.name };
  }

  it('a template reply to an anonymous Google reviewer has no name; "Dr. Jane Roe" is greeted as Jane', async () => {
    const anonymous = await run('A Google user', { template: 'Thank you, {first_name}! See you at {business_name}.' });
    expect(anonymous.plan).toEqual({ action: 'reply', message: `Thank you! See you at ${anonymous.org}.`, usedAi: false });
    const titled = await run('Dr. Jane Roe', { template: 'Thank you, {first_name}! See you at {business_name}.' });
    expect(titled.plan).toEqual({ action: 'reply', message: `Thank you, Jane! See you at ${titled.org}.`, usedAi: false });
  });

  it('the default reply (an AI rule without a chat API) greets an anonymous Facebook reviewer without a name', async () => {
    const high = await run('A Facebook user', { useAi: true, template: null });
    expect(high.plan).toEqual({
      action: 'reply',
      message: `Thank you for your review! We are glad you had a great experience with ${high.org} and hope to see you again soon.`,
      usedAi: false,
    });
    const low = await run('A Facebook user', { useAi: true, template: null }, 2);
    expect(low.plan).toMatchObject({ message: expect.stringMatching(/^Thank you for letting us know\. We are sorry/) });
  });

  it('the chat API is told there is no first name (null), not "A"', async () => {
    process.env.AI_API_URL = chat.url;
    chat.answer(completion('Thank you so much for the kind words!'));
    const { plan } = await run('A Google user', { useAi: true, template: null });
    expect(plan).toEqual({ action: 'reply', message: 'Thank you so much for the kind words!', usedAi: true });
    const request = chat.requests.at(-1)!.body as { messages: Array<{ role: string; content: string }> };
    expect(JSON.parse(request.messages[1].content)).toMatchObject({ reviewer_first_name: null });
    expect(request.messages[0].content).toContain('thank them without a name');

    chat.answer(completion('Thank you, Jane!'));
    await run('Dr. Jane Roe', { useAi: true, template: null });
    const named = chat.requests.at(-1)!.body as { messages: Array<{ role: string; content: string }> };
    expect(JSON.parse(named.messages[1].content)).toMatchObject({ reviewer_first_name: 'Jane' });
    expect(named.messages[0].content).toContain('Thank the reviewer by first name.');
  });
});
