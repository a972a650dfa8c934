import { z } from 'zod';
import { integer, parseInput, text } from '../../shared/input';
import { envelope, type PageResult } from '../../shared/pagination';
import { route } from '../route';

/**
 * The agency side's audit trail: `GET /audit-events` (additive to the spec; docs/security.md "Audit trail").
 * Filters `action`, `subject_type`, `subject_id`, `customer_id`; newest first; the spec's pagination envelope.
 */
interface AuditEventData {
  id: string;
  action: string;
  subjectType: string;
  subjectId: string;
  customerId: number | null;
  actorType: string;
  actorUserId: number | null;
  actorTokenId: number | null;
  actorLabel: string;
  requestId: string | null;
  beforeJson: string | null;
  afterJson: string | null;
  createdAt: string;
}

const FIELDS = 'id action subjectType subjectId customerId actorType actorUserId actorTokenId actorLabel requestId beforeJson afterJson createdAt';

const auditEvent = (e: AuditEventData) => ({
  id: Number(e.id),
  action: e.action,
  subject_type: e.subjectType,
  subject_id: e.subjectId,
  customer_id: e.customerId,
  actor: { type: e.actorType, user_id: e.actorUserId, token_id: e.actorTokenId, label: e.actorLabel },
  request_id: e.requestId,
  before: e.beforeJson === null ? null : (JSON.parse(e.beforeJson) as unknown),
  after: e.afterJson === null ? null : (JSON.parse(e.afterJson) as unknown),
  created_at: e.createdAt,
});

export const auditRoutes = [
  route<{ agencyAuditEvents: PageResult<AuditEventData> }>({
    method: 'get',
    path: '/audit-events',
    document: `query ($action: String, $subjectType: String, $subjectId: String, $customerId: Int, $page: Int!, $perPage: Int!) {
      agencyAuditEvents(action: $action, subjectType: $subjectType, subjectId: $subjectId, customerId: $customerId, page: $page, perPage: $perPage) {
        total page perPage items { ${FIELDS} }
      }
    }`,
    variables: (req) => {
      const q = parseInput(
        z.object({
          action: text('action').optional(),
          subject_type: text('subject_type').optional(),
          subject_id: text('subject_id').optional(),
          customer_id: integer('customer_id').optional(),
          page: integer('page').optional(),
          per_page: integer('per_page').optional(),
        }),
        req.query,
      );
      return {
        action: q.action || null,
        subjectType: q.subject_type || null,
        subjectId: q.subject_id || null,
        customerId: q.customer_id ?? null,
        page: q.page ?? 1,
        perPage: q.per_page ?? 25,
      };
    },
    respond: (d, req) => ({ body: envelope(req, d.agencyAuditEvents, auditEvent) }),
  }),
];
