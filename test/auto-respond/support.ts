import { Customer, Plan } from '../../src/models';
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

