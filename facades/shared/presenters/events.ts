import { Location, Organization } from './organization';
import { timestamp, url, z } from './zod';

/**
 * The outbound webhook events on the wire (spec: "Events > Outbound webhooks"; the shapes the spec leaves "not shown"
 * are docs/decisions/webhooks.md's). The payloads are written by the services inside the transaction of the change
 * (src/outbox/payloads.ts, the scan service); these schemas document them in the OpenAPI `webhooks` and the contract
 * tests check every delivery a test receiver gets against them.
 */
const event = <N extends string>(name: N) => z.literal(name).openapi({ description: 'The event name.' });

const ReviewPayload = z.object({
  id: z.number().int(),
  organization_id: z.number().int(),
  location_id: z.number().int(),
  source_name: z.string(),
  identifier: z.string().openapi({ description: 'The review\'s id at its source.' }),
  avatar: url(),
  author: z.string(),
  rating: z.number().int(),
  original_rating: z.number().int().nullable(),
  title: z.string().nullable(),
  message: z.string(),
  url: url(),
  verified: z.boolean(),
  replied: z.boolean(),
  reply_message: z.string().nullable(),
  reply_url: z.string().nullable(),
  hidden: z.boolean(),
  reply_published_on: timestamp().nullable(),
  published_on: timestamp().nullable(),
  review_updated_on: timestamp().nullable(),
  updated_at: timestamp(),
  created_at: timestamp(),
  meta: z.record(z.unknown()),
});

const PrivateFeedbackPayload = z.object({
  id: z.number().int(),
  organization_id: z.number().int(),
  location_id: z.number().int(),
  rating: z.number().int().nullable(),
  author: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  message: z.string().nullable(),
  replied: z.boolean(),
  reply_message: z.string().nullable(),
  reply_published_on: timestamp().nullable(),
  source: z.string().nullable(),
  source_name: z.string().nullable(),
  updated_at: timestamp(),
  created_at: timestamp(),
  meta: z.record(z.unknown()).openapi({ description: 'The raw form submission; keys vary per form.' }),
});

const ScanSummary = z.object({ average_rank: z.number(), top_3_count: z.number().int(), top_4_to_10_count: z.number().int(), not_ranking_count: z.number().int() });

/** Each event: its name, what emits it, and its body schema (`webhook_event` first). */
export const WEBHOOK_EVENTS = {
  'review-created': { summary: 'A new review arrived from any connected source', payload: ReviewPayload },
  'review-updated': { summary: 'A review changed (reply added, rating changed); the review-created shape', payload: ReviewPayload },
  'private-feedback-created': { summary: 'A customer submitted a private feedback form', payload: PrivateFeedbackPayload },
  'private-feedback-updated': { summary: 'A private feedback record changed', payload: PrivateFeedbackPayload },
  'organization-created': { summary: 'An organisation was created (the REST Organisation)', payload: Organization },
  'organization-updated': { summary: 'An organisation changed (the REST Organisation)', payload: Organization },
  'organization-deleted': { summary: 'An organisation was deleted', payload: z.object({ id: z.number().int(), name: z.string(), deleted_at: timestamp() }) },
  'location-created': { summary: 'A location was added (the REST Location)', payload: Location },
  'location-updated': { summary: 'A location changed (the REST Location)', payload: Location },
  'location-deleted': {
    summary: 'A location was removed',
    payload: z.object({ id: z.number().int(), organization_id: z.number().int(), name: z.string(), deleted_at: timestamp() }),
  },
  'scan-completed': {
    summary: 'A scan finished a full snapshot (tenant-owner configurations only)',
    payload: z.object({
      uuid: z.string(),
      status: z.literal('completed'),
      snapshot_at: timestamp(),
      location: z.string(),
      keyword: z.string(),
      keywords: z.array(z.string()),
      grid_size: z.number().int(),
      summary: ScanSummary.nullable().openapi({ description: 'Null for a scan with no business to track (no `target_place_id`): its rank is unknown, as the scan detail says.' }),
      report_url: z.string().openapi({ description: 'Relative path of the white-label report.' }),
    }),
  },
  'scan-failed': {
    summary: 'A scan run failed before completing (tenant-owner configurations only)',
    payload: z.object({ uuid: z.string(), status: z.literal('failed'), error_message: z.string(), failed_at: timestamp() }),
  },
  ping: {
    summary: 'A test event sent by `POST /webhooks/{id}/test`',
    payload: z.object({ webhook_id: z.number().int(), sent_at: timestamp(), message: z.string() }),
  },
} as const;

export type WebhookEventName = keyof typeof WEBHOOK_EVENTS;

/** The body of an event as delivered: `{webhook_event, ...payload}`. */
export function eventBody(name: WebhookEventName): z.ZodTypeAny {
  const { payload } = WEBHOOK_EVENTS[name];
  return z.object({ webhook_event: event(name) }).merge(payload as z.AnyZodObject);
}
