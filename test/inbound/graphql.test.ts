import { publicBaseUrl } from '../../src/config';
import { decryptSecret } from '../../src/crypto/secrets';
import { InboundConnection, TenantDomain } from '../../src/models';
import { inboundBaseFor } from '../../src/services/inbound.service';
import { linkBaseOf } from '../../src/services/link-domain.service';
import { useDatabase } from '../support/db';
import { makeWorld, tokenFor, without } from '../support/factories';
import { makeCampaign, useInboundApp } from './support';

/** Managing inbound connections through GraphQL (docs/decisions/review-requests.md, "Inbound contact webhook"). */
describe('GraphQL inbound connections', () => {
  useDatabase();
  const t = useInboundApp();

  const FIELDS = 'id campaignId name endpointUrl signed mapping { firstName lastName fullName email phone anchorDate } timing { mode delayMinutes time timezone } createdAt';
  const CREATE = `mutation($input: CreateInboundConnectionInput!) { createInboundConnection(input: $input) { ${FIELDS} } }`;

  async function world() {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.org, w.home);
    return { ...w, campaign };
  }

  const create = (token: string, input: Record<string, unknown>) => t.gql(token, CREATE, { input });

  it("creates a connection whose endpoint URL is on the tenant's white-label domain", async () => {
    const w = await world();
    const res = await create(w.tokens.orgOwner, {
      campaignId: w.campaign.uuid,
      name: 'Booking system',
      mapping: { email: 'customer[email]', fullName: 'customer.name', anchorDate: 'appointment.at' },
      timing: { mode: 'delay', delayMinutes: 60 },
    });
    expect(res.body.errors).toBeUndefined();
    const c = res.body.data.createInboundConnection;
    const domain = (await TenantDomain.findOne({ where: { tenantId: w.tenant.id } }))!.domain;
    const base = new URL(publicBaseUrl());
    base.hostname = domain;
    expect(c.endpointUrl).toMatch(new RegExp(`^${base.origin.replace(/[.]/g, '\\.')}/api/webhooks/inbound/[0-9a-f]{64}$`));
    expect(c).toMatchObject({
      campaignId: w.campaign.uuid,
      name: 'Booking system',
      signed: false,
      mapping: { email: 'customer.email', fullName: 'customer.name', anchorDate: 'appointment.at', firstName: null, lastName: null, phone: null },
      timing: { mode: 'delay', delayMinutes: 60, time: null, timezone: null },
    });

    // Without a domain the URL is on PUBLIC_URL.
    await TenantDomain.destroy({ where: { tenantId: w.tenant.id } });
    const again = await t.gql(w.tokens.orgOwner, `{ inboundConnection(id: "${c.id}") { endpointUrl } }`);
    expect(again.body.data.inboundConnection.endpointUrl).toBe(`${publicBaseUrl()}/api/webhooks/inbound/${c.endpointUrl.split('/').pop()}`);
  });

  it('keeps the path of a PUBLIC_URL served under one (behind a proxy) on the white-label domain, as the links do', async () => {
    const w = await world();
    const domain = (await TenantDomain.findOne({ where: { tenantId: w.tenant.id }, order: [['id', 'ASC']] }))!.domain;
    const saved = process.env.PUBLIC_URL;
    process.env.PUBLIC_URL = 'https://x.example/reviews';
    try {
      const res = await create(w.tokens.orgOwner, { campaignId: w.campaign.uuid, name: 'Behind a proxy', mapping: { email: 'email' } });
      expect(res.body.errors).toBeUndefined();
      const url: string = res.body.data.createInboundConnection.endpointUrl;
      expect(url).toMatch(new RegExp(`^https://${domain.replace(/[.]/g, '\\.')}/reviews/api/webhooks/inbound/[0-9a-f]{64}$`));
      expect(url.startsWith(`${linkBaseOf(domain)}/api/webhooks/inbound/`)).toBe(true);
      // Without a domain, PUBLIC_URL as it is, path and all.
      await TenantDomain.destroy({ where: { tenantId: w.tenant.id } });
      expect(await inboundBaseFor(w.tenant.id)).toBe('https://x.example/reviews');
    } finally {
      if (saved === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = saved;
    }
  });

  it('accepts delays of 15 minutes to 7 days only, and checks the next-morning time and zone', async () => {
    const w = await world();
    const attempt = (timing: Record<string, unknown>) =>
      create(w.tokens.orgOwner, { campaignId: w.campaign.uuid, name: 'Form', mapping: { email: 'email' }, timing });
    for (const minutes of [15, 10080]) expect((await attempt({ mode: 'delay', delayMinutes: minutes })).body.errors).toBeUndefined();
    // A delay may name the zone its anchor dates without an offset are in.
    const zoned = await attempt({ mode: 'delay', delayMinutes: 60, timezone: 'America/New_York' });
    expect(zoned.body.data.createInboundConnection.timing).toEqual({ mode: 'delay', delayMinutes: 60, time: null, timezone: 'America/New_York' });
    expect((await attempt({ mode: 'delay', delayMinutes: 60, timezone: 'Nowhere/City' })).body.errors[0].extensions.fields).toEqual({
      'timing.timezone': [expect.any(String)],
    });
    for (const minutes of [14, 10081, 0]) {
      const res = await attempt({ mode: 'delay', delayMinutes: minutes });
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'VALIDATION', fields: { 'timing.delay_minutes': [expect.stringContaining('between 15 and 10080')] } });
    }
    const morning = await attempt({ mode: 'next_morning', time: '08:30', timezone: 'Europe/London' });
    expect(morning.body.data.createInboundConnection.timing).toEqual({ mode: 'next_morning', delayMinutes: null, time: '08:30', timezone: 'Europe/London' });
    const bad = await attempt({ mode: 'next_morning', time: '25:00', timezone: 'Nowhere/City' });
    expect(Object.keys(bad.body.errors[0].extensions.fields).sort()).toEqual(['timing.time', 'timing.timezone']);
    const unmapped = await create(w.tokens.orgOwner, { campaignId: w.campaign.uuid, name: 'Form', mapping: { fullName: 'name' } });
    expect(unmapped.body.errors[0].extensions.fields).toEqual({ mapping: ['Map at least the email or the phone field.'] });
  });

  it('updates, regenerates the token (old URL dead at once), sets and clears the secret, lists submissions, deletes', async () => {
    const w = await world();
    const created = (await create(w.tokens.orgOwner, { campaignId: w.campaign.uuid, name: 'Zap', mapping: { email: 'email' } })).body.data.createInboundConnection;
    expect(created.timing).toEqual({ mode: 'immediate', delayMinutes: null, time: null, timezone: null });

    const updated = await t.gql(
      w.tokens.orgOwner,
      `mutation($id: String!) { updateInboundConnection(id: $id, input: { name: "Zapier", mapping: { phone: "contact.phone" } }) { name mapping { email phone } } }`,
      { id: created.id },
    );
    expect(updated.body.data.updateInboundConnection).toEqual({ name: 'Zapier', mapping: { email: null, phone: 'contact.phone' } });

    const oldPath = new URL(created.endpointUrl).pathname;
    const regenerated = (await t.gql(w.tokens.orgOwner, `mutation { regenerateInboundToken(id: "${created.id}") { endpointUrl } }`)).body.data.regenerateInboundToken;
    const newPath = new URL(regenerated.endpointUrl).pathname;
    expect(newPath).not.toBe(oldPath);
    expect((await t.http().post(oldPath).send({ contact: { phone: '+14155552671' } })).status).toBe(404);
    expect((await t.http().post(newPath).send({ contact: { phone: '+14155552671' } })).status).toBe(202);

    const secretRes = await t.gql(w.tokens.orgOwner, `mutation { setInboundSigningSecret(id: "${created.id}") { secret connection { signed } } }`);
    const { secret, connection } = secretRes.body.data.setInboundSigningSecret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(connection.signed).toBe(true);
    const stored = await InboundConnection.findOne({ where: { uuid: created.id } });
    expect(decryptSecret(stored!.signingSecretEncrypted!)).toBe(secret);
    const read = await t.gql(w.tokens.orgOwner, `{ inboundConnection(id: "${created.id}") { ${FIELDS} } }`);
    expect(JSON.stringify(read.body)).not.toContain(secret);
    expect((await t.http().post(newPath).send({ contact: { phone: '+14155552672' } })).status).toBe(401);
    const own = await t.gql(w.tokens.orgOwner, `mutation { setInboundSigningSecret(id: "${created.id}", secret: "short") { secret } }`);
    expect(own.body.errors[0].extensions.fields.secret).toBeDefined();
    const cleared = await t.gql(w.tokens.orgOwner, `mutation { clearInboundSigningSecret(id: "${created.id}") { signed } }`);
    expect(cleared.body.data.clearInboundSigningSecret.signed).toBe(false);
    await t.http().post(newPath).send({ nothing: true });

    const subs = await t.gql(
      w.tokens.orgOwner,
      `{ inboundSubmissions(connectionId: "${created.id}") { total items { id outcome reason contactId sendAt receivedAt } } }`,
    );
    const page = subs.body.data.inboundSubmissions;
    expect(page.total).toBe(2);
    expect(page.items.map((s: { outcome: string }) => s.outcome)).toEqual(['skipped', 'accepted']);
    expect(page.items[1]).toMatchObject({ contactId: expect.stringMatching(/^[0-9a-f-]{36}$/), sendAt: expect.any(String) });

    const list = await t.gql(w.tokens.orgOwner, `{ inboundConnections(campaignId: "${w.campaign.uuid}") { total items { id } } }`);
    expect(list.body.data.inboundConnections).toEqual({ total: 1, items: [{ id: created.id }] });

    const deleted = await t.gql(w.tokens.orgOwner, `mutation { deleteInboundConnection(id: "${created.id}") { id message } }`);
    expect(deleted.body.data.deleteInboundConnection).toEqual({ id: created.id, message: 'Inbound connection deleted successfully.' });
    expect((await t.http().post(newPath).send({ contact: { phone: '+14155552673' } })).status).toBe(404);
  });

  it('is for account owners: team members are FORBIDDEN, other accounts NOT_FOUND, and writes need request:create', async () => {
    const w = await world();
    const input = { campaignId: w.campaign.uuid, name: 'Form', mapping: { email: 'email' } };
    expect((await create(w.tokens.member, input)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    const narrow = await tokenFor(w.orgOwner, without('request:create'));
    expect((await create(narrow, input)).body.errors[0].extensions).toMatchObject({ code: 'FORBIDDEN', reason: 'missing_permission' });

    const other = await world();
    expect((await create(other.tokens.orgOwner, input)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    // The agency (tenant owner) manages its customers' connections.
    const byAgency = await create(w.tokens.owner, input);
    expect(byAgency.body.errors).toBeUndefined();
    const id = byAgency.body.data.createInboundConnection.id;
    expect((await t.gql(other.tokens.orgOwner, `{ inboundConnection(id: "${id}") { id } }`)).body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await t.gql(w.tokens.orgOwner, `{ inboundConnection(id: "${id}") { id } }`)).body.data.inboundConnection.id).toBe(id);
    expect((await t.gql(w.tokens.orgOwner, '{ inboundConnection(id: "nope") { id } }')).body.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});
