import { createHmac, randomUUID } from 'node:crypto';
import type { Express } from 'express';
import Redis from 'ioredis';
import pino from 'pino';
import request from 'supertest';
import type { Clock } from '../../src/domain/clock';
import { getSchema } from '../../src/graphql/schema';
import { createApp } from '../../src/http/app';
import { Campaign, Contact, ContactList, Invite, type Location, type Organization, type User } from '../../src/models';
import { principalFor } from '../../src/services/auth.service';
import * as inbound from '../../src/services/inbound.service';
import { ALL } from '../support/factories';

/** Test data and helpers shared by the inbound webhook and private feedback tests. */

export async function ownerPrincipal(user: User) {
  return principalFor(user, { id: 0, kind: 'customer', permissions: ALL });
}

/** A campaign of `org` at `location` with its own contact list; any window (null) unless overridden. */
export async function makeCampaign(org: Organization, location: Location, overrides: Partial<Campaign> = {}): Promise<Campaign> {
  const list = await ContactList.create({ uuid: randomUUID(), tenantId: org.tenantId, customerId: org.customerId, organizationId: org.id, name: 'Customers' });
  return Campaign.create({
    uuid: randomUUID(),
    tenantId: org.tenantId,
    customerId: org.customerId,
    organizationId: org.id,
    locationId: location.id,
    contactListId: list.id,
    name: 'After the visit',
    sendWindowStart: null,
    sendWindowEnd: null,
    sendAfterHours: 0,
    duplicateWindowDays: 14,
    steps: [{ channel: 'email', delayHours: 0, subject: 'How did we do?', body: 'Hi {first_name}, {review_link}' }],
    reviewUrl: null,
    feedbackThreshold: 3,
    pausedAt: null,
    ...overrides,
  });
}

/** A connection made through the service as `owner`; answers the view and its endpoint token. */
export async function makeConnection(owner: User, campaign: Campaign, input: Partial<inbound.CreateConnectionInput> = {}) {
  const view = await inbound.createConnection(await ownerPrincipal(owner), {
    campaignId: campaign.uuid,
    name: 'Booking system',
    mapping: { email: 'email', phone: 'phone', fullName: 'name' },
    timing: { mode: 'immediate' },
    ...input,
  });
  return { view, token: view.endpointUrl.split('/').pop()!, path: new URL(view.endpointUrl).pathname };
}

/** A contact of the campaign's list with a sent invite (what the review link of a message points to). */
export async function makeSentInvite(campaign: Campaign, contact: Partial<Contact> = {}, invite: Partial<Invite> = {}) {
  const person = await Contact.create({
    uuid: randomUUID(),
    tenantId: campaign.tenantId,
    customerId: campaign.customerId,
    contactListId: campaign.contactListId,
    firstName: 'Grace',
    lastName: 'Hopper',
    email: `grace-${randomUUID().slice(0, 8)}@example.test`,
    phone: null,
    ...contact,
  });
  const sent = await Invite.create({
    uuid: randomUUID(),
    tenantId: campaign.tenantId,
    customerId: campaign.customerId,
    campaignId: campaign.id,
    contactId: person.id,
    status: 'sent',
    source: 'api',
    requestedAt: new Date(Date.now() - 3_600_000),
    sendAt: new Date(Date.now() - 3_600_000),
    sentAt: new Date(Date.now() - 3_600_000),
    ...invite,
  });
  return { contact: person, invite: sent };
}

export const sign = (secret: string, body: string, timestamp?: number | string): string =>
  createHmac('sha256', secret)
    .update(timestamp !== undefined ? `${timestamp}.${body}` : body)
    .digest('hex');

/**
 * The real app with an injected clock and the inbound rate limits of the test's choosing. `trustProxy` (TRUST_PROXY,
 * e.g. 'true': one proxy) lets a test send from several client addresses through `X-Forwarded-For`; `redis` keeps
 * the limits in Redis (TEST_REDIS_URL), where two such apps share them as two API processes do.
 */
export function useInboundApp(opts: { clock?: Clock; perMinute?: number; perIpMinute?: number; trustProxy?: string; redis?: boolean } = {}) {
  const holder: { app?: Express; stop?: () => Promise<void>; redis?: Redis } = {};
  beforeAll(async () => {
    if (opts.redis) holder.redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    const created = await createApp({
      config: { RATE_LIMIT_PER_MINUTE: 100_000, BODY_LIMIT: '1mb', TRUST_PROXY: opts.trustProxy ?? 'false' },
      schema: await getSchema(),
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      clock: opts.clock,
      redis: holder.redis ?? null,
      inboundWebhook: { perMinute: opts.perMinute ?? 100_000, perIpMinute: opts.perIpMinute },
    });
    holder.app = created.app;
    holder.stop = created.stop;
  });
  afterAll(async () => {
    await holder.stop?.();
    holder.redis?.disconnect();
  });
  return {
    http: () => request.agent(holder.app!),
    gql: (token: string, query: string, variables: Record<string, unknown> = {}) =>
      request(holder.app!).post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query, variables }),
  };
}
