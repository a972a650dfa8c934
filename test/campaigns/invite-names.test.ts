import { Contact, Invite, InboundSubmission } from '../../src/models';
import { useApp } from '../support/app';
import { makeWorld } from '../support/factories';
import { makeConnection } from '../inbound/support';
import { makeCampaign } from './factories';

process.env.LOG_LEVEL ??= 'silent';

/**
 * An invite's first and last name are names like any other (spec: "invite first/last name | max 255 chars"): one line
 * of text. A control character (a NUL, a line break that would start a header line in a mail body, an escape) or a
 * lone UTF-16 surrogate (stored as U+FFFD while the answer echoed something else) is a 422 naming the field, on the
 * single invite and, per entry, on the batch; nothing is stored. An inbound submission's names are cleaned instead.
 */
describe('invite first and last names', () => {
  const t = useApp();
  const invitePath = (uuid: string) => `/api/v1/request-reviews/campaigns/${uuid}/invite`;
  const batchPath = (uuid: string) => `/api/v1/request-reviews/campaigns/${uuid}/invites`;

  async function setup() {
    const w = await makeWorld();
    const campaign = await makeCampaign(w.orgOwner, w.org);
    return { w, campaign };
  }
  const contactsIn = (contactListId: number) => Contact.count({ where: { contactListId } });

  it.each([
    ['first_name', 'a NUL and a mail header line', 'B\u0000\r\nBcc: x@evil.test', 'The first name may not contain control characters.'],
    ['last_name', 'a lone surrogate', 'A\ud800', 'The last name may not contain control characters.'],
    ['first_name', 'a terminal escape', 'Ada\u001b[31m', 'The first name may not contain control characters.'],
    ['last_name', 'a C1 control character', 'Love\u0085lace', 'The last name may not contain control characters.'],
  ])('the single invite answers 422 naming %s for %s, and stores nothing', async (field, _what, value, message) => {
    const { w, campaign } = await setup();
    const res = await t.as(w.tokens.orgOwner).post(invitePath(campaign.uuid)).send({ email: 'ada@example.test', [field]: value });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ [field]: [message] });
    expect(await contactsIn(campaign.contactListId)).toBe(0);
    expect(await Invite.count({ where: { campaignId: campaign.id } })).toBe(0);
  });

  it('the batch answers 422 naming each entry and field (contacts.<i>.<field>), and stores nothing', async () => {
    const { w, campaign } = await setup();
    const res = await t
      .as(w.tokens.orgOwner)
      .post(batchPath(campaign.uuid))
      .send({
        contacts: [
          { email: 'fine@example.test', first_name: 'Grace', last_name: 'Hopper' },
          { email: 'b@example.test', first_name: 'B\u0000\r\nBcc: x@evil.test' },
          { email: 'a@example.test', first_name: 'Ada', last_name: 'A\ud800' },
        ],
      });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      'contacts.1.first_name': ['The first name may not contain control characters.'],
      'contacts.2.last_name': ['The last name may not contain control characters.'],
    });
    expect(await contactsIn(campaign.contactListId)).toBe(0);
  });

  it('still accepts names with inner spaces, accents and paired surrogates, trimmed', async () => {
    const { w, campaign } = await setup();
    const res = await t.as(w.tokens.orgOwner).post(invitePath(campaign.uuid)).send({ email: 'zoe@example.test', first_name: '  Zoë 😀 ', last_name: 'de la Cruz\n' });
    expect(res.status).toBe(202);
    expect(await Contact.findOne({ where: { uuid: res.body.id } })).toMatchObject({ firstName: 'Zoë 😀', lastName: 'de la Cruz' });
  });

  it("an inbound submission's names are cleaned of such characters, not refused", async () => {
    const { w, campaign } = await setup();
    const { path } = await makeConnection(w.orgOwner, campaign, { mapping: { email: 'email', firstName: 'first', lastName: 'last' } });
    const res = await t
      .http()
      .post(path)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ email: 'inbound@example.test', first: 'Ada\u0000\r\nBcc: x@evil.test', last: 'Love\ud800lace' }));
    expect(res.status).toBeLessThan(300);
    const submission = await InboundSubmission.findOne({ where: { customerId: campaign.customerId } });
    expect(submission?.outcome).toBe('accepted');
    expect(await Contact.findOne({ where: { contactListId: campaign.contactListId } })).toMatchObject({ firstName: 'Ada Bcc: x@evil.test', lastName: 'Love lace' });
  });
});
