import { QueryTypes } from 'sequelize';
import { upsertProviderReviews } from '../../src/jobs/review-sync';
import { OutboxEvent, ReplyDraft, Review } from '../../src/models';
import { GoogleBusinessClient } from '../../src/providers/google/business.client';
import { reply } from '../../src/services/replies.service';
import { createDraft } from '../../src/services/reply-drafts.service';
import { attachSynced } from '../../src/services/integrations.service';
import { saveConnection } from '../../src/services/provider-connections.service';
import { graphql as runGraphql } from 'graphql';
import { authenticatedContext } from '../../src/context';
import type { DomainError } from '../../src/domain/errors';
import { getSchema } from '../../src/graphql/schema';
import { errorOf, graphql, type GqlResult } from '../auto-respond/support';
import { useApp } from '../support/app';
import { countStatements } from '../support/db';
import { ALL, makeReview, makeWorld, testimonialsOf, tokenFor, without } from '../support/factories';
import { useProviderApis } from '../support/providers/review-platforms';
import { waitUntil } from '../support/wait';

const DRAFT_FIELDS = 'id reviewId organizationId locationId message status createdVia createdByUserId decidedByUserId decidedAt rejectionReason';
const DRAFT = `mutation ($reviewId: Int!, $message: String!) { draftReviewResponse(reviewId: $reviewId, message: $message) { ${DRAFT_FIELDS} } }`;
const APPROVE = `mutation ($id: Int!, $message: String) { approveReplyDraft(id: $id, input: { message: $message }) { ${DRAFT_FIELDS} review { id reply } } }`;
const REJECT = `mutation ($id: Int!, $reason: String) { rejectReplyDraft(id: $id, input: { reason: $reason }) { ${DRAFT_FIELDS} } }`;
const QUEUE = `query ($status: String, $organizationId: Int, $locationId: Int, $reviewId: Int, $page: Int, $perPage: Int) {
  replyDrafts(status: $status, organizationId: $organizationId, locationId: $locationId, reviewId: $reviewId, page: $page, perPage: $perPage) {
    total page perPage items { id status reviewId review { id author } }
  }
}`;

