import { agencyTokenFor, makeTenant } from './factories';

/**
 * What the tests of POST /api/agency/v1/customers share (test/facades/agency/customers.test.ts,
 * customer-names.test.ts): a new agency with its plan and agency token, and a valid request body.
 */
export async function agencyWorld() {
  const { tenant, owner, plan, ownerAccount } = await makeTenant();
  return { tenant, owner, plan, ownerAccount, token: await agencyTokenFor(owner) };
}

/** A valid new customer on plan `planId` (a fresh email each time), with `extra` fields over it. */
export const newCustomerBody = (planId: number, extra: Record<string, unknown> = {}) => ({
  name: 'Dana Dentist',
  company: 'Bright Smiles Dental',
  email: `dana-${Math.random().toString(36).slice(2, 10)}@brightsmiles.test`,
  password: 'correct horse',
  custom_plan_id: String(planId),
  ...extra,
});
