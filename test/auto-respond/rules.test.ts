import { AutoRespondRule, AutoRespondRun, Customer, ReplyDraft, ReviewTag } from '../../src/models';
import { containsKeyword, renderTemplate, ruleMatches, unknownPlaceholders } from '../../src/services/auto-respond.service';
import { useApp } from '../support/app';
import { makeLocation, makeOrganization, makeReview, makeWorld, testimonialsOf, tokenFor, without } from '../support/factories';
import { errorOf, graphql, setAutoRespondFeature } from './support';

const FIELDS = 'id organizationId locationId name ratings sourceNames keywords keywordMatch useAi template paused priority';
const CREATE = `mutation ($input: CreateAutoRespondRuleInput!) { createAutoRespondRule(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation ($id: Int!, $input: UpdateAutoRespondRuleInput!) { updateAutoRespondRule(id: $id, input: $input) { ${FIELDS} } }`;
const LIST = `query ($organizationId: Int, $locationId: Int, $useAi: Boolean, $paused: Boolean, $page: Int, $perPage: Int) {
  autoRespondRules(organizationId: $organizationId, locationId: $locationId, useAi: $useAi, paused: $paused, page: $page, perPage: $perPage) {
    total page perPage items { id name }
  }
}`;

describe('auto-respond rules (GraphQL)', () => {
  const t = useApp();
  const gql = graphql(t);

  async function world() {
    const w = await makeWorld();
    await setAutoRespondFeature(w.orgOwner.customerId!, true);
    return w;
  }
  const rule = (organizationId: number, extra: Record<string, unknown> = {}) => ({
    organizationId,
    name: 'Thank the happy ones',
    ratings: [5, 4],
    template: 'Thank you, {first_name}! See you soon at {business_name}.',
    ...extra,
  });

  it('creates, reads, changes and deletes a rule as the organisation owner', async () => {
    const w = await world();
    const created = await gql(w.tokens.orgOwner, CREATE, {
      input: rule(w.org.id, { locationId: w.branch.id, sourceNames: ['Google', ' google '], keywords: ['friendly staff', 'clean'], keywordMatch: 'any', priority: 3 }),
    });
    expect(created.errors).toBeUndefined();
    const r = created.data!.createAutoRespondRule;
    expect(r).toMatchObject({
      organizationId: w.org.id,
      locationId: w.branch.id,
      name: 'Thank the happy ones',
      ratings: [4, 5],
      sourceNames: ['Google'],
      keywords: ['friendly staff', 'clean'],
      keywordMatch: 'any',
      useAi: false,
      paused: false,
      priority: 3,
    });

    const read = await gql(w.tokens.orgOwner, `{ autoRespondRule(id: ${r.id}) { ${FIELDS} } }`);
    expect(read.data!.autoRespondRule).toEqual(r);

    const changed = await gql(w.tokens.orgOwner, UPDATE, { id: r.id, input: { paused: true, locationId: null, useAi: true, template: null } });
    expect(changed.errors).toBeUndefined();
    expect(changed.data!.updateAutoRespondRule).toMatchObject({ paused: true, locationId: null, useAi: true, template: null, name: 'Thank the happy ones' });

    const deleted = await gql(w.tokens.orgOwner, `mutation { deleteAutoRespondRule(id: ${r.id}) { id message } }`);
    expect(deleted.data!.deleteAutoRespondRule).toEqual({ id: r.id, message: 'Auto-respond rule deleted successfully.' });
    expect(errorOf(await gql(w.tokens.orgOwner, `{ autoRespondRule(id: ${r.id}) { id } }`)).code).toBe('NOT_FOUND');
  });

  it('answers 402 upgrade_required when the plan lacks the auto_respond feature; deleting stays possible', async () => {
    const w = await world();
    const created = (await gql(w.tokens.orgOwner, CREATE, { input: rule(w.org.id) })).data!.createAutoRespondRule;
    await setAutoRespondFeature(w.orgOwner.customerId!, false);

    const refused = await gql(w.tokens.orgOwner, CREATE, { input: rule(w.org.id) });
    expect(errorOf(refused)).toEqual({ code: 'PLAN_LIMIT', reason: 'upgrade_required' });
    expect(errorOf(await gql(w.tokens.orgOwner, UPDATE, { id: created.id, input: { paused: true } }))).toEqual({ code: 'PLAN_LIMIT', reason: 'upgrade_required' });
    expect(errorOf(await gql(w.tokens.orgOwner, LIST, {}))).toEqual({ code: 'PLAN_LIMIT', reason: 'upgrade_required' });
    expect(errorOf(await gql(w.tokens.orgOwner, LIST, { organizationId: w.org.id }))).toEqual({ code: 'PLAN_LIMIT', reason: 'upgrade_required' });
    expect(errorOf(await gql(w.tokens.orgOwner, `{ autoRespondRule(id: ${created.id}) { id } }`)).code).toBe('PLAN_LIMIT');
    expect(await AutoRespondRule.count({ where: { organizationId: w.org.id } })).toBe(1);

    const deleted = await gql(w.tokens.orgOwner, `mutation { deleteAutoRespondRule(id: ${created.id}) { id } }`);
    expect(deleted.errors).toBeUndefined();
    expect(await AutoRespondRule.count({ where: { organizationId: w.org.id } })).toBe(0);
  });

  it.each([
    ['no ratings', { ratings: [] }, 'ratings'],
    ['a rating outside 1-5', { ratings: [0, 5] }, 'ratings'],
    ['no template without AI', { template: null }, 'template'],
    ['an unknown placeholder', { template: 'Hi {name}!' }, 'template'],
    ['a template over 4096 characters', { template: 'x'.repeat(4097) }, 'template'],
    ['an empty name', { name: '  ' }, 'name'],
    ['a name over 255 characters', { name: 'n'.repeat(256) }, 'name'],
    ['an unknown keyword match', { keywordMatch: 'all' }, 'keyword_match'],
    ['a priority over 1000000', { priority: 1_000_001 }, 'priority'],
    ['an empty keyword', { keywords: ['ok', ''] }, 'keywords.1'],
    ['a keyword over 100 characters', { keywords: ['k'.repeat(101)] }, 'keywords.0'],
    ['more than 20 sources', { sourceNames: Array.from({ length: 21 }, (_, i) => `S${i}`) }, 'source_names'],
  ])('refuses %s with VALIDATION on the field', async (_label, extra, field) => {
    const w = await world();
    const res = await gql(w.tokens.orgOwner, CREATE, { input: rule(w.org.id, extra) });
    expect(errorOf(res).code).toBe('VALIDATION');
    expect(Object.keys(res.errors![0].extensions.fields!)).toContain(field);
  });

  it('accepts an AI rule without a template, and a location of the organisation only', async () => {
    const w = await world();
    const ai = await gql(w.tokens.orgOwner, CREATE, { input: rule(w.org.id, { useAi: true, template: null }) });
    expect(ai.data!.createAutoRespondRule).toMatchObject({ useAi: true, template: null });

    const otherOrg = await makeOrganization(w.orgOwner);
    const elsewhere = await makeLocation(otherOrg);
    const wrong = await gql(w.tokens.orgOwner, CREATE, { input: rule(w.org.id, { locationId: elsewhere.id }) });
    expect(errorOf(wrong).code).toBe('VALIDATION');
    expect(wrong.errors![0].extensions.fields).toHaveProperty('location_id');
  });

  it('needs reviews:read and reviews:update (the mapping of reviews.auto_respond), for the list too', async () => {
    const w = await world();
    const readOnly = await tokenFor(w.orgOwner, without('reviews:update'));
    expect(errorOf(await gql(readOnly, LIST, {}))).toEqual({ code: 'FORBIDDEN', reason: 'missing_permission' });
    expect(errorOf(await gql(readOnly, CREATE, { input: rule(w.org.id) }))).toEqual({ code: 'FORBIDDEN', reason: 'missing_permission' });
  });

  it('keeps rules in their account: another account gets NOT_FOUND, and its filters give an empty list', async () => {
    const w = await world();
    const other = await world();
    const created = (await gql(w.tokens.orgOwner, CREATE, { input: rule(w.org.id) })).data!.createAutoRespondRule;
    expect(errorOf(await gql(other.tokens.orgOwner, CREATE, { input: rule(w.org.id) })).code).toBe('NOT_FOUND');
    expect(errorOf(await gql(other.tokens.orgOwner, `{ autoRespondRule(id: ${created.id}) { id } }`)).code).toBe('NOT_FOUND');
    expect(errorOf(await gql(other.tokens.orgOwner, UPDATE, { id: created.id, input: { paused: true } })).code).toBe('NOT_FOUND');
    expect(errorOf(await gql(other.tokens.orgOwner, `mutation { deleteAutoRespondRule(id: ${created.id}) { id } }`)).code).toBe('NOT_FOUND');
    const listed = await gql(other.tokens.orgOwner, LIST, { organizationId: w.org.id });
    expect(listed.data!.autoRespondRules).toMatchObject({ total: 0, items: [] });
    // The tenant owner sees every account of the tenant.
    const tenantWide = await gql(w.tokens.owner, LIST, {});
    expect(tenantWide.data!.autoRespondRules.items.map((i: { id: number }) => i.id)).toEqual([created.id]);
  });

  it('lets team members read the rules of their locations but not manage them', async () => {
    const w = await world();
    const orgWide = (await gql(w.tokens.orgOwner, CREATE, { input: rule(w.org.id, { name: 'org-wide' }) })).data!.createAutoRespondRule;
    const atBranch = (await gql(w.tokens.orgOwner, CREATE, { input: rule(w.org.id, { name: 'branch', locationId: w.branch.id }) })).data!.createAutoRespondRule;
    const atHome = (await gql(w.tokens.orgOwner, CREATE, { input: rule(w.org.id, { name: 'home', locationId: w.home.id }) })).data!.createAutoRespondRule;

    const listed = await gql(w.tokens.member, LIST, {});
    expect(listed.data!.autoRespondRules.items.map((i: { id: number }) => i.id)).toEqual([orgWide.id, atBranch.id]);
    expect(errorOf(await gql(w.tokens.member, `{ autoRespondRule(id: ${atHome.id}) { id } }`)).code).toBe('NOT_FOUND');
    expect(errorOf(await gql(w.tokens.member, CREATE, { input: rule(w.org.id) })).code).toBe('FORBIDDEN');
    expect(errorOf(await gql(w.tokens.member, UPDATE, { id: atBranch.id, input: { paused: true } })).code).toBe('FORBIDDEN');
    expect(errorOf(await gql(w.tokens.member, `mutation { deleteAutoRespondRule(id: ${orgWide.id}) { id } }`)).code).toBe('FORBIDDEN');
  });

  it('goes with the account: deleting a customer cascades its rules, runs, drafts and tags', async () => {
    const w = await world();
    const ruleId = (await gql(w.tokens.orgOwner, CREATE, { input: rule(w.org.id) })).data!.createAutoRespondRule.id;
    const review = await makeReview(await testimonialsOf(w.home));
    await AutoRespondRun.create({ tenantId: w.tenant.id, customerId: w.orgOwner.customerId!, reviewId: review.id, ruleId, status: 'skipped' });
    await gql(w.tokens.orgOwner, 'mutation ($id: Int!) { draftReviewResponse(reviewId: $id, message: "Thanks!") { id } }', { id: review.id });
    await gql(w.tokens.orgOwner, 'mutation ($id: Int!) { tagReviews(reviewIds: [$id], attachTags: ["vip"]) { reviewId } }', { id: review.id });
    const counts = async () =>
      Promise.all([
        AutoRespondRule.count({ where: { id: ruleId } }),
        AutoRespondRun.count({ where: { reviewId: review.id } }),
        ReplyDraft.count({ where: { reviewId: review.id } }),
        ReviewTag.count({ where: { reviewId: review.id } }),
      ]);
    expect(await counts()).toEqual([1, 1, 1, 1]);
    await Customer.destroy({ where: { id: w.orgOwner.customerId! } });
    expect(await counts()).toEqual([0, 0, 0, 0]);
  });

  it('lists in evaluation order (priority, then creation) with the MCP filters and per_page 1-50 (default 25)', async () => {
    const w = await world();
    const make = async (name: string, extra: Record<string, unknown>) =>
      (await gql(w.tokens.orgOwner, CREATE, { input: rule(w.org.id, { name, ...extra }) })).data!.createAutoRespondRule.id as number;
    const late = await make('late', { priority: 10 });
    const first = await make('first', { priority: 0 });
    const ai = await make('ai', { priority: 0, useAi: true, template: null });
    const paused = await make('paused', { priority: 5, paused: true });
    const home = await make('home', { priority: 1, locationId: w.home.id });
    const branch = await make('branch', { priority: 1, locationId: w.branch.id });

    const ids = async (vars: Record<string, unknown>) =>
      (await gql(w.tokens.orgOwner, LIST, vars)).data!.autoRespondRules.items.map((i: { id: number }) => i.id);
    expect(await ids({ organizationId: w.org.id })).toEqual([first, ai, home, branch, paused, late]);
    expect(await ids({ useAi: true })).toEqual([ai]);
    expect(await ids({ paused: true })).toEqual([paused]);
    expect(await ids({ paused: false, useAi: false })).toEqual([first, home, branch, late]);
    expect(await ids({ locationId: w.home.id })).toEqual([first, ai, home, paused, late]);

    const page = await gql(w.tokens.orgOwner, LIST, { perPage: 2, page: 2 });
    expect(page.data!.autoRespondRules).toMatchObject({ total: 6, page: 2, perPage: 2 });
    expect(page.data!.autoRespondRules.items.map((i: { id: number }) => i.id)).toEqual([home, branch]);
    expect((await gql(w.tokens.orgOwner, LIST, {})).data!.autoRespondRules.perPage).toBe(25);
    for (const perPage of [0, 51]) {
      const res = await gql(w.tokens.orgOwner, LIST, { perPage });
      expect(errorOf(res).code).toBe('VALIDATION');
      expect(res.errors![0].extensions.fields).toHaveProperty('per_page');
    }
  });
});

