import { Contact, ContactActivity, Invite } from '../../src/models';
import { requestInvite } from '../../src/services/invites.service';
import { useDatabase } from '../support/db';
import { makeOrganization, makeOrgOwner, makeTenant } from '../support/factories';
import { makeCampaign } from './factories';

process.env.LOG_LEVEL ??= 'silent';

/**
 * Found by `npm run bench:invites`: simultaneous first requests for *different* new people of one campaign used to
 * deadlock on the gap locks of the contact and invite look-ups (REPEATABLE READ), and the losers answered 500.
 */
describe('requestInvite under concurrency', () => {
  useDatabase();
  // Temporal is not running in this file: the stored invite is what counts (the dispatcher's nudge is best effort).

  it('schedules every one of 40 simultaneous first requests for distinct contacts of one campaign', async () => {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id);
    const org = await makeOrganization(owner);
    const campaign = await makeCampaign(owner, org);

    const settled = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => requestInvite(campaign, { email: `guest-${i}@example.com`, firstName: `Guest ${i}` }, { source: 'api', sendAfterHours: 0 })),
    );
    const failures = settled.flatMap((s) => (s.status === 'rejected' ? [String((s.reason as Error).message)] : []));
    expect(failures).toEqual([]);
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value.outcome : null))).toEqual(Array(40).fill('scheduled'));
    expect(await Contact.count({ where: { contactListId: campaign.contactListId } })).toBe(40);
    expect(await Invite.count({ where: { campaignId: campaign.id, status: 'scheduled' } })).toBe(40);
    expect(await ContactActivity.count({ where: { campaignId: campaign.id, type: 'scheduled' } })).toBe(40);
  });

  it('still gives two simultaneous first requests for the same person one contact and one waiting invite', async () => {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id);
    const org = await makeOrganization(owner);
    const campaign = await makeCampaign(owner, org);

    const results = await Promise.all(
      Array.from({ length: 4 }, () => requestInvite(campaign, { email: 'same@example.com' }, { source: 'api', sendAfterHours: 0 })),
    );
    expect(new Set(results.map((r) => r.contact.uuid)).size).toBe(1);
    expect(results.map((r) => r.outcome).sort()).toEqual(['rescheduled', 'rescheduled', 'rescheduled', 'scheduled']);
    expect(await Contact.count({ where: { contactListId: campaign.contactListId } })).toBe(1);
    expect(await Invite.count({ where: { campaignId: campaign.id, status: 'scheduled' } })).toBe(1);
  });
});
