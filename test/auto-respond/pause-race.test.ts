import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { QueryTypes } from 'sequelize';
import { publishAutoResponse } from '../../src/jobs/auto-respond-runs';
import { AutoRespondRule, AutoRespondRun, Review } from '../../src/models';
import { GoogleBusinessClient } from '../../src/providers/google/business.client';
import { GoogleBusinessSimulator } from '../../src/providers/google/business.simulator';
import { attachSynced } from '../../src/services/integrations.service';
import { saveConnection } from '../../src/services/provider-connections.service';
import { useApp } from '../support/app';
import { makeReview, makeWorld } from '../support/factories';
import { waitUntil } from '../support/wait';
import { graphql, setAutoRespondFeature } from './support';

const LOCK_POLL_MS = 200;
const UPDATE = 'mutation ($id: Int!, $input: UpdateAutoRespondRuleInput!) { updateAutoRespondRule(id: $id, input: $input) { id paused } }';

/**
 * A rule paused (or deleted) while its reply is being published. The publish checks the rule in a short transaction
 * (under a shared lock, so a pause being stored is waited for and seen) and again right before the platform call, and
 * holds no lock of the rule or the run while Google answers: a pause or deletion sent while the reply is on its way
 * answers at once (not after Google, nor with a lock-wait timeout when Google is slow); the reply already handed to
 * Google is published and recorded, and every publish that checks after the pause skips. Deterministic: the loopback
 * Google server holds the reply PUT until the test releases it, and the test waits for the other transaction to be
 * blocked on the lock (InnoDB's LOCK WAIT state), not for time to pass.
 */
