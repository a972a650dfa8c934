import { AutoRespondRun, Customer, Plan } from '../../src/models';
import type { makeWorld } from '../support/factories';
import type { TestApp } from '../support/app';

/** Gives (or takes away) the `auto_respond` plan feature of the account's plan. */
export async function setAutoRespondFeature(customerId: number, enabled: boolean): Promise<void> {
  const customer = await Customer.findByPk(customerId, { include: [Plan] });
  if (!customer?.plan) throw new Error('account has no plan');
  const others = customer.plan.features.filter((f) => f !== 'auto_respond');
  await customer.plan.update({ features: enabled ? [...others, 'auto_respond'] : others });
}

export interface GqlResult {
  status: number;
  data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any
  errors: { message: string; extensions: { code: string; reason?: string; fields?: Record<string, string[]> } }[] | undefined;
}

export function graphql(t: TestApp) {
  return async (token: string, query: string, variables: Record<string, unknown> = {}): Promise<GqlResult> => {
    const res = await t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query, variables });
    return { status: res.status, data: res.body.data ?? null, errors: res.body.errors };
  };
}

/** The first error's code and reason (`extensions`), for one-line assertions. */
export const errorOf = (r: GqlResult) => ({ code: r.errors?.[0]?.extensions.code, reason: r.errors?.[0]?.extensions.reason });


/**
 * A pending auto-respond run of `reviewId` under a rule "Thank you, {first_name}!" for 4 and 5 stars, created through
 * GraphQL as a user would (what the review-created hook leaves behind).
 */
export async function pendingRun(gql: ReturnType<typeof graphql>, w: Awaited<ReturnType<typeof makeWorld>>, reviewId: number) {
  const created = await gql(w.tokens.orgOwner, 'mutation ($input: CreateAutoRespondRuleInput!) { createAutoRespondRule(input: $input) { id } }', {
    input: { organizationId: w.org.id, name: 'Thanks', ratings: [4, 5], template: 'Thank you, {first_name}!' },
  });
  if (created.errors) throw new Error(`createAutoRespondRule: ${JSON.stringify(created.errors)}`);
  const ruleId = created.data!.createAutoRespondRule.id as number;
  return AutoRespondRun.create({ tenantId: w.tenant.id, customerId: w.orgOwner.customerId!, reviewId, ruleId, status: 'pending' });
}
