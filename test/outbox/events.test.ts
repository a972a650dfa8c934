import { Op } from 'sequelize';
import { publicBaseUrl } from '../../src/config';
import { fixedClock } from '../../src/domain/clock';
import { PlanLimit } from '../../src/domain/errors';
import { Location, Organization, OutboxEvent, Review, type User } from '../../src/models';
import { writeEvent } from '../../src/outbox/writer';
import { principalFor } from '../../src/services/auth.service';
import * as locations from '../../src/services/locations.service';
import * as organizations from '../../src/services/organizations.service';
import * as reviews from '../../src/services/reviews.service';
import { useDatabase } from '../support/db';
import { ALL, defaultLocationOf, makeOrgOwner, makeOrganization, makeTenant, makeWorld, testimonialsOf } from '../support/factories';

/** The transactional outbox (ARCHITECTURE rule 6): each change writes its event in its own transaction. */
describe('outbox events written by the services', () => {
  const db = useDatabase();
  const as = (user: User) => principalFor(user, { id: 0, kind: 'customer', permissions: ALL });
  const eventsOf = (tenantId: number) => OutboxEvent.findAll({ where: { tenantId }, order: [['id', 'ASC']] });
  const names = async (tenantId: number, after = 0) =>
    (await OutboxEvent.findAll({ where: { tenantId, id: { [Op.gt]: after } }, order: [['id', 'ASC']] })).map((e) => `${e.event}:${e.aggregateId}`);
  const lastId = async () => Number((await OutboxEvent.max('id')) ?? 0);

  const REVIEW_CREATED_KEYS = [
    'webhook_event', 'id', 'organization_id', 'location_id', 'source_name', 'identifier', 'avatar', 'author', 'rating',
    'original_rating', 'title', 'message', 'url', 'verified', 'replied', 'reply_message', 'reply_url', 'hidden',
    'reply_published_on', 'published_on', 'review_updated_on', 'updated_at', 'created_at', 'meta',
  ];

  it('review-created carries exactly the documented fields, with absolute URLs and ISO timestamps', async () => {
    const w = await makeWorld();
    const source = await testimonialsOf(w.home);
    const at = new Date('2026-11-22T09:30:00.000Z');
    const review = await reviews.create(
      await as(w.orgOwner),
      { author: 'Ada Lovelace', rating: 4, publishedOn: '2026-11-20', organizationId: w.org.id, locationId: w.home.id, source: source.id, title: 'Fine', message: 'Good' },
      { clock: fixedClock(at) },
    );
    const [event] = await OutboxEvent.findAll({ where: { tenantId: w.tenant.id, event: 'review-created' } });
    expect(event).toMatchObject({ customerId: w.org.customerId, aggregateType: 'review', aggregateId: String(review.id), dispatchedAt: null });
    expect(event.occurredAt.toISOString()).toBe(at.toISOString());
    expect(Object.keys(event.payload)).toEqual(REVIEW_CREATED_KEYS);
    const stored = (await Review.findByPk(review.id))!;
    expect(event.payload).toEqual({
      webhook_event: 'review-created',
      id: review.id,
      organization_id: w.org.id,
      location_id: w.home.id,
      source_name: 'Testimonials',
      identifier: String(review.id),
      avatar: `${publicBaseUrl()}/avatars/placeholder.svg?name=Ada%20Lovelace`,
      author: 'Ada Lovelace',
      rating: 4,
      original_rating: 4,
      title: 'Fine',
      message: 'Good',
      url: `${publicBaseUrl()}/api/v1/reviews/${review.id}`,
      verified: false,
      replied: false,
      reply_message: null,
      reply_url: null,
      hidden: false,
      reply_published_on: null,
      published_on: '2026-11-20T00:00:00.000Z',
      review_updated_on: null,
      updated_at: stored.updatedAt.toISOString(),
      created_at: stored.createdAt.toISOString(),
      meta: {},
    });
  });

  it('builds URLs on PUBLIC_URL when it is set', async () => {
    const w = await makeWorld();
    const source = await testimonialsOf(w.home);
    const before = process.env.PUBLIC_URL;
    process.env.PUBLIC_URL = 'https://reviews.agency.example/';
    try {
      await reviews.create(await as(w.orgOwner), { author: 'Bo', rating: 5, publishedOn: '2026-11-20', organizationId: w.org.id, locationId: w.home.id, source: source.id });
    } finally {
      if (before === undefined) delete process.env.PUBLIC_URL;
      else process.env.PUBLIC_URL = before;
    }
    const [event] = await OutboxEvent.findAll({ where: { tenantId: w.tenant.id, event: 'review-created' } });
    expect(event.payload.avatar).toBe('https://reviews.agency.example/avatars/placeholder.svg?name=Bo');
    expect(event.payload.url).toMatch(/^https:\/\/reviews\.agency\.example\/api\/v1\/reviews\/\d+$/);
  });

  it('review-updated has the review-created shape after the change; an update that changes nothing and a delete write none', async () => {
    const w = await makeWorld();
    const source = await testimonialsOf(w.home);
    const p = await as(w.orgOwner);
    const review = await reviews.create(p, { author: 'Ann', rating: 5, publishedOn: '2026-11-20', organizationId: w.org.id, locationId: w.home.id, source: source.id });
    const mark = await lastId();
    await reviews.update(p, review.id, { rating: 2, message: 'Changed my mind' });
    await reviews.update(p, review.id, { rating: 2 });
    await reviews.remove(p, review.id);
    const events = await OutboxEvent.findAll({ where: { tenantId: w.tenant.id, id: { [Op.gt]: mark } } });
    expect(events.map((e) => e.event)).toEqual(['review-updated']);
    expect(Object.keys(events[0].payload)).toEqual(REVIEW_CREATED_KEYS);
    expect(events[0].payload).toMatchObject({ webhook_event: 'review-updated', id: review.id, rating: 2, original_rating: 5, message: 'Changed my mind' });
    expect(events[0].payload.review_updated_on).toBe(events[0].payload.updated_at);
  });

  it('organization-created and location-created for its Default Location; organization-updated on a rename', async () => {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id);
    const p = await as(owner);
    const org = await organizations.create(p, { name: 'Main Street Dental' });
    const home = await defaultLocationOf(org);
    expect(await names(tenant.id)).toEqual([`organization-created:${org.id}`, `location-created:${home.id}`]);
    const [created, locationCreated] = await eventsOf(tenant.id);
    expect(created.customerId).toBe(owner.customerId);
    expect(created.payload).toEqual({
      webhook_event: 'organization-created',
      id: org.id,
      name: 'Main Street Dental',
      default_location_id: home.id,
      logo: null,
      locations: [{ id: home.id, organization_id: org.id, name: 'Default Location', created_at: home.createdAt.toISOString(), updated_at: home.updatedAt.toISOString() }],
      created_at: org.createdAt.toISOString(),
      updated_at: expect.any(String),
    });
    expect(locationCreated.payload).toEqual({
      webhook_event: 'location-created',
      id: home.id,
      organization_id: org.id,
      name: 'Default Location',
      created_at: home.createdAt.toISOString(),
      updated_at: home.updatedAt.toISOString(),
    });

    const mark = await lastId();
    await organizations.update(p, org.id, { name: 'Main Street Dental II' });
    await organizations.update(p, org.id, { name: 'Main Street Dental II' }); // no change, no event
    expect(await names(tenant.id, mark)).toEqual([`organization-updated:${org.id}`]);
    const [updated] = await OutboxEvent.findAll({ where: { tenantId: tenant.id, id: { [Op.gt]: mark } } });
    expect(updated.payload).toMatchObject({ webhook_event: 'organization-updated', name: 'Main Street Dental II', default_location_id: home.id });
  });

  it('location-created, -updated and -deleted; deleting the default location also announces the organisation change', async () => {
    const w = await makeWorld();
    const p = await as(w.orgOwner);
    const mark = await lastId();
    const loc = await locations.create(p, { organizationId: w.org.id, name: 'Annex' });
    await locations.update(p, loc.id, { name: 'Annex East' });
    await locations.update(p, loc.id, { name: 'Annex East' }); // unchanged: no event
    await locations.remove(p, loc.id);
    await locations.remove(p, w.home.id); // the default location: the default moves to the branch
    expect(await names(w.tenant.id, mark)).toEqual([
      `location-created:${loc.id}`,
      `location-updated:${loc.id}`,
      `location-deleted:${loc.id}`,
      `location-deleted:${w.home.id}`,
      `organization-updated:${w.org.id}`,
    ]);
    const events = await OutboxEvent.findAll({ where: { tenantId: w.tenant.id, id: { [Op.gt]: mark } }, order: [['id', 'ASC']] });
    expect(events[1].payload).toMatchObject({ webhook_event: 'location-updated', id: loc.id, name: 'Annex East' });
    expect(events[2].payload).toEqual({ webhook_event: 'location-deleted', id: loc.id, organization_id: w.org.id, name: 'Annex East', deleted_at: expect.stringMatching(/Z$/) });
    expect(events[4].payload).toMatchObject({ default_location_id: w.branch.id, locations: [expect.objectContaining({ id: w.branch.id })] });
  });

  it('deleting an organisation announces each of its locations, then the organisation', async () => {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id);
    const p = await as(owner);
    await makeOrganization(owner); // the account keeps one
    const org = await organizations.create(p, { name: 'Going away' });
    const annex = await locations.create(p, { organizationId: org.id, name: 'Annex' });
    const mark = await lastId();
    const at = new Date('2026-11-22T12:00:00.000Z');
    await organizations.remove(p, org.id, { clock: fixedClock(at) });
    expect(await names(tenant.id, mark)).toEqual([`location-deleted:${org.defaultLocationId}`, `location-deleted:${annex.id}`, `organization-deleted:${org.id}`]);
    const [last] = await OutboxEvent.findAll({ where: { tenantId: tenant.id, event: 'organization-deleted' } });
    expect(last.payload).toEqual({ webhook_event: 'organization-deleted', id: org.id, name: 'Going away', deleted_at: at.toISOString() });
  });

  it("writes a tenant owner's change to a customer's organisation for the customer's account", async () => {
    const w = await makeWorld();
    const mark = await lastId();
    await locations.update(await as(w.owner), w.branch.id, { name: 'Renamed by the agency' });
    const [event] = await OutboxEvent.findAll({ where: { tenantId: w.tenant.id, id: { [Op.gt]: mark } } });
    expect(event.customerId).toBe(w.org.customerId);
    expect(event.customerId).not.toBe(w.owner.customerId);
  });

  it('writes nothing when the transaction rolls back (a failure after the change)', async () => {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id);
    const p = await as(owner);
    await expect(
      db().transaction(async (transaction) => {
        await organizations.create(p, { name: 'Never was' }, { transaction });
        expect((await OutboxEvent.count({ where: { tenantId: tenant.id }, transaction }))).toBe(2); // visible inside
        throw new Error('forced failure');
      }),
    ).rejects.toThrow('forced failure');
    expect(await Organization.count({ where: { tenantId: tenant.id } })).toBe(0);
    expect(await OutboxEvent.count({ where: { tenantId: tenant.id } })).toBe(0);
  });

  it('writes nothing when a rule refuses the change (402 at the plan limit)', async () => {
    const { tenant } = await makeTenant();
    const owner = await makeOrgOwner(tenant.id, { locationLimit: 1 });
    const org = await makeOrganization(owner);
    const mark = await lastId();
    await expect(locations.create(await as(owner), { organizationId: org.id, name: 'One too many' })).rejects.toBeInstanceOf(PlanLimit);
    expect(await names(tenant.id, mark)).toEqual([]);
    expect(await Location.count({ where: { organizationId: org.id } })).toBe(1);
  });

  it('writeEvent puts webhook_event first and records the time of the injected clock', async () => {
    const { tenant } = await makeTenant();
    const at = new Date('2026-01-02T03:04:05.678Z');
    const row = await db().transaction((t) =>
      writeEvent(t, { tenantId: tenant.id, customerId: null, event: 'scan-failed', aggregateType: 'scan', aggregateId: 'x', payload: { webhook_event: 'wrong', uuid: 'x' } }, { clock: fixedClock(at) }),
    );
    const stored = (await OutboxEvent.findByPk(row.id))!;
    expect(Object.keys(stored.payload)).toEqual(['webhook_event', 'uuid']);
    expect(stored.payload.webhook_event).toBe('scan-failed');
    expect(stored.occurredAt.toISOString()).toBe(at.toISOString());
  });
});
