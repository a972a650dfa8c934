import { randomUUID } from 'node:crypto';
import { sendInviteStep } from '../../src/messaging/delivery';
import { Scan, Tenant, TenantDomain } from '../../src/models';
import { forgetLinkDomains, MAX_LINK_BASE_CHARS, setLinkDomain, tenantLinkBase } from '../../src/services/link-domain.service';
import { createTenant } from '../../src/services/admin.service';
import { useApp } from '../support/app';
import { makeWorld, tokenFor } from '../support/factories';
import { recordingSender } from '../support/recording-sender';
import { giveCredits, makeCampaign, makeContact, makeInvite } from '../invites/fixtures';

/**
 * The agency's link domain (`reviewgrid tenant:link-domain`): the links its customers and their customers get are on
 * the agency's own domain, and the pages answer there; without one, on PUBLIC_URL as before.
 */
describe("the agency's link domain", () => {
  const t = useApp();
  const saved = process.env.PUBLIC_URL;
  beforeAll(() => {
    process.env.PUBLIC_URL = 'https://app.platform.test';
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = saved;
  });
  afterEach(() => forgetLinkDomains());

  const domainOf = async (tenantId: number) => (await TenantDomain.findOne({ where: { tenantId }, order: [['id', 'ASC']] }))!.domain;

  async function sendOne(w: Awaited<ReturnType<typeof makeWorld>>) {
    const campaign = await makeCampaign(w);
    const invite = await makeInvite(campaign, await makeContact(campaign), new Date(Date.now() - 1_000));
    const r = recordingSender();
    expect(await sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true }, { senderFor: r.senderFor })).toMatchObject({ outcome: 'sent' });
    expect(r.sent).toHaveLength(1);
    return { invite, message: r.sent[0] };
  }

  it('puts review-request links on the link domain (text, HTML, List-Unsubscribe) and keeps the Message-ID on PUBLIC_URL', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 3);
    const domain = await domainOf(w.tenant.id);

    const before = await sendOne(w);
    expect(before.message.body).toContain(`https://app.platform.test/r/${before.invite.uuid}`);

    await setLinkDomain(w.tenant.id, domain.toUpperCase());
    const { invite, message } = await sendOne(w);
    const review = `https://${domain}/r/${invite.uuid}`;
    expect(message.body).toContain(review);
    expect(message.html).toContain(review);
    expect(message.body).toMatch(new RegExp(`https://${domain.replace(/\./g, '\\.')}/u/[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{22}`));
    expect(message.headers?.['List-Unsubscribe']).toMatch(new RegExp(`^<https://${domain.replace(/\./g, '\\.')}/u/`));
    expect(message.body).not.toContain('app.platform.test');
    expect(message.messageId).toMatch(/@app\.platform\.test>$/);

    // The page behind the link answers on that host, in the agency's brand.
    const page = await t.http().get(`/r/${invite.uuid}`).set('Host', domain);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/html/);

    // Back on PUBLIC_URL.
    await setLinkDomain(w.tenant.id, null);
    const after = await sendOne(w);
    expect(after.message.body).toContain(`https://app.platform.test/r/${after.invite.uuid}`);
  });

  it('puts connect links and scan report links on the link domain', async () => {
    const w = await makeWorld();
    const domain = await domainOf(w.tenant.id);
    await setLinkDomain(w.tenant.id, domain);
    const agency = await tokenFor(w.owner, [], 'agency');

    const link = await t.http().post('/api/agency/v1/connect-links').set('Authorization', `Bearer ${agency}`).send({ provider: 'google', location_id: w.home.id });
    expect(link.status).toBe(201);
    expect(link.body.data.connect_url).toBe(`https://${domain}/connect/${link.body.data.token}`);
    const page = await t.http().get(`/connect/${link.body.data.token}`).set('Host', domain);
    expect(page.status).toBe(200);

    const scan = await Scan.create({
      tenantId: w.tenant.id,
      ownerCustomerId: null,
      uuid: randomUUID(),
      location: 'Corner Clinic',
      keywords: ['dentist'],
      gridSize: 3,
      distance: 1,
      distanceUnit: 'km',
      lat: 40.7,
      lng: -74,
    } as never);
    const detail = await t.http().get(`/api/agency/v1/scans/${scan.uuid}`).set('Authorization', `Bearer ${agency}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data.report_url).toBe(`https://${domain}/reports/scans/${scan.uuid}`);
  });

  it("refuses a domain that is not the agency's, and one whose links are too long for an SMS", async () => {
    const w = await makeWorld();
    const other = await makeWorld();
    const foreign = await domainOf(other.tenant.id);
    await expect(setLinkDomain(w.tenant.id, foreign)).rejects.toMatchObject({ code: 'VALIDATION', fields: { domain: [expect.stringContaining('is not a domain of this agency')] } });

    const uniq = () => randomUUID().slice(0, 8);
    // One character over: `https://` and 45 (8 of them this run's own, so the domain is new in a reused database).
    const long = `${uniq()}${'l'.repeat(MAX_LINK_BASE_CHARS - 'https://'.length - 4 - 8)}.test`;
    const { tenant } = await createTenant({ name: `Long ${uniq()}`, domains: [long], ownerEmail: `long-${uniq()}@agency.test`, ownerName: 'Owner' });
    await expect(setLinkDomain(tenant.id, long)).rejects.toMatchObject({ code: 'VALIDATION', fields: { domain: [expect.stringContaining('SMS review requests allow 52')] } });
    expect((await Tenant.findByPk(tenant.id))!.linkDomain).toBeNull();
    expect(await tenantLinkBase(tenant.id)).toBe('https://app.platform.test');
  });
});
