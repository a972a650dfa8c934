import { bool } from '../../shared/input';
import { aiAuthorization, AiAuthorization } from '../../shared/presenters/ai-authorization';
import { dataOf, listOf } from '../../shared/presenters/common';
import { z } from '../../shared/presenters/zod';
import { pathId, route } from '../route';
import { graphql } from '../../shared/graphql';

/**
 * AI clients allowed through MCP's OAuth sign-in (issue 16; additive): the "API and webhooks" settings list them and
 * revoke them. A customer token of the user (a tenant owner's sees every user of the tenant) with `organizations:read`,
 * and `organizations:update` as well to revoke, as on GraphQL; AI tokens cannot.
 */
const TAG = 'AI authorizations';

export const aiAuthorizationRoutes = [
  route({
    method: 'get',
    path: '/ai-authorizations',
    operationId: 'listAiAuthorizations',
    summary: 'AI clients allowed through OAuth',
    description: 'Your own; a tenant owner sees every user\'s. Revoked ones only with `include_revoked=true`.',
    tag: TAG,
    permissions: ['organizations:read'],
    query: z.object({ include_revoked: bool('include_revoked').optional() }),
    responses: { 200: { description: 'The authorizations, newest first.', schema: listOf(AiAuthorization) } },
    document: graphql(`query ListAiAuthorizations($includeRevoked: Boolean!) { aiAuthorizations(includeRevoked: $includeRevoked) { ...AiAuthorizationFields } }`),
    variables: ({ query }) => ({ includeRevoked: query.include_revoked ?? false }),
    respond: (d) => ({ body: { data: d.aiAuthorizations.map(aiAuthorization) } }),
  }),
  route({
    method: 'delete',
    path: '/ai-authorizations/:id',
    operationId: 'revokeAiAuthorization',
    summary: 'Revoke an AI client',
    description: 'Its access and refresh tokens stop working at once; the client must ask the user again.',
    tag: TAG,
    permissions: ['organizations:read', 'organizations:update'],
    params: { id: pathId('Authorization', 'The authorization id.') },
    responses: { 200: { description: 'The revoked authorization.', schema: dataOf(AiAuthorization) } },
    document: graphql(`mutation RevokeAiAuthorization($id: Int!) { revokeAiAuthorization(id: $id) { ...AiAuthorizationFields } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ body: { data: aiAuthorization(d.revokeAiAuthorization) } }),
  }),
];
