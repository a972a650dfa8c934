import { WorkflowNotFoundError } from '@temporalio/client';
import { AutoRespondRule, AutoRespondRun, Integration, OutboxEvent, Review } from '../../src/models';
import { resumePendingAutoResponses } from '../../src/services/auto-respond.service';
import { attachSynced } from '../../src/services/integrations.service';
import { saveConnection } from '../../src/services/provider-connections.service';
import { autoRespondSweepScheduleId, autoRespondWorkflowId, configureAutoRespond, ensureAutoRespondSweep, startAutoRespondWorkflow } from '../../workflows/auto-respond/client';
import { temporal } from '../../workflows/client';
import type { AutoRespondOutcome } from '../../workflows/activities/auto-respond';
import { useApp } from '../support/app';
import { customSourceOf, makeReview, makeWorld, testimonialsOf } from '../support/factories';
import { useProviderApis } from '../support/providers/review-platforms';
import { recordHistory, useTemporalWorker } from '../support/temporal';
import { waitUntil } from '../support/wait';
import { completion, startChatServer } from '../support/providers/ai';
import { graphql, setAutoRespondFeature } from './support';

/**
 * Auto-respond end to end: rules chosen in the review's transaction, the `autoRespond` workflow on a real worker
 * of the run's Temporal dev server, replies published to the loopback Google server (its wire format) or stored
 * for written reviews. Retries are shortened by configuration.
 */
jest.setTimeout(90_000);

