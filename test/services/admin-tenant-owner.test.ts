import { User } from '../../src/models';
import { createUser } from '../../src/services/admin.service';
import { listCustomers } from '../../src/services/agency.service';
import { principalFor } from '../../src/services/auth.service';
import { useDatabase } from '../support/db';
import { makeOrganization, makeOrgOwner, makeTenant } from '../support/factories';

/**
 * A tenant owner (`createUser`, reached by `reviewgrid user:create --role tenant_owner`) belongs to the agency's own
 * account. Given an organisation, it used to join that organisation's account: the customer's account became an
 * agency account (its receivers got every account's events, src/jobs/webhook-delivery.ts) and the customer left the
 * agency's customer list (src/services/agency.service.ts, ownAccountIds).
 */
describe('createUser: a tenant owner joins the agency, never a customer account', () => {
  useDatabase();

  async function agencyWithCustomer() {
    const { tenant, owner, ownerAccount } = await makeTenant();
    const customerOwner = await makeOrgOwner(tenant.id);
    const org = await makeOrganization(customerOwner);
    const agency = await principalFor(owner, { id: 0, kind: 'agency', permissions: [] });
    return { tenant, owner, ownerAccount, customerOwner, org, agency };
  }
  const customerIds = async (agency: Awaited<ReturnType<typeof agencyWithCustomer>>['agency']) =>
    (await listCustomers(agency, { page: 1, perPage: 100 })).items.map((c) => c.id);

  it("refuses an organisation for a tenant owner (VALIDATION on organization), creating no user; the customer stays the agency's customer", async () => {
    const w = await agencyWithCustomer();
    expect(await customerIds(w.agency)).toEqual([w.org.customerId]);
    const email = `second-owner-${w.tenant.id}@agency.test`;
    await expect(createUser({ tenantId: w.tenant.id, email, name: 'Second Owner', role: 'tenant_owner', organizationId: w.org.id })).rejects.toMatchObject({
      code: 'VALIDATION',
      fields: { organization: ["A tenant owner belongs to the agency's own account: an organization is for organization owners and team members only."] },
    });
    expect(await User.count({ where: { tenantId: w.tenant.id, email } })).toBe(0);
    expect(await customerIds(w.agency)).toEqual([w.org.customerId]);
  });

  it("puts a second tenant owner in the agency's own account (the first owner's)", async () => {
    const w = await agencyWithCustomer();
    const second = await createUser({ tenantId: w.tenant.id, email: `ops-${w.tenant.id}@agency.test`, name: 'Ops', role: 'tenant_owner' });
    expect([second.role, second.customerId]).toEqual(['tenant_owner', w.ownerAccount.id]);
    expect(w.owner.customerId).toBe(w.ownerAccount.id);
    expect(await customerIds(w.agency)).toEqual([w.org.customerId]);
  });

  it('still lets an organisation owner join an organisation and a team member need one', async () => {
    const w = await agencyWithCustomer();
    const coOwner = await createUser({ tenantId: w.tenant.id, email: `co-${w.tenant.id}@customer.test`, name: 'Co', role: 'organization_owner', organizationId: w.org.id });
    expect(coOwner.customerId).toBe(w.org.customerId);
    await expect(createUser({ tenantId: w.tenant.id, email: `m-${w.tenant.id}@customer.test`, name: 'M', role: 'team_member' })).rejects.toMatchObject({
      fields: { organization: ['A team member needs an organization.'] },
    });
  });
});
