import { ApiToken } from './api-token.model';
import { Country } from './country.model';
import { Customer } from './customer.model';
import { Integration } from './integration.model';
import { Location } from './location.model';
import { LocationUser } from './location-user.model';
import { Organization } from './organization.model';
import { OrganizationMember } from './organization-member.model';
import { OutboxEvent } from './outbox-event.model';
import { Plan } from './plan.model';
import { Review } from './review.model';
import { ReviewSource } from './review-source.model';
import { StoredFile } from './stored-file.model';
import { Tenant } from './tenant.model';
import { TenantDomain } from './tenant-domain.model';
import { User } from './user.model';
import { WebhookAttempt } from './webhook-attempt.model';
import { WebhookDelivery } from './webhook-delivery.model';
import { WebhookEndpoint } from './webhook-endpoint.model';

export {
  ApiToken,
  Country,
  Customer,
  Integration,
  Location,
  LocationUser,
  Organization,
  OrganizationMember,
  OutboxEvent,
  Plan,
  Review,
  ReviewSource,
  StoredFile,
  Tenant,
  TenantDomain,
  User,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
};

export const ALL_MODELS = [
  ApiToken,
  Country,
  Customer,
  Integration,
  Location,
  LocationUser,
  Organization,
  OrganizationMember,
  OutboxEvent,
  Plan,
  Review,
  ReviewSource,
  StoredFile,
  Tenant,
  TenantDomain,
  User,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
] as const;
