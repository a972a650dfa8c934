import { fixedClock } from '../../src/domain/clock';
import { ApiToken, OutboxEvent, type Campaign, type Location } from '../../src/models';
import { hashToken } from '../../src/services/auth.service';
import { submitFeedback } from '../../src/services/private-feedback.service';
import { countStatements, useDatabase } from '../support/db';
import { makeWorld, tokenFor, without } from '../support/factories';
import { makeCampaign, makeSentInvite, useInboundApp } from '../inbound/support';
import { waitUntil } from '../support/wait';

/** Private feedback through GraphQL: the list with its filters and scope, reply and edit (docs/decisions/review-requests.md). */
describe('GraphQL private feedback', () => {
  afterAll(async () => {
    await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });
  });
  const db = useDatabase();
  const t = useInboundApp();

  const FIELDS = 'id organizationId locationId campaignId contactId rating author email phone message reply replyDate replied source sourceName meta createdAt';

  async function feedbackAt(campaign: Campaign, at: string, rating: number, message = `Rated ${rating}`) {
    const { invite } = await makeSentInvite(campaign);
    const { feedback } = await submitFeedback(invite.uuid, { name: 'Pat Doe', email: '', phone: '', message, rating: String(rating) }, { clock: fixedClock(new Date(at)) });
    return feedback;
  }

  async function world() {
    const w = await makeWorld();
    const home = await makeCampaign(w.org, w.home);
    const branch = await makeCampaign(w.org, w.branch as Location, { name: 'Branch visits' });
    const a = await feedbackAt(home, '2026-01-10T12:00:00Z', 2);
    const b = await feedbackAt(branch, '2026-01-20T12:00:00Z', 1);
    const c = await feedbackAt(home, '2026-02-01T23:59:59Z', 3);
    return { w, home, branch, a, b, c };
  }

  const ids = (res: { body: { data: { privateFeedbacks: { items: Array<{ id: number }> } } } }) => res.body.data.privateFeedbacks.items.map((i) => i.id);
  const list = (token: string, args = '') => t.gql(token, `{ privateFeedbacks${args ? `(${args})` : ''} { total page perPage items { id } } }`);

  it('lists newest first with the filters of list_private_feedback: organisation, location, dates, ratings, responded; paginated', async () => {
    const { w, home, a, b, c } = await world();
    const all = await t.gql(w.tokens.orgOwner, `{ privateFeedbacks { total items { ${FIELDS} } } }`);
    expect(all.body.errors).toBeUndefined();
    expect(all.body.data.privateFeedbacks.total).toBe(3);
    expect(all.body.data.privateFeedbacks.items.map((i: { id: number }) => i.id)).toEqual([c.id, b.id, a.id]);
    expect(all.body.data.privateFeedbacks.items[2]).toMatchObject({
      organizationId: w.org.id,
      locationId: w.home.id,
      campaignId: home.uuid,
      contactId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      rating: 2,
      author: 'Pat Doe',
      replied: false,
      source: 'link',
      sourceName: home.name,
      createdAt: '2026-01-10T12:00:00.000Z',
    });
    expect(JSON.parse(all.body.data.privateFeedbacks.items[2].meta)).toMatchObject({ rating: '2', source_id: home.uuid });

    const token = w.tokens.orgOwner;
    expect(ids(await list(token, `locationId: ${w.home.id}`))).toEqual([c.id, a.id]);
    expect(ids(await list(token, `organizationId: ${w.org.id}`))).toEqual([c.id, b.id, a.id]);
    expect(ids(await list(token, 'dateFrom: "2026-01-20", dateTo: "2026-02-01"'))).toEqual([c.id, b.id]);
    expect(ids(await list(token, 'dateTo: "2026-01-19"'))).toEqual([a.id]);
    expect(ids(await list(token, 'ratings: [1, 2]'))).toEqual([b.id, a.id]);
    await t.gql(token, `mutation { replyToPrivateFeedback(id: ${b.id}, input: { message: "We are sorry." }) { id } }`);
    expect(ids(await list(token, 'responded: true'))).toEqual([b.id]);
    expect(ids(await list(token, 'responded: false'))).toEqual([c.id, a.id]);
    const page2 = await list(token, 'perPage: 2, page: 2');
    expect(page2.body.data.privateFeedbacks).toEqual({ total: 3, page: 2, perPage: 2, items: [{ id: a.id }] });

    const bad = await list(token, 'dateFrom: "2026-02-30", ratings: [6]');
    expect(bad.body.errors[0].extensions.code).toBe('VALIDATION');
    expect(Object.keys(bad.body.errors[0].extensions.fields).sort()).toEqual(['date_from', 'ratings']);
    expect((await list(token, 'dateFrom: "2026-02-02", dateTo: "2026-02-01"')).body.errors[0].extensions.fields).toHaveProperty('date_to');
  });

  it('is scoped like reviews: team members see their assigned locations, other accounts nothing, the agency everything', async () => {
    const { w, a, b, c } = await world();
    expect(ids(await list(w.tokens.member))).toEqual([b.id]);
    expect(ids(await list(w.tokens.owner))).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    const other = await makeWorld();
    expect(ids(await list(other.tokens.orgOwner))).toEqual([]);
    expect(ids(await list(other.tokens.orgOwner, `organizationId: ${w.org.id}`))).toEqual([]);
    expect((await t.gql(other.tokens.orgOwner, `{ privateFeedback(id: ${a.id}) { id } }`)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await t.gql(w.tokens.member, `{ privateFeedback(id: ${a.id}) { id } }`)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await t.gql(w.tokens.member, `{ privateFeedback(id: ${b.id}) { id } }`)).body.data.privateFeedback.id).toBe(b.id);
    expect((await list(await tokenFor(w.orgOwner, without('reviews:read')))).body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('reply and edit write private-feedback-updated with the spec payload; a change to nothing writes nothing', async () => {
    const { w, a } = await world();
    const events = () => OutboxEvent.findAll({ where: { aggregateType: 'private_feedback', aggregateId: String(a.id) }, order: [['id', 'ASC']] });
    expect((await events()).map((e) => e.event)).toEqual(['private-feedback-created']);

    const replied = await t.gql(w.tokens.orgOwner, `mutation { replyToPrivateFeedback(id: ${a.id}, input: { message: "  Thank you, we will call you.  " }) { ${FIELDS} } }`);
    expect(replied.body.errors).toBeUndefined();
    const r = replied.body.data.replyToPrivateFeedback;
    expect(r).toMatchObject({ reply: 'Thank you, we will call you.', replied: true, replyDate: expect.any(String) });
    let log = await events();
    expect(log.map((e) => e.event)).toEqual(['private-feedback-created', 'private-feedback-updated']);
    expect(log[1].payload).toMatchObject({
      webhook_event: 'private-feedback-updated',
      id: a.id,
      rating: 2,
      replied: true,
      reply_message: 'Thank you, we will call you.',
      reply_published_on: r.replyDate,
      meta: a.meta,
    });
    expect(Object.keys(log[1].payload)).toEqual(Object.keys(log[0].payload));

    await t.gql(w.tokens.orgOwner, `mutation { replyToPrivateFeedback(id: ${a.id}, input: { message: "Thank you, we will call you." }) { id } }`);
    await t.gql(w.tokens.orgOwner, `mutation { updatePrivateFeedback(id: ${a.id}, input: { rating: 2 }) { id } }`);
    expect(await events()).toHaveLength(2);

    const edited = await t.gql(w.tokens.orgOwner, `mutation { updatePrivateFeedback(id: ${a.id}, input: { rating: 4, message: "Resolved by phone." }) { rating message reply } }`);
    expect(edited.body.data.updatePrivateFeedback).toEqual({ rating: 4, message: 'Resolved by phone.', reply: 'Thank you, we will call you.' });
    log = await events();
    expect(log).toHaveLength(3);
    expect(log[2].payload).toMatchObject({ webhook_event: 'private-feedback-updated', rating: 4, message: 'Resolved by phone.', replied: true });

    const invalid = await t.gql(w.tokens.orgOwner, `mutation { updatePrivateFeedback(id: ${a.id}, input: { rating: 6, message: " " }) { id } }`);
    expect(Object.keys(invalid.body.errors[0].extensions.fields).sort()).toEqual(['message', 'rating']);
    const empty = await t.gql(w.tokens.orgOwner, `mutation { replyToPrivateFeedback(id: ${a.id}, input: { message: "" }) { id } }`);
    expect(empty.body.errors[0].extensions.code).toBe('VALIDATION');
    const readOnly = await tokenFor(w.orgOwner, without('reviews:update'));
    expect((await t.gql(readOnly, `mutation { updatePrivateFeedback(id: ${a.id}, input: { rating: 1 }) { id } }`)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await events()).toHaveLength(3);
  });

  it('resolves a page in a constant number of SQL statements (no N+1)', async () => {
    const { w, home } = await world();
    const count = async () => {
      const { n, result: res } = await countStatements(db(), () => t.gql(w.tokens.orgOwner, `{ privateFeedbacks(perPage: 100) { total items { ${FIELDS} } } }`));
      expect(res.body.errors).toBeUndefined();
      return { n, items: res.body.data.privateFeedbacks.items.length };
    };
    await count(); // warm-up: token bookkeeping (its last-used update finishes after the answer)
    await waitUntil(async () => (await ApiToken.findOne({ where: { tokenHash: hashToken(w.tokens.orgOwner) } }))?.lastUsedAt != null, 10_000, 20);
    const before = await count();
    for (let i = 0; i < 4; i += 1) await feedbackAt(home, '2026-03-01T10:00:00Z', 1);
    const after = await count();
    expect(after.items).toBe(before.items + 4);
    expect(after.n).toBe(before.n);
  });
});
