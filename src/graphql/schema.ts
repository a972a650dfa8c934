import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AccountResolver } from './account/account.resolver';
import { AgencyResolver } from './agency/agency.resolver';
import { AnalyticsResolver } from './analytics/analytics.resolver';
import { ReportResolver } from './reports/report.resolver';
import { ScanReportBrandResolver, ScanReportPageResolver, ScanReportResolver } from './reports/scan-report.resolver';
import { authChecker } from './auth-checker';
import { CampaignResolver } from './campaigns/campaign.resolver';
import { ConnectLinkResolver } from './connect-links/connect-link.resolver';
import { ConnectPageResolver } from './connect-links/connect-page.resolver';
import { GbpResolver } from './gbp/gbp.resolver';
import { IntegrationResolver } from './integrations/integration.resolver';
import { LocationResolver } from './locations/location.resolver';
import { AgencyAuditResolver } from './agency-audit/agency-audit.resolver';
import { McpAuditResolver } from './mcp-audit/mcp-audit.resolver';
import { OrganizationStatsResolver } from './organizations/organization-stats.resolver';
import { ScopeResolver } from './scope/scope.resolver';
import { OrganizationResolver } from './organizations/organization.resolver';
import { ReferenceResolver } from './reference/reference.resolver';
import { ReviewResolver, WritableSourceResolver } from './reviews/review.resolver';
import { ReviewReplyResolver } from './reviews/reply.resolver';
import { ScanResolver } from './scans/scan.resolver';
import { MessagingSettingsResolver } from './messaging/messaging.resolver';
import { InboundConnectionResolver } from './inbound/inbound.resolver';
import { PrivateFeedbackResolver } from './feedback/feedback.resolver';
import { AutoRespondRuleResolver } from './auto-respond/auto-respond.resolver';
import { ReplyDraftResolver } from './drafts/draft.resolver';
import { ReviewTagResolver } from './tags/tag.resolver';
import { validateArg } from './validation';
import { WebhookAttemptResolver, WebhookDeliveryResolver, WebhookEndpointResolver } from './webhooks/webhook.resolver';
import { AiAuthorizationResolver } from './ai-authorizations/ai-authorization.resolver';
import { UnsubscribeResolver } from './unsubscribe/unsubscribe.resolver';
import { FeedbackPageResolver } from './feedback/feedback-page.resolver';
import { PageBrandResolver } from './pages/page-brand.resolver';
import { InboundWebhookResolver } from './inbound/inbound-webhook.resolver';

export const RESOLVERS = [
  ReportResolver,
  ScanReportPageResolver,
  ScanReportResolver,
  ScanReportBrandResolver,
  ReviewResolver,
  WritableSourceResolver,
  AiAuthorizationResolver,
  ReviewReplyResolver,
  OrganizationResolver,
  LocationResolver,
  ReferenceResolver,
  IntegrationResolver,
  AccountResolver,
  WebhookEndpointResolver,
  WebhookDeliveryResolver,
  WebhookAttemptResolver,
  ConnectLinkResolver,
  ConnectPageResolver,
  AgencyResolver,
  ScanResolver,
  AnalyticsResolver,
  MessagingSettingsResolver,
  InboundConnectionResolver,
  PrivateFeedbackResolver,
  CampaignResolver,
  GbpResolver,
  AutoRespondRuleResolver,
  ReplyDraftResolver,
  ReviewTagResolver,
  ScopeResolver,
  OrganizationStatsResolver,
  McpAuditResolver,
  AgencyAuditResolver,
  UnsubscribeResolver,
  FeedbackPageResolver,
  PageBrandResolver,
  InboundWebhookResolver,
] as const;

let built: Promise<GraphQLSchema> | null = null;

/** The one business schema; built once per process. */
export function getSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers: RESOLVERS,
    authChecker,
    validateFn: validateArg,
    // A paused account may read but not write: checked by the auth checker on mutations (no global middleware,
    // which would wrap every field of every result).
    emitSchemaFile: false,
  });
  return built;
}