describe('auto-respond matching and templates', () => {
  const base = { locationId: null, ratings: [1, 2], sourceNames: [] as string[], keywords: [] as string[], keywordMatch: 'any' as const };
  const review = { rating: 2, title: null, message: 'The parking was a nightmare, but the staff were friendly.', locationId: 7 };

  it('matches on rating, source name (any letter case) and location', () => {
    expect(ruleMatches(base, review, 'Google')).toBe(true);
    expect(ruleMatches({ ...base, ratings: [5] }, review, 'Google')).toBe(false);
    expect(ruleMatches({ ...base, sourceNames: ['google', 'Facebook'] }, review, 'Google')).toBe(true);
    expect(ruleMatches({ ...base, sourceNames: ['Facebook'] }, review, 'Google')).toBe(false);
    expect(ruleMatches({ ...base, locationId: 7 }, review, 'Google')).toBe(true);
    expect(ruleMatches({ ...base, locationId: 8 }, review, 'Google')).toBe(false);
  });

  it('keywords: any = at least one occurs as a whole word or phrase, none = none occurs', () => {
    expect(ruleMatches({ ...base, keywords: ['Parking'] }, review, 'Google')).toBe(true);
    expect(ruleMatches({ ...base, keywords: ['park'] }, review, 'Google')).toBe(false);
    expect(ruleMatches({ ...base, keywords: ['staff  were'] }, review, 'Google')).toBe(true);
    expect(ruleMatches({ ...base, keywords: ['refund', 'lawyer'] }, review, 'Google')).toBe(false);
    expect(ruleMatches({ ...base, keywords: ['refund', 'lawyer'], keywordMatch: 'none' }, review, 'Google')).toBe(true);
    expect(ruleMatches({ ...base, keywords: ['nightmare'], keywordMatch: 'none' }, review, 'Google')).toBe(false);
    expect(containsKeyword('Großartig! Sehr freundlich.', 'GROSSARTIG')).toBe(false);
    expect(containsKeyword('Großartig! Sehr freundlich.', 'großartig')).toBe(true);
    expect(containsKeyword('Title line\nbody', 'title')).toBe(true);
  });

  it('renders the placeholders and reports unknown ones', () => {
    const values = { author: 'Ada Lovelace', first_name: 'Ada', rating: '5', business_name: 'Main Street Dental', location_name: 'Downtown', source: 'Google' };
    expect(renderTemplate('Thanks {first_name} ({author}) for {rating} stars on {source} - {business_name}, {location_name}. {unknown}', values)).toBe(
      'Thanks Ada (Ada Lovelace) for 5 stars on Google - Main Street Dental, Downtown. {unknown}',
    );
    expect(unknownPlaceholders('Hi {first_name}, {Author} {name} {name} {{x}}')).toEqual(['{Author}', '{name}', '{x}']);
    expect(unknownPlaceholders('Plain { text } with braces {}')).toEqual([]);
  });
});
