import { ApiToken } from './api-token.model';
import { ConnectLink } from './connect-link.model';
import { Country } from './country.model';
import { CreditConsumption } from './credit-consumption.model';
import { CreditGrant } from './credit-grant.model';
import { Customer } from './customer.model';
import { Integration } from './integration.model';
import { Location } from './location.model';
import { NfcOrder, NfcOrderItem } from './nfc-order.model';
import { LocationUser } from './location-user.model';
import { Organization } from './organization.model';
import { OrganizationMember } from './organization-member.model';
import { OutboxEvent } from './outbox-event.model';
import { Plan } from './plan.model';
import { ProviderConnection } from './provider-connection.model';
import { Review } from './review.model';
import { GridProviderSetting } from './grid-provider-setting.model';
import { Scan } from './scan.model';
import { ScanPin } from './scan-pin.model';
import { ScanResult } from './scan-result.model';
import { ScanSnapshot } from './scan-snapshot.model';
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
  GridProviderSetting,
  Scan,
  ScanPin,
  ScanResult,
  ScanSnapshot,
  CreditConsumption,
  CreditGrant,
  NfcOrder,
  NfcOrderItem,
  ConnectLink,
  Country,
  Customer,
  Integration,
  Location,
  LocationUser,
  Organization,
  OrganizationMember,
  OutboxEvent,
  Plan,
  ProviderConnection,
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
  GridProviderSetting,
  Scan,
  ScanPin,
  ScanResult,
  ScanSnapshot,
  CreditConsumption,
  CreditGrant,
  NfcOrder,
  NfcOrderItem,
  ConnectLink,
  Country,
  Customer,
  Integration,
  Location,
  LocationUser,
  Organization,
  OrganizationMember,
  OutboxEvent,
  Plan,
  ProviderConnection,
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
