import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AccountResolver } from './account/account.resolver';
import { AgencyResolver } from './agency/agency.resolver';
import { pausedAccountGuard } from './agency/paused.middleware';
import { authChecker } from './auth-checker';
import { ConnectLinkResolver } from './connect-links/connect-link.resolver';
import { IntegrationResolver } from './integrations/integration.resolver';
import { LocationResolver } from './locations/location.resolver';
import { OrganizationResolver } from './organizations/organization.resolver';
import { ReferenceResolver } from './reference/reference.resolver';
import { ReviewResolver, WritableSourceResolver } from './reviews/review.resolver';
import { ReviewReplyResolver } from './reviews/reply.resolver';
import { ScanResolver } from './scans/scan.resolver';
import { validateArg } from './validation';
import { WebhookDeliveryResolver, WebhookEndpointResolver } from './webhooks/webhook.resolver';

export const RESOLVERS = [
  ReviewResolver,
  WritableSourceResolver,
  ReviewReplyResolver,
  OrganizationResolver,
  LocationResolver,
  ReferenceResolver,
  IntegrationResolver,
  AccountResolver,
  WebhookEndpointResolver,
  WebhookDeliveryResolver,
  ConnectLinkResolver,
  AgencyResolver,
  ScanResolver,
] as const;

let built: Promise<GraphQLSchema> | null = null;

/** The one business schema; built once per process. */
export function getSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers: RESOLVERS,
    authChecker,
    validateFn: validateArg,
    // A paused account may read but not write (agency pause/resume).
    globalMiddlewares: [pausedAccountGuard],
    emitSchemaFile: false,
  });
  return built;
}
