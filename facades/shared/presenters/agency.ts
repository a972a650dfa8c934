import { timestamp, url, uuid, z } from './zod';
import { graphql } from '../graphql';
import type { AuditEventFieldsFragment, ConnectLinkFieldsFragment, CustomPlanFieldsFragment, CustomerFieldsFragment, OrderFieldsFragment } from '../graphql/graphql';

/** The agency API's resources (spec: "Customer", "Custom plan", "NFC order", "Connect link"; the audit event is additive). */

graphql(`fragment CustomerFields on AgencyCustomer { id name email phone language trialEndsAt createdAt updatedAt
  customPlan { id name } organizations { id name } }`);

const Named = z.object({ id: z.number().int(), name: z.string() });

export const Customer = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    language: z.string().openapi({ example: 'en' }),
    trial_ends_at: timestamp().nullable(),
    created_at: timestamp(),
    updated_at: timestamp(),
    custom_plan: Named.nullable(),
    organizations: z.array(Named),
  })
  .openapi('Customer');

export const customer = (c: CustomerFieldsFragment): z.infer<typeof Customer> => ({
  id: c.id,
  name: c.name,
  email: c.email,
  phone: c.phone,
  language: c.language,
  trial_ends_at: c.trialEndsAt,
  created_at: c.createdAt,
  updated_at: c.updatedAt,
  custom_plan: c.customPlan ? { id: c.customPlan.id, name: c.customPlan.name } : null,
  organizations: c.organizations.map((o) => ({ id: o.id, name: o.name })),
});

/** The customers list's meta is the spec's short one. */
export const CustomerPageMeta = z
  .object({ current_page: z.number().int(), from: z.number().int().nullable(), per_page: z.number().int(), to: z.number().int().nullable() })
  .openapi('CustomerPageMeta');

graphql(`fragment CustomPlanFields on CustomPlan { id billingMonthlyId billingYearlyId name isDefault isHidden isFree createdAt updatedAt }`);

export const CustomPlan = z
  .object({
    id: z.number().int(),
    billing_monthly_id: z.string(),
    billing_yearly_id: z.string(),
    name: z.string(),
    is_default: z.boolean(),
    is_hidden: z.boolean(),
    is_free: z.boolean(),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .openapi('CustomPlan');

export const customPlan = (p: CustomPlanFieldsFragment): z.infer<typeof CustomPlan> => ({
  id: p.id,
  billing_monthly_id: p.billingMonthlyId,
  billing_yearly_id: p.billingYearlyId,
  name: p.name,
  is_default: p.isDefault,
  is_hidden: p.isHidden,
  is_free: p.isFree,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
});

graphql(`fragment OrderFields on NfcOrder { id orderNumber email total currency status
  shipping { name address city country trackingUrl }
  items { productName quantity unitPrice nfcUrls } }`);

export const Order = z
  .object({
    id: uuid(),
    order_number: z.string(),
    email: z.string(),
    total: z.number(),
    currency: z.string().openapi({ example: 'USD' }),
    status: z.string().openapi({ example: 'paid' }),
    shipping: z.object({ name: z.string(), address: z.string(), city: z.string(), country: z.string(), tracking_url: z.string().nullable() }),
    items: z.array(z.object({ product_name: z.string(), quantity: z.number().int(), unit_price: z.number(), nfc_urls: z.array(z.string()) })),
  })
  .openapi('NfcOrder');

export const order = (o: OrderFieldsFragment): z.infer<typeof Order> => ({
  id: o.id,
  order_number: o.orderNumber,
  email: o.email,
  total: o.total,
  currency: o.currency,
  status: o.status,
  shipping: {
    name: o.shipping.name,
    address: o.shipping.address,
    city: o.shipping.city,
    country: o.shipping.country,
    tracking_url: o.shipping.trackingUrl,
  },
  items: o.items.map((i) => ({ product_name: i.productName, quantity: i.quantity, unit_price: i.unitPrice, nfc_urls: i.nfcUrls })),
});

graphql(`fragment ConnectLinkFields on ConnectLink { token provider locationId connectUrl status expiresAt lastStartedAt completedOauthAt usedAt revokedAt createdAt }`);

export const ConnectLink = z
  .object({
    token: z.string(),
    provider: z.enum(['google', 'facebook']),
    location_id: z.number().int(),
    connect_url: url(),
    status: z.string().openapi({ example: 'active' }),
    expires_at: timestamp(),
    last_started_at: timestamp().nullable(),
    completed_oauth_at: timestamp().nullable(),
    used_at: timestamp().nullable(),
    revoked_at: timestamp().nullable(),
    created_at: timestamp(),
  })
  .openapi('ConnectLink');

export const connectLink = (l: ConnectLinkFieldsFragment): z.infer<typeof ConnectLink> => ({
  token: l.token,
  provider: l.provider as 'google' | 'facebook',
  location_id: l.locationId,
  connect_url: l.connectUrl,
  status: l.status,
  expires_at: l.expiresAt,
  last_started_at: l.lastStartedAt,
  completed_oauth_at: l.completedOauthAt,
  used_at: l.usedAt,
  revoked_at: l.revokedAt,
  created_at: l.createdAt,
});

graphql(`fragment AuditEventFields on AgencyAuditEvent { id action subjectType subjectId customerId actorType actorUserId actorTokenId actorLabel requestId beforeJson afterJson createdAt }`);

export const AuditEvent = z
  .object({
    id: z.number().int(),
    action: z.string().openapi({ example: 'customer.paused' }),
    subject_type: z.string(),
    subject_id: z.string(),
    customer_id: z.number().int().nullable(),
    actor: z.object({ type: z.string(), user_id: z.number().int().nullable(), token_id: z.number().int().nullable(), label: z.string() }),
    request_id: z.string().nullable(),
    before: z.unknown().openapi({ description: 'The subject before the change (secrets never included), or null.' }),
    after: z.unknown().openapi({ description: 'The subject after the change, or null.' }),
    created_at: timestamp(),
  })
  .openapi('AuditEvent');

export const auditEvent = (e: AuditEventFieldsFragment): z.infer<typeof AuditEvent> => ({
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
