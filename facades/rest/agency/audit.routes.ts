import { integer, text } from '../../shared/input';
import { envelope } from '../../shared/pagination';
import { auditEvent, AuditEvent } from '../../shared/presenters/agency';
import { pageOf } from '../../shared/presenters/common';
import { z } from '../../shared/presenters/zod';
import { route } from '../route';
import { graphql } from '../../shared/graphql';

/**
 * The agency side's audit trail: `GET /audit-events` (additive to the spec; docs/security.md "Audit trail").
 * Filters `action`, `subject_type`, `subject_id`, `customer_id`; newest first; the spec's pagination envelope.
 */
export const auditRoutes = [
  route({
    method: 'get',
    path: '/audit-events',
    operationId: 'listAuditEvents',
    summary: 'The agency\'s audit trail',
    description: 'Who changed what (tokens, credits, plans, limits, customers, connect links), newest first. Additive to the interface.',
    tag: 'Audit',
    permissions: null,
    query: z.object({
      action: text('action').optional(),
      subject_type: text('subject_type').optional(),
      subject_id: text('subject_id').optional(),
      customer_id: integer('customer_id').optional(),
      page: integer('page').optional(),
      per_page: integer('per_page').optional(),
    }),
    responses: { 200: { description: 'A page of audit events.', schema: pageOf(AuditEvent) } },
    document: graphql(`query ListAuditEvents($action: String, $subjectType: String, $subjectId: String, $customerId: Int, $page: Int!, $perPage: Int!) {
      agencyAuditEvents(action: $action, subjectType: $subjectType, subjectId: $subjectId, customerId: $customerId, page: $page, perPage: $perPage) {
        total page perPage items { ...AuditEventFields }
      }
    }`),
    variables: ({ query: q }) => ({
      action: q.action || null,
      subjectType: q.subject_type || null,
      subjectId: q.subject_id || null,
      customerId: q.customer_id ?? null,
      page: q.page ?? 1,
      perPage: q.per_page ?? 25,
    }),
    respond: (d, req) => ({ body: envelope(req, d.agencyAuditEvents, auditEvent) }),
  }),
];
