import { prepareAutoResponse } from '../../src/jobs/auto-respond-runs';
import { AutoRespondRule, AutoRespondRun } from '../../src/models';
import { useApp } from '../support/app';
import { customSourceOf, makeReview, makeWorld } from '../support/factories';
import { graphql, setAutoRespondFeature } from './support';

/**
 * `prepareAutoResponse` (the workflow's first activity) against the real database: a rule deleted after the run's
 * checks passed, before its reply is composed, ends the run as skipped. Left pending, the 5-minute sweep started the
 * run's workflow again, for good.
 */
describe('auto-respond: preparing a run', () => {
  const t = useApp();
  const gql = graphql(t);

  it('stores the run skipped (rule_deleted) when its rule is deleted between the checks and the reply', async () => {
    const w = await makeWorld();
    await setAutoRespondFeature(w.orgOwner.customerId!, true);
    const review = await makeReview(await customSourceOf(w.home), { author: 'Ada Lovelace', rating: 5 });
    const created = await gql(w.tokens.orgOwner, 'mutation ($input: CreateAutoRespondRuleInput!) { createAutoRespondRule(input: $input) { id } }', {
      input: { organizationId: w.org.id, name: 'Thanks', ratings: [4, 5], template: 'Thank you, {first_name}!' },
    });
    expect(created.errors).toBeUndefined();
    const ruleId = created.data!.createAutoRespondRule.id as number;
    await AutoRespondRun.destroy({ where: { reviewId: review.id } }); // a run the review's own commit may have queued
    const run = await AutoRespondRun.create({ tenantId: w.tenant.id, customerId: w.orgOwner.customerId!, reviewId: review.id, ruleId, status: 'pending' });

    // The rule goes as soon as the checks have read it: the next read of it finds nothing.
    let reads = 0;
    const deleteAfterFirstRead = async () => {
      if (++reads === 1) await AutoRespondRule.destroy({ where: { id: ruleId } });
    };
    AutoRespondRule.addHook('afterFind', 'delete-after-first-read', deleteAfterFirstRead);
    try {
      expect(await prepareAutoResponse(review.id)).toEqual({ action: 'skip', reason: 'rule_deleted' });
    } finally {
      AutoRespondRule.removeHook('afterFind', 'delete-after-first-read');
    }
    expect(reads).toBe(2);
    await run.reload();
    expect([run.status, run.reason, run.ruleId]).toEqual(['skipped', 'rule_deleted', null]);
  });
});
