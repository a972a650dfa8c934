import { timestamp, z } from './zod';
import { graphql } from '../graphql';
import type { AiAuthorizationFieldsFragment } from '../graphql/graphql';

/** An AI client a user allowed through MCP's OAuth sign-in (GraphQL `AiAuthorization`). */
graphql(`fragment AiAuthorizationFields on AiAuthorization { id userId clientId clientName scopes organizationIds createdAt lastUsedAt revokedAt }`);

export const AiAuthorization = z
  .object({
    id: z.number().int(),
    user_id: z.number().int(),
    client_id: z.string(),
    client_name: z.string(),
    scopes: z.array(z.string()).openapi({ example: ['mcp:access', 'mcp:writes'] }),
    organization_ids: z.array(z.number().int()).nullable().openapi({ description: 'The organisations granted; null = all, including ones added later.' }),
    created_at: timestamp(),
    last_used_at: timestamp().nullable(),
    revoked_at: timestamp().nullable(),
  })
  .openapi('AiAuthorization');

export const aiAuthorization = (a: AiAuthorizationFieldsFragment): z.infer<typeof AiAuthorization> => ({
  id: a.id,
  user_id: a.userId,
  client_id: a.clientId,
  client_name: a.clientName,
  scopes: a.scopes,
  organization_ids: a.organizationIds,
  created_at: a.createdAt,
  last_used_at: a.lastUsedAt,
  revoked_at: a.revokedAt,
});