describe('auto-respond on Temporal', () => {
  const t = useApp();
  const worker = useTemporalWorker();
  const apis = useProviderApis();
  const gql = graphql(t);
  let chat: Awaited<ReturnType<typeof startChatServer>>;
  let seq = 0;

  beforeAll(async () => {
    // Workflow ids live in the namespace: scope them to this file's queue (every test database has review 1).
    configureAutoRespond({ idScope: worker.settings().taskQueue, retry: { maximumAttempts: 3, initialIntervalMs: 100, maximumIntervalMs: 200 } });
    chat = await startChatServer();
  });
  afterAll(async () => {
    configureAutoRespond({ idScope: undefined, retry: undefined });
    delete process.env.AI_API_URL;
    await chat.close();
  });
  afterEach(() => {
    delete process.env.AI_API_URL;
  });

  async function world() {
    const w = await makeWorld();
    await setAutoRespondFeature(w.orgOwner.customerId!, true);
    return w;
  }

  async function addRule(w: Awaited<ReturnType<typeof world>>, extra: Record<string, unknown> = {}) {
    const res = await gql(w.tokens.orgOwner, 'mutation ($input: CreateAutoRespondRuleInput!) { createAutoRespondRule(input: $input) { id } }', {
      input: { organizationId: w.org.id, name: 'Happy customers', ratings: [4, 5], template: 'Thank you, {first_name}! - {business_name} ({source}, {rating} stars)', ...extra },
    });
    expect(res.errors).toBeUndefined();
    return res.data!.createAutoRespondRule.id as number;
  }

  async function createReview(w: Awaited<ReturnType<typeof world>>, input: { rating: number; message?: string; source?: number; author?: string }) {
    const source = input.source ?? (await testimonialsOf(w.home)).id;
    const res = await gql(
      w.tokens.orgOwner,
      'mutation ($input: CreateReviewInput!) { createReview(input: $input) { id } }',
      {
        input: {
          author: input.author ?? 'Ada Lovelace',
          rating: input.rating,
          publishedOn: '2026-11-20',
          organizationId: w.org.id,
          locationId: w.home.id,
          source,
          message: input.message ?? 'Lovely people.',
        },
      },
    );
    expect(res.errors).toBeUndefined();
    return res.data!.createReview.id as number;
  }

  const replyOf = async (reviewId: number) => (await Review.findByPk(reviewId))!.reply;
  /** The workflow's result; it is started right after the review's commit, so wait for it to exist first. */
  async function outcomeOf(reviewId: number): Promise<AutoRespondOutcome> {
    await waitUntil(async () => !(await noWorkflow(reviewId)), 10_000, 50);
    return temporal().client.workflow.getHandle(autoRespondWorkflowId(reviewId)).result();
  }
  async function noWorkflow(reviewId: number): Promise<boolean> {
    try {
      await temporal().client.workflow.getHandle(autoRespondWorkflowId(reviewId)).describe();
      return false;
    } catch (e) {
      return e instanceof WorkflowNotFoundError;
    }
  }

  it('answers a new written review with the first matching rule: the reply is stored, review-updated written', async () => {
    const w = await world();
    const later = await addRule(w, { name: 'later', priority: 5, template: 'Second rule.' });
    const first = await addRule(w, { name: 'first', priority: 1 });
    const custom = await customSourceOf(w.home, 'Website widget');
    const reviewId = await createReview(w, { rating: 5, source: custom.id });

    const run = await AutoRespondRun.findOne({ where: { reviewId } });
    expect(run).toMatchObject({ ruleId: first, status: 'pending' });
    expect(await outcomeOf(reviewId)).toEqual({ status: 'replied', reason: null });

    const review = (await Review.findByPk(reviewId))!;
    expect(review.reply).toBe(`Thank you, Ada! - ${w.org.name} (Website widget, 5 stars)`);
    expect(review.replyDate).not.toBeNull();
    expect(await AutoRespondRun.findOne({ where: { reviewId } })).toMatchObject({ status: 'replied', reply: review.reply, usedAi: false });
    const events = await OutboxEvent.findAll({ where: { aggregateType: 'review', aggregateId: String(reviewId) }, order: [['id', 'ASC']] });
    expect(events.map((e) => e.event)).toEqual(['review-created', 'review-updated']);
    expect(events[1].payload).toMatchObject({ replied: true, reply_message: review.reply });
    expect(later).toBeLessThan(first); // created first: priority, not creation, chose the rule
    await recordHistory(autoRespondWorkflowId(reviewId), 'auto-respond-replied');
  });

  it('does nothing for a review no rule matches: no run, no workflow, no reply', async () => {
    const w = await world();
    await addRule(w, { ratings: [5], keywords: ['friendly'] });
    await addRule(w, { ratings: [1, 2], sourceNames: ['Google'] });
    const lowRated = await createReview(w, { rating: 1, message: 'Rude and slow.' });
    const noKeyword = await createReview(w, { rating: 5, message: 'Fast service.' });
    for (const id of [lowRated, noKeyword]) {
      expect(await AutoRespondRun.count({ where: { reviewId: id } })).toBe(0);
      expect(await noWorkflow(id)).toBe(true);
    }
    // A review the first rule matches, created after them, is answered: the ones before it had the same chance.
    const matching = await createReview(w, { rating: 5, message: 'A friendly team.' });
    expect(await outcomeOf(matching)).toEqual({ status: 'replied', reason: null });
    for (const id of [lowRated, noKeyword]) {
      expect(await replyOf(id)).toBeNull();
      expect(await noWorkflow(id)).toBe(true);
    }
  });

  it('never answers a review that arrived while its rule was paused, not even after the rule resumes', async () => {
    const w = await world();
    const ruleId = await addRule(w, { paused: true });
    const reviewId = await createReview(w, { rating: 5 });
    expect(await AutoRespondRun.count({ where: { reviewId } })).toBe(0);
    await gql(w.tokens.orgOwner, `mutation { updateAutoRespondRule(id: ${ruleId}, input: { paused: false }) { paused } }`);
    const next = await createReview(w, { rating: 4, author: 'Grace Hopper' });
    expect(await outcomeOf(next)).toEqual({ status: 'replied', reason: null });
    expect(await replyOf(reviewId)).toBeNull();
    expect(await noWorkflow(reviewId)).toBe(true);
  });

  it('skips a review whose rule was paused, or that got a reply, before the workflow ran (idempotent)', async () => {
    const w = await world();
    const ruleId = await addRule(w);
    const review = await Review.findByPk(await createReview(w, { rating: 5 }));
    await outcomeOf(review!.id);

    // A pending run for a review that has a reply already: the workflow finds it replied and sends nothing.
    const other = await createReview(w, { rating: 1 });
    await Review.update({ reply: 'Answered by hand.' }, { where: { id: other } });
    await AutoRespondRun.create({ tenantId: w.tenant.id, customerId: w.orgOwner.customerId!, reviewId: other, ruleId, status: 'pending' });
    await startAutoRespondWorkflow(other);
    expect(await outcomeOf(other)).toEqual({ status: 'skipped', reason: 'already_replied' });
    expect(await replyOf(other)).toBe('Answered by hand.');

    // A pending run for a review removed on its platform meanwhile: nothing is composed or sent (not a failure).
    const removed = await createReview(w, { rating: 1 });
    await Review.update({ removedAt: new Date() }, { where: { id: removed } });
    await AutoRespondRun.create({ tenantId: w.tenant.id, customerId: w.orgOwner.customerId!, reviewId: removed, ruleId, status: 'pending' });
    await startAutoRespondWorkflow(removed);
    expect(await outcomeOf(removed)).toEqual({ status: 'skipped', reason: 'review_removed' });
    expect(await replyOf(removed)).toBeNull();

    // Starting the finished review again changes nothing.
    const before = await replyOf(review!.id);
    await startAutoRespondWorkflow(review!.id);
    await expect(outcomeOf(review!.id)).resolves.toEqual({ status: 'skipped', reason: 'already_replied' });
    expect(await replyOf(review!.id)).toBe(before);

    // The rule is paused after the review arrived: nothing is sent.
    const third = await createReview(w, { rating: 2 });
    await AutoRespondRun.create({ tenantId: w.tenant.id, customerId: w.orgOwner.customerId!, reviewId: third, ruleId, status: 'pending' });
    await AutoRespondRule.update({ paused: true }, { where: { id: ruleId } });
    await startAutoRespondWorkflow(third);
    expect(await outcomeOf(third)).toEqual({ status: 'skipped', reason: 'rule_paused' });
    expect(await replyOf(third)).toBeNull();
    await recordHistory(autoRespondWorkflowId(third), 'auto-respond-skipped');
  });

  it('applies no rule of an account whose plan lacks auto_respond (rules kept from before a downgrade)', async () => {
    const w = await world();
    await addRule(w);
    await setAutoRespondFeature(w.orgOwner.customerId!, false);
    const reviewId = await createReview(w, { rating: 5 });
    expect(await AutoRespondRun.count({ where: { reviewId } })).toBe(0);
    expect(await noWorkflow(reviewId)).toBe(true);
  });

  it('starts the workflow of a run left pending (Temporal down at the commit) when a worker starts', async () => {
    const w = await world();
    const ruleId = await addRule(w);
    // Stored without its workflow, as when the start after the commit failed.
    const review = await makeReview(await testimonialsOf(w.home), { author: 'Lost Start', rating: 5 });
    await AutoRespondRun.create({ tenantId: w.tenant.id, customerId: w.orgOwner.customerId!, reviewId: review.id, ruleId, status: 'pending' });
    expect(await noWorkflow(review.id)).toBe(true);
    expect(await resumePendingAutoResponses()).toBeGreaterThanOrEqual(1);
    expect(await outcomeOf(review.id)).toEqual({ status: 'replied', reason: null });
    expect(await replyOf(review.id)).toBe(`Thank you, Lost! - ${w.org.name} (Testimonials, 5 stars)`);
  });

  it('the sweep schedule starts a run left pending a minute after it was stored, and leaves one just stored to its own start', async () => {
    const w = await world();
    const ruleId = await addRule(w);
    const lost = await makeReview(await testimonialsOf(w.home), { author: 'Swept Up', rating: 5 });
    const fresh = await makeReview(await testimonialsOf(w.home), { author: 'Just Now', rating: 5 });
    for (const review of [lost, fresh]) {
      await AutoRespondRun.create({ tenantId: w.tenant.id, customerId: w.orgOwner.customerId!, reviewId: review.id, ruleId, status: 'pending' });
    }
    // Stored two minutes ago, its start after the commit never came (the API died right after the commit).
    await AutoRespondRun.update({ createdAt: new Date(Date.now() - 120_000) }, { where: { reviewId: lost.id }, silent: true });
    configureAutoRespond({ sweepEveryMs: 1_000 });
    try {
      expect(await ensureAutoRespondSweep()).toBe('created');
      expect(await outcomeOf(lost.id)).toEqual({ status: 'replied', reason: null });
      expect(await replyOf(lost.id)).toBe(`Thank you, Swept! - ${w.org.name} (Testimonials, 5 stars)`);
      // A few more sweeps: the run stored a moment ago is not theirs (its own start after the commit may still come).
      const sweeps = async () => (await temporal().client.schedule.getHandle(autoRespondSweepScheduleId()).describe()).info.numActionsTaken;
      const taken = await sweeps();
      await waitUntil(async () => (await sweeps()) >= taken + 2, 15_000, 200);
      expect(await noWorkflow(fresh.id)).toBe(true);
      expect((await AutoRespondRun.findOne({ where: { reviewId: fresh.id } }))!.status).toBe('pending');
    } finally {
      await temporal().client.schedule.getHandle(autoRespondSweepScheduleId()).delete();
      configureAutoRespond({ sweepEveryMs: undefined });
    }
  });

  it('publishes the reply of a synced review to Google; the backlog of the first sync is left alone', async () => {
    const w = await world();
    await addRule(w, { ratings: [1, 2, 3, 4, 5], sourceNames: ['google'] });
    const location = apis().google.addLocation(`accounts/7${++seq}/locations/8${seq}`, { title: 'Synced Dental' });
    const integration = await attachSynced(w.home, 'google', location);
    await saveConnection({ integrationId: integration.id, provider: 'google', accessToken: 'auto-token', refreshToken: null, expiresAt: null, scope: null });
    const old = apis().google.addReview(location, { rating: 5, comment: 'From last year.', displayName: 'Old Timer', createTime: new Date('2025-11-01T09:00:00Z') });

    const sync = (n: number) =>
      temporal().client.workflow.execute('syncReviews', {
        workflowId: `test-auto-respond-sync:${integration.id}:${n}:${worker.settings().taskQueue}`,
        taskQueue: worker.settings().taskQueue,
        args: [{ integrationId: integration.id }],
      });
    await sync(1);
    const backlog = (await Review.findOne({ where: { integrationId: integration.id, identifier: old } }))!;
    expect(await AutoRespondRun.count({ where: { reviewId: backlog.id } })).toBe(0);
    expect((await Integration.findByPk(integration.id))!.lastSyncedAt).not.toBeNull();

    const fresh = apis().google.addReview(location, { rating: 2, comment: 'Waited an hour.', displayName: 'Grace Hopper' });
    await sync(2);
    const review = (await Review.findOne({ where: { integrationId: integration.id, identifier: fresh } }))!;
    expect(await outcomeOf(review.id)).toEqual({ status: 'replied', reason: null });
    const expected = `Thank you, Grace! - ${w.org.name} (Google, 2 stars)`;
    expect(apis().google.replies()[fresh]?.comment).toBe(expected);
    expect(apis().google.replies()[old]).toBeUndefined();
    expect(await replyOf(review.id)).toBe(expected);
    const put = apis().google.requests.filter((r) => r.method === 'PUT' && r.path === `/v4/${fresh}/reply`);
    expect(put).toHaveLength(1);
  });

  it('records a platform refusal as a failed run without retrying', async () => {
    const w = await world();
    await addRule(w, { ratings: [5] });
    const location = apis().google.addLocation(`accounts/7${++seq}/locations/8${seq}`, { title: 'Refusing Dental' });
    const integration = await attachSynced(w.home, 'google', location);
    await Integration.update({ lastSyncedAt: new Date() }, { where: { id: integration.id } });
    await saveConnection({ integrationId: integration.id, provider: 'google', accessToken: 'refuse-token', refreshToken: null, expiresAt: null, scope: null });
    apis().google.rejectReplies('Reply contains prohibited content.');
    try {
      const name = apis().google.addReview(location, { rating: 5, comment: 'Great.' });
      await temporal().client.workflow.execute('syncReviews', {
        workflowId: `test-auto-respond-sync:${integration.id}:${worker.settings().taskQueue}`,
        taskQueue: worker.settings().taskQueue,
        args: [{ integrationId: integration.id }],
      });
      const review = (await Review.findOne({ where: { integrationId: integration.id, identifier: name } }))!;
      await expect(outcomeOf(review.id)).rejects.toThrow();
      const run = (await AutoRespondRun.findOne({ where: { reviewId: review.id } }))!;
      expect(run.status).toBe('failed');
      expect(run.reason).toMatch(/Google rejected the reply: Reply contains prohibited content/);
      expect(apis().google.requests.filter((r) => r.method === 'PUT' && r.path === `/v4/${name}/reply`)).toHaveLength(1);
      expect(await replyOf(review.id)).toBeNull();
      await recordHistory(autoRespondWorkflowId(review.id), 'auto-respond-rejected');
    } finally {
      apis().google.rejectReplies(null);
    }
  });

  it('writes AI replies with the chat API when one is configured, and falls back to the template when it fails', async () => {
    const w = await world();
    await addRule(w, { useAi: true, template: null, ratings: [1, 2, 3, 4, 5] });
    process.env.AI_API_URL = chat.url;
    chat.answer(completion('Thank you so much, Ada - we loved having you!'));
    const withAi = await createReview(w, { rating: 5, message: 'Wonderful team.' });
    expect(await outcomeOf(withAi)).toEqual({ status: 'replied', reason: null });
    expect(await replyOf(withAi)).toBe('Thank you so much, Ada - we loved having you!');
    expect(await AutoRespondRun.findOne({ where: { reviewId: withAi } })).toMatchObject({ usedAi: true });
    const request = chat.requests.at(-1)!.body as { messages: Array<{ role: string; content: string }> };
    expect(request.messages[0]).toMatchObject({ role: 'system' });
    expect(request.messages[0].content).toContain(w.org.name);
    expect(JSON.parse(request.messages[1].content)).toEqual({ reviewer_first_name: 'Ada', rating: 5, title: null, text: 'Wonderful team.' });

    chat.answer({ status: 503, body: { error: { message: 'model overloaded', type: 'server_error' } } });
    const failing = await createReview(w, { rating: 1, message: 'Never again.', author: 'Bob Builder' });
    expect(await outcomeOf(failing)).toEqual({ status: 'replied', reason: null });
    expect(await replyOf(failing)).toBe(
      `Thank you for letting us know, Bob. We are sorry your experience with ${w.org.name} fell short; please get in touch with us so we can make it right.`,
    );
    expect(await AutoRespondRun.findOne({ where: { reviewId: failing } })).toMatchObject({ usedAi: false });

    delete process.env.AI_API_URL;
    const calls = chat.requests.length;
    const noProvider = await createReview(w, { rating: 3, author: 'Cy' });
    await outcomeOf(noProvider);
    expect(await replyOf(noProvider)).toBe(
      `Thank you for your feedback, Cy. We appreciate you taking the time to share it and will use it to keep improving at ${w.org.name}.`,
    );
    expect(chat.requests.length).toBe(calls);
  });
});
