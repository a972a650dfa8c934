import { z, url } from './zod';

/**
 * Envelopes and error bodies shared by every REST resource (spec: "Pagination", "Errors"). A resource's presenter
 * declares its item schema; these wrap it the way the routes answer it.
 */

/** `{data: T}` */
export const dataOf = <T extends z.ZodTypeAny>(item: T) => z.object({ data: item });

/** `{data: [T]}` (lists the spec does not paginate). */
export const listOf = <T extends z.ZodTypeAny>(item: T) => z.object({ data: z.array(item) });

export const PageLinks = z
  .object({ first: url(), last: url(), prev: url().nullable(), next: url().nullable() })
  .openapi('PageLinks', { description: 'Absolute links that keep the request\'s other query parameters.' });

export const PageMeta = z
  .object({
    current_page: z.number().int(),
    from: z.number().int().nullable(),
    last_page: z.number().int(),
    per_page: z.number().int(),
    to: z.number().int().nullable(),
    total: z.number().int(),
  })
  .openapi('PageMeta');

/** The pagination envelope: `data`, `links`, `meta`. */
export const pageOf = <T extends z.ZodTypeAny>(item: T) => z.object({ data: z.array(item), links: PageLinks, meta: PageMeta });

export const MessageBody = z
  .object({ message: z.string() })
  .openapi('Message', { description: 'A confirmation, such as `{message: "Review deleted successfully."}`.' });

export const ErrorBody = z
  .object({
    message: z.string(),
    code: z.string().optional().openapi({
      description:
        'A stable code for a named condition. Among them: `location_access_denied`, `organization_access_denied`, `missing_permission` (403); ' +
        '`upgrade_required`, `subscription_paused`, `insufficient_credits` (402); `already_replied`, `scan_running`, `not_paused`, ' +
        '`idempotency_key_in_use` (409); `last_location`, `last_organization`, `invalid_date_range`, `missing_coords`, ' +
        '`provider_not_configured`, `webhook_limit`, `idempotency_key_reused` (422); `provider_rejected` (502). Codes are added, never changed.',
      example: 'location_access_denied',
    }),
  })
  .openapi('Error', { description: 'Every error answers JSON with a `message`; named conditions add a `code`.', example: { message: 'Review not found.' } });

export const ValidationErrorBody = z
  .object({
    message: z.string(),
    code: z.string().optional(),
    errors: z.record(z.array(z.string())).openapi({ description: 'One entry per offending field, each a list of messages.' }),
  })
  .openapi('ValidationError', { example: { message: 'The rating field is required.', errors: { rating: ['The rating field is required.'] } } });