describe('reply drafts and the approvals queue (GraphQL)', () => {
  const t = useApp();
  const apis = useProviderApis();
  const gql = graphql(t);
  let seq = 0;

  async function writtenReview(w: Awaited<ReturnType<typeof makeWorld>>, location = w.home) {
    return makeReview(await testimonialsOf(location), { author: 'Ada Lovelace', rating: 4 });
  }
  const draft = async (token: string, reviewId: number, message = 'Thank you, Ada!') => gql(token, DRAFT, { reviewId, message });

  it('holds a draft in the queue and never sends it by itself', async () => {
    const w = await makeWorld();
    const review = await writtenReview(w);
    const res = await draft(w.tokens.orgOwner, review.id, '  Thank you, Ada!  ');
    expect(res.errors).toBeUndefined();
    expect(res.data!.draftReviewResponse).toMatchObject({
      reviewId: review.id,
      organizationId: w.org.id,
      locationId: w.home.id,
      message: 'Thank you, Ada!',
      status: 'pending',
      createdVia: 'customer',
      createdByUserId: w.orgOwner.id,
      decidedByUserId: null,
      decidedAt: null,
    });
    // Storing a draft starts nothing in the background (no workflow, no worker in this file): what it left is final.
    expect((await Review.findByPk(review.id))!.reply).toBeNull();
    expect(await OutboxEvent.count({ where: { aggregateType: 'review', aggregateId: String(review.id) } })).toBe(0);
    const queue = await gql(w.tokens.orgOwner, QUEUE);
    expect(queue.data!.replyDrafts).toMatchObject({ total: 1, perPage: 10, items: [{ status: 'pending', reviewId: review.id, review: { id: review.id, author: 'Ada Lovelace' } }] });
  });

  it('accepts 8000 characters and refuses 8001, an empty message, and a review that has a reply', async () => {
    const w = await makeWorld();
    const review = await writtenReview(w);
    expect((await draft(w.tokens.orgOwner, review.id, '€'.repeat(8000))).errors).toBeUndefined();
    const long = await draft(w.tokens.orgOwner, review.id, 'x'.repeat(8001));
    expect(errorOf(long).code).toBe('VALIDATION');
    expect(long.errors![0].extensions.fields).toEqual({ message: ['The message may not be greater than 8000 characters.'] });
    expect(errorOf(await draft(w.tokens.orgOwner, review.id, '   ')).code).toBe('VALIDATION');
    const replied = await makeReview(await testimonialsOf(w.home), { reply: 'Already answered.' });
    expect(errorOf(await draft(w.tokens.orgOwner, replied.id))).toEqual({ code: 'CONFLICT', reason: 'already_replied' });
  });

  it('approving stores the reply of a written review, writes review-updated and supersedes other pending drafts', async () => {
    const w = await makeWorld();
    const review = await writtenReview(w);
    const first = (await draft(w.tokens.orgOwner, review.id, 'First try.')).data!.draftReviewResponse;
    const second = (await draft(w.tokens.orgOwner, review.id, 'Second try.')).data!.draftReviewResponse;
    const approved = await gql(w.tokens.orgOwner, APPROVE, { id: second.id });
    expect(approved.errors).toBeUndefined();
    expect(approved.data!.approveReplyDraft).toMatchObject({ status: 'approved', decidedByUserId: w.orgOwner.id, review: { id: review.id, reply: 'Second try.' } });
    expect(approved.data!.approveReplyDraft.decidedAt).not.toBeNull();
    expect((await Review.findByPk(review.id))!.reply).toBe('Second try.');
    const events = await OutboxEvent.findAll({ where: { aggregateType: 'review', aggregateId: String(review.id) } });
    expect(events.map((e) => e.event)).toEqual(['review-updated']);
    expect(await ReplyDraft.findByPk(first.id)).toMatchObject({ status: 'rejected', rejectionReason: `Superseded: draft ${second.id} of this review was approved.` });

    expect(errorOf(await gql(w.tokens.orgOwner, APPROVE, { id: second.id }))).toEqual({ code: 'CONFLICT', reason: 'draft_not_pending' });
    expect(errorOf(await gql(w.tokens.orgOwner, REJECT, { id: first.id }))).toEqual({ code: 'CONFLICT', reason: 'draft_not_pending' });
  });

  it("approving publishes a synced review's draft on Google first; the approver may edit it", async () => {
    const w = await makeWorld();
    const location = apis().google.addLocation(`accounts/9${++seq}/locations/9${seq}`, { title: 'Draft Dental' });
    const integration = await attachSynced(w.home, 'google', location);
    await saveConnection({ integrationId: integration.id, provider: 'google', accessToken: 'draft-token', refreshToken: null, expiresAt: null, scope: null });
    const name = apis().google.addReview(location, { rating: 3, comment: 'Okay.' });
    const review = await makeReview(integration, { identifier: name, rating: 3 });
    const pending = (await draft(w.tokens.orgOwner, review.id, 'x'.repeat(5000))).data!.draftReviewResponse;

    // A draft over the 4096 characters a published reply may have must be shortened when approving.
    const tooLong = await gql(w.tokens.orgOwner, APPROVE, { id: pending.id });
    expect(errorOf(tooLong)).toEqual({ code: 'VALIDATION', reason: 'reply_too_long' });
    expect(apis().google.replies()[name]).toBeUndefined();

    apis().google.rejectReplies('Not today.');
    const refused = await gql(w.tokens.orgOwner, APPROVE, { id: pending.id, message: 'Thanks for the feedback!' });
    expect(errorOf(refused)).toEqual({ code: 'UPSTREAM', reason: 'provider_rejected' });
    expect(await ReplyDraft.findByPk(pending.id)).toMatchObject({ status: 'pending', message: 'x'.repeat(5000) });
    apis().google.rejectReplies(null);

    const approved = await gql(w.tokens.orgOwner, APPROVE, { id: pending.id, message: 'Thanks for the feedback!' });
    expect(approved.errors).toBeUndefined();
    expect(approved.data!.approveReplyDraft).toMatchObject({ status: 'approved', message: 'Thanks for the feedback!' });
    expect(apis().google.replies()[name]?.comment).toBe('Thanks for the feedback!');
    expect((await Review.findByPk(review.id))!.reply).toBe('Thanks for the feedback!');
  });

  async function googleReviewWithDraft(w: Awaited<ReturnType<typeof makeWorld>>) {
    const location = apis().google.addLocation(`accounts/95${++seq}/locations/95${seq}`, { title: 'Draft Dental' });
    const integration = await attachSynced(w.home, 'google', location);
    await saveConnection({ integrationId: integration.id, provider: 'google', accessToken: 'draft-token', refreshToken: null, expiresAt: null, scope: null });
    const name = apis().google.addReview(location, { rating: 4, comment: 'Good.', createTime: new Date('2026-10-01T09:00:00.000Z') });
    // As the last sync stored it (no reply yet).
    const [fetched] = (await new GoogleBusinessClient({ baseUrl: apis().googleUrl }).listReviews('draft-token', location)).reviews;
    await upsertProviderReviews(integration.id, 'google', [fetched]);
    const review = (await Review.findOne({ where: { integrationId: integration.id, identifier: name } }))!;
    const pending = (await draft(w.tokens.orgOwner, review.id, 'Thanks!')).data!.draftReviewResponse;
    return { location, integration, name, review, pending };
  }

  it('a reply made another way (REST "Reply to Review") supersedes the pending drafts in its transaction', async () => {
    const w = await makeWorld();
    const review = await writtenReview(w);
    const first = (await draft(w.tokens.orgOwner, review.id, 'First try.')).data!.draftReviewResponse;
    const second = (await draft(w.tokens.orgOwner, review.id, 'Second try.')).data!.draftReviewResponse;
    const replied = await t.as(w.tokens.orgOwner).post(`/api/v1/reviews/${review.id}/reply`).send({ message: 'Written by hand.' });
    expect(replied.status).toBe(200);
    for (const d of [first, second]) {
      expect(await ReplyDraft.findByPk(d.id)).toMatchObject({ status: 'rejected', rejectionReason: 'Superseded: the review was replied to.', decidedByUserId: w.orgOwner.id });
      expect((await ReplyDraft.findByPk(d.id))!.decidedAt).not.toBeNull();
    }
    expect((await gql(w.tokens.orgOwner, QUEUE, { reviewId: review.id })).data!.replyDrafts.total).toBe(0);
    expect(errorOf(await gql(w.tokens.orgOwner, APPROVE, { id: second.id }))).toEqual({ code: 'CONFLICT', reason: 'draft_not_pending' });
  });

  it('a reply the sync brings from the platform supersedes the pending drafts', async () => {
    const w = await makeWorld();
    const { location, integration, name, review, pending } = await googleReviewWithDraft(w);
    apis().google.replyAsOwner(name, 'Answered on Google.');
    const page = await new GoogleBusinessClient({ baseUrl: apis().googleUrl }).listReviews('draft-token', location);
    expect(await upsertProviderReviews(integration.id, 'google', page.reviews)).toMatchObject({ updated: 1 });
    expect((await Review.findByPk(review.id))!.reply).toBe('Answered on Google.');
    expect(await ReplyDraft.findByPk(pending.id)).toMatchObject({
      status: 'rejected',
      rejectionReason: `Superseded: the review was replied to on ${integration.name}.`,
      decidedByUserId: null,
    });
    expect(errorOf(await gql(w.tokens.orgOwner, APPROVE, { id: pending.id }))).toEqual({ code: 'CONFLICT', reason: 'draft_not_pending' });
  });

  it('approving a draft of a review answered on the platform is 409 already_replied and supersedes its drafts for good', async () => {
    const w = await makeWorld();
    const { name, review, pending } = await googleReviewWithDraft(w);
    const other = (await draft(w.tokens.orgOwner, review.id, 'Another try.')).data!.draftReviewResponse;
    apis().google.replyAsOwner(name, 'Answered on Google.'); // before the next sync
    expect(errorOf(await gql(w.tokens.orgOwner, APPROVE, { id: pending.id }))).toEqual({ code: 'CONFLICT', reason: 'already_replied' });
    expect(apis().google.replies()[name].comment).toBe('Answered on Google.');
    for (const d of [pending, other]) {
      expect(await ReplyDraft.findByPk(d.id)).toMatchObject({ status: 'rejected', rejectionReason: 'Superseded: the review has already been replied to.' });
    }
    expect((await Review.findByPk(review.id))!.reply).toBeNull(); // the next sync stores Google's reply
  });

  it('a draft requested while a reply is being stored waits for it and is refused (409 already_replied), never left pending', async () => {
    const w = await makeWorld();
    const review = await writtenReview(w);
    const { principal } = await authenticatedContext({ bearer: w.tokens.orgOwner, baseUrl: 'http://127.0.0.1' });
    let drafting: Promise<unknown> | null = null;
    let settled = false;
    await t.db().transaction(async (transaction) => {
      await reply(principal!, review.id, 'Written by hand.', { transaction });
      drafting = createDraft(principal!, { reviewId: review.id, message: 'Late draft.' })
        .catch((e: unknown) => e)
        .finally(() => (settled = true));
      // The draft waits for the review's lock (its row read or the draft's insert), or (the bug) is stored at once.
      await waitUntil(async () => settled || (await waitsForLock()), 30_000, 200);
      expect(settled).toBe(false);
    });
    expect(await drafting).toMatchObject({ code: 'CONFLICT', reason: 'already_replied' });
    expect(await ReplyDraft.count({ where: { reviewId: review.id, status: 'pending' } })).toBe(0);
  });

  /** A transaction of this worker's database waits for a row lock (INNODB_TRX refreshes when not read for 100 ms). */
  async function waitsForLock(): Promise<boolean> {
    const rows = await t.db().query(
      `SELECT x.trx_id FROM information_schema.INNODB_TRX x JOIN information_schema.PROCESSLIST p ON p.ID = x.trx_mysql_thread_id
        WHERE x.trx_state = 'LOCK WAIT' AND p.DB = DATABASE()`,
      { type: QueryTypes.SELECT },
    );
    return rows.length > 0;
  }

  it('rejecting discards the draft: nothing is sent, the row stays rejected with who and why', async () => {
    const w = await makeWorld();
    const review = await writtenReview(w);
    const pending = (await draft(w.tokens.orgOwner, review.id)).data!.draftReviewResponse;
    const rejected = await gql(w.tokens.orgOwner, REJECT, { id: pending.id, reason: 'Too casual.' });
    expect(rejected.data!.rejectReplyDraft).toMatchObject({ status: 'rejected', rejectionReason: 'Too casual.', decidedByUserId: w.orgOwner.id });
    expect((await Review.findByPk(review.id))!.reply).toBeNull();
    expect(errorOf(await gql(w.tokens.orgOwner, REJECT, { id: pending.id, reason: 'again' }))).toEqual({ code: 'CONFLICT', reason: 'draft_not_pending' });
    const other = (await draft(w.tokens.orgOwner, review.id)).data!.draftReviewResponse;
    const longReason = await gql(w.tokens.orgOwner, REJECT, { id: other.id, reason: 'r'.repeat(1001) });
    expect(errorOf(longReason).code).toBe('VALIDATION');
    expect(longReason.errors![0].extensions.fields).toHaveProperty('reason');

    const byState = async (status: string | null) =>
      (await gql(w.tokens.orgOwner, QUEUE, { status })).data!.replyDrafts.items.map((d: { id: number }) => d.id);
    expect(await byState('pending')).toEqual([other.id]);
    expect(await byState('rejected')).toEqual([pending.id]);
    expect(await byState(null)).toEqual([pending.id, other.id]);
    expect(errorOf(await gql(w.tokens.orgOwner, QUEUE, { status: 'lost' })).code).toBe('VALIDATION');
  });

  /** An AI token's operation as the MCP endpoint runs it: in-process, in the token's context (`/graphql` refuses AI tokens). */
  async function asAi(token: string, source: string, variableValues: Record<string, unknown>): Promise<GqlResult> {
    const contextValue = await authenticatedContext({ bearer: token, baseUrl: 'http://127.0.0.1', kinds: ['ai'] });
    const result = await runGraphql({ schema: await getSchema(), source, variableValues, contextValue });
    const errors = result.errors?.map((e) => {
      const domain = e.originalError as DomainError;
      return { message: e.message, extensions: { code: domain.code, reason: domain.reason } };
    });
    return { status: 200, data: (result.data as GqlResult['data']) ?? null, errors };
  }

  it('lets an AI token draft but never approve or reject', async () => {
    const w = await makeWorld();
    const review = await writtenReview(w);
    const ai = await tokenFor(w.orgOwner, [...ALL, 'mcp:access', 'mcp:writes'], 'ai');
    const drafted = await asAi(ai, DRAFT, { reviewId: review.id, message: 'Thank you, Ada!' });
    expect(drafted.data!.draftReviewResponse).toMatchObject({ status: 'pending', createdVia: 'ai' });
    const id = drafted.data!.draftReviewResponse.id;
    expect(errorOf(await asAi(ai, APPROVE, { id }))).toEqual({ code: 'FORBIDDEN', reason: 'human_approval_required' });
    expect(errorOf(await asAi(ai, REJECT, { id }))).toEqual({ code: 'FORBIDDEN', reason: 'human_approval_required' });
    expect((await Review.findByPk(review.id))!.reply).toBeNull();
    expect((await gql(w.tokens.orgOwner, APPROVE, { id })).data!.approveReplyDraft.status).toBe('approved');
  });

  it('refuses AI tokens on /graphql (403 wrong_token_kind): their abilities are the MCP endpoint\'s to enforce', async () => {
    const w = await makeWorld();
    const review = await writtenReview(w);
    // Without mcp:writes, reviews:update would otherwise let it publish a reply through GraphQL.
    const ai = await tokenFor(w.orgOwner, [...ALL, 'mcp:access'], 'ai');
    const reply = await gql(ai, 'mutation ($id: Int!) { replyToReview(id: $id, input: { message: "Published by a read-only assistant" }) { id } }', { id: review.id });
    expect(reply.status).toBe(403);
    expect(errorOf(reply)).toEqual({ code: 'FORBIDDEN', reason: 'wrong_token_kind' });
    expect((await Review.findByPk(review.id))!.reply).toBeNull();
    expect(errorOf(await gql(ai, QUEUE, {}))).toEqual({ code: 'FORBIDDEN', reason: 'wrong_token_kind' });
  });

  it('scopes drafts: reviews:update to draft and decide, reviews:read for the queue, team members at their locations only', async () => {
    const w = await makeWorld();
    const atHome = await writtenReview(w, w.home);
    const atBranch = await writtenReview(w, w.branch);
    const readOnly = await tokenFor(w.orgOwner, without('reviews:update'));
    expect(errorOf(await draft(readOnly, atHome.id))).toEqual({ code: 'FORBIDDEN', reason: 'missing_permission' });
    const homeDraft = (await draft(w.tokens.orgOwner, atHome.id)).data!.draftReviewResponse;
    const branchDraft = (await draft(w.tokens.orgOwner, atBranch.id)).data!.draftReviewResponse;
    expect((await gql(readOnly, QUEUE)).data!.replyDrafts.total).toBe(2);
    expect(errorOf(await gql(readOnly, APPROVE, { id: homeDraft.id }))).toEqual({ code: 'FORBIDDEN', reason: 'missing_permission' });

    // The team member is assigned the branch only.
    expect((await gql(w.tokens.member, QUEUE)).data!.replyDrafts.items.map((d: { id: number }) => d.id)).toEqual([branchDraft.id]);
    expect(errorOf(await draft(w.tokens.member, atHome.id)).code).toBe('NOT_FOUND');
    expect(errorOf(await gql(w.tokens.member, APPROVE, { id: homeDraft.id })).code).toBe('NOT_FOUND');
    expect((await gql(w.tokens.member, APPROVE, { id: branchDraft.id })).data!.approveReplyDraft.status).toBe('approved');

    const other = await makeWorld();
    expect(errorOf(await draft(other.tokens.orgOwner, atHome.id)).code).toBe('NOT_FOUND');
    expect(errorOf(await gql(other.tokens.orgOwner, `{ replyDraft(id: ${homeDraft.id}) { id } }`)).code).toBe('NOT_FOUND');
    expect((await gql(other.tokens.orgOwner, QUEUE)).data!.replyDrafts.total).toBe(0);
    const filtered = await gql(w.tokens.orgOwner, QUEUE, { locationId: w.home.id });
    expect(filtered.data!.replyDrafts.items.map((d: { id: number }) => d.id)).toEqual([homeDraft.id]);
  });

  it('resolves a page of the queue with its reviews in a constant number of SQL statements (no N+1)', async () => {
    const w = await makeWorld();
    for (let i = 0; i < 10; i++) await draft(w.tokens.orgOwner, (await writtenReview(w)).id);
    const count = async (perPage: number) => {
      const { n, result: res } = await countStatements(t.db(), () => gql(w.tokens.orgOwner, `{ replyDrafts(perPage: ${perPage}) { items { id review { id author source } } } }`));
      expect(res.data!.replyDrafts.items).toHaveLength(perPage);
      return n;
    };
    await count(1); // warm-up: token bookkeeping and the once-per-process source catalogue
    expect(await count(10)).toBe(await count(2));
  });
});
