import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AccountResolver } from './account/account.resolver';
import { authChecker } from './auth-checker';
import { IntegrationResolver } from './integrations/integration.resolver';
import { LocationResolver } from './locations/location.resolver';
import { OrganizationResolver } from './organizations/organization.resolver';
import { ReferenceResolver } from './reference/reference.resolver';
import { ReviewResolver, WritableSourceResolver } from './reviews/review.resolver';
import { validateArg } from './validation';
import { WebhookDeliveryResolver, WebhookEndpointResolver } from './webhooks/webhook.resolver';

export const RESOLVERS = [
  ReviewResolver,
  WritableSourceResolver,
  OrganizationResolver,
  LocationResolver,
  ReferenceResolver,
  IntegrationResolver,
  AccountResolver,
  WebhookEndpointResolver,
  WebhookDeliveryResolver,
] as const;

let built: Promise<GraphQLSchema> | null = null;

/** The one business schema; built once per process. */
export function getSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers: RESOLVERS,
    authChecker,
    validateFn: validateArg,
    emitSchemaFile: false,
  });
  return built;
}