describe('auto-respond: a rule paused while its reply is published', () => {
  const t = useApp();
  const gql = graphql(t);
  const google = new GoogleBusinessSimulator({ seed: false, growEveryMs: null });
  let server: Server;
  let googleUrl: string;
  let seq = 0;
  // The next reply PUT waits, after it reached Google, until released.
  let hold: { arrived: () => void; released: Promise<void> } | null = null;

  beforeAll(async () => {
    const app = express();
    app.use('/google', (req, _res, next) => {
      const held = hold;
      if (held && req.method === 'PUT') {
        hold = null;
        held.arrived();
        void held.released.then(() => next());
        return;
      }
      next();
    });
    app.use('/google', google.router);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    googleUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/google`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  function holdNextPut() {
    let arrived!: () => void;
    let release!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    hold = { arrived, released };
    return { reached, release };
  }

  const platformClient = () => new GoogleBusinessClient({ baseUrl: googleUrl });
  const puts = (name: string) => google.requests.filter((r) => r.method === 'PUT' && r.path === `/v4/${name}/reply`).length;

  /**
   * Whether a transaction of this worker's database waits for a lock, in a statement on the rule (reading, deleting it).
   * InnoDB refreshes what INNODB_TRX shows only when it was not read for 100 ms, so it is polled less often than that.
   */
  const waitsForRule = async (ruleId: number): Promise<boolean> => {
    const rows = await t.db().query<{ q: string | null }>(
      `SELECT x.trx_query AS q FROM information_schema.INNODB_TRX x JOIN information_schema.PROCESSLIST p ON p.ID = x.trx_mysql_thread_id
        WHERE x.trx_state = 'LOCK WAIT' AND p.DB = DATABASE()`,
      { type: QueryTypes.SELECT },
    );
    return rows.some((r) => r.q !== null && r.q.includes('FROM `auto_respond_rules`') && new RegExp(`\`id\` = ${ruleId}\\b`).test(r.q));
  };

  async function pendingGoogleRun() {
    const w = await makeWorld();
    await setAutoRespondFeature(w.orgOwner.customerId!, true);
    const location = google.addLocation(`accounts/71${++seq}/locations/72${seq}`, { title: 'Race Dental' });
    const integration = await attachSynced(w.home, 'google', location);
    await saveConnection({ integrationId: integration.id, provider: 'google', accessToken: 'race-token', refreshToken: null, expiresAt: null, scope: null });
    const name = google.addReview(location, { rating: 5, comment: 'Great.', displayName: 'Ada Lovelace' });
    const review = await makeReview(integration, { identifier: name, author: 'Ada Lovelace', rating: 5 });
    const created = await gql(w.tokens.orgOwner, 'mutation ($input: CreateAutoRespondRuleInput!) { createAutoRespondRule(input: $input) { id } }', {
      input: { organizationId: w.org.id, name: 'Thanks', ratings: [5], template: 'Thank you, {first_name}!' },
    });
    expect(created.errors).toBeUndefined();
    const ruleId = created.data!.createAutoRespondRule.id as number;
    await AutoRespondRun.create({ tenantId: w.tenant.id, customerId: w.orgOwner.customerId!, reviewId: review.id, ruleId, status: 'pending' });
    return { w, name, review, ruleId, location, integration, input: { reviewId: review.id, message: 'Thank you, Ada!', usedAi: false } };
  }

  it('a pause sent while the reply is on its way to Google answers at once; that reply is recorded, later ones of the rule are skipped', async () => {
    const { w, name, review, ruleId, input, location, integration } = await pendingGoogleRun();
    const { reached, release } = holdNextPut();
    let settled = false;
    const publishing = publishAutoResponse(input, { platformClient }).finally(() => (settled = true));
    await reached; // the publish has checked the rule and waits for Google's answer

    let paused = false;
    const pausing = gql(w.tokens.orgOwner, UPDATE, { id: ruleId, input: { paused: true } }).finally(() => (paused = true));
    // Either the pause answers while Google still holds the reply, or (the bug) it is blocked on the rule's lock.
    await waitUntil(async () => paused || (await waitsForRule(ruleId)), 30_000, LOCK_POLL_MS);
    expect(paused).toBe(true);
    expect(settled).toBe(false);
    const res = await pausing;
    expect(res.errors).toBeUndefined();
    expect(res.data!.updateAutoRespondRule).toEqual({ id: ruleId, paused: true });

    // A reply of the rule that checks after the pause sends nothing.
    const laterName = google.addReview(location, { rating: 5, comment: 'Also great.', displayName: 'Grace Hopper' });
    const later = await makeReview(integration, { identifier: laterName, author: 'Grace Hopper', rating: 5 });
    await AutoRespondRun.create({ tenantId: w.tenant.id, customerId: w.orgOwner.customerId!, reviewId: later.id, ruleId, status: 'pending' });
    expect(await publishAutoResponse({ reviewId: later.id, message: 'Thank you, Grace!', usedAi: false }, { platformClient })).toEqual({
      status: 'skipped',
      reason: 'rule_paused',
    });
    expect(puts(laterName)).toBe(0);

    // The reply handed to Google before the pause goes out and is recorded.
    release();
    expect(await publishing).toEqual({ status: 'replied', reason: null });
    expect(google.replies()[name].comment).toBe('Thank you, Ada!');
    expect((await Review.findByPk(review.id))!.reply).toBe('Thank you, Ada!');
    expect(await AutoRespondRun.findOne({ where: { reviewId: review.id } })).toMatchObject({ status: 'replied', ruleId });
    expect((await Review.findByPk(later.id))!.reply).toBeNull();
    expect(google.replies()[laterName]).toBeUndefined();
  });

  it('a publish that starts while a pause is being stored waits for it, sees the rule paused and sends nothing', async () => {
    const { name, review, ruleId, input } = await pendingGoogleRun();
    let published = false;
    let publishing: Promise<unknown> | null = null;
    await t.db().transaction(async (transaction) => {
      // The pause, as updateRule does it: the rule locked and changed, not committed yet.
      const rule = (await AutoRespondRule.findByPk(ruleId, { transaction, lock: transaction.LOCK.UPDATE }))!;
      await rule.update({ paused: true }, { transaction });
      publishing = publishAutoResponse(input, { platformClient }).finally(() => (published = true));
      // Either the publish is blocked on the rule's lock, or (the bug) it reaches Google before the pause commits.
      await waitUntil(async () => published || puts(name) > 0 || (await waitsForRule(ruleId)), 30_000, LOCK_POLL_MS);
      expect(puts(name)).toBe(0);
      expect(published).toBe(false);
    });
    expect(await publishing).toEqual({ status: 'skipped', reason: 'rule_paused' });
    expect(puts(name)).toBe(0);
    expect(google.replies()[name]).toBeUndefined();
    expect((await Review.findByPk(review.id))!.reply).toBeNull();
    expect(await AutoRespondRun.findOne({ where: { reviewId: review.id } })).toMatchObject({ status: 'skipped', reason: 'rule_paused' });
  });

  it('a rule deleted while its reply is on its way is deleted at once, without a deadlock; the reply is recorded without its rule', async () => {
    const { w, name, review, ruleId, input } = await pendingGoogleRun();
    const { reached, release } = holdNextPut();
    let settled = false;
    const publishing = publishAutoResponse(input, { platformClient }).finally(() => (settled = true));
    await reached;

    let deleted = false;
    const deleting = gql(w.tokens.orgOwner, `mutation { deleteAutoRespondRule(id: ${ruleId}) { id } }`).finally(() => (deleted = true));
    // Either the deletion answers while Google still holds the reply, or (the bug) it waits for the publish's locks.
    await waitUntil(async () => deleted || (await waitsForRule(ruleId)), 30_000, LOCK_POLL_MS);
    expect(deleted).toBe(true);
    expect(settled).toBe(false);
    expect((await deleting).errors).toBeUndefined();
    expect(await AutoRespondRule.findByPk(ruleId)).toBeNull();

    release();
    expect(await publishing).toEqual({ status: 'replied', reason: null });
    expect(google.replies()[name].comment).toBe('Thank you, Ada!');
    expect(await AutoRespondRun.findOne({ where: { reviewId: review.id } })).toMatchObject({ status: 'replied', ruleId: null });
  });
});
