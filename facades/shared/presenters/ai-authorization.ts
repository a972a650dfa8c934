import { timestamp, z } from './zod';

/** An AI client a user allowed through MCP's OAuth sign-in (GraphQL `AiAuthorization`). */
export const AI_AUTHORIZATION_FIELDS = 'id userId clientId clientName scopes organizationIds createdAt lastUsedAt revokedAt';

export interface AiAuthorizationData {
  id: number;
  userId: number;
  clientId: string;
  clientName: string;
  scopes: string[];
  organizationIds: number[] | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

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

export const aiAuthorization = (a: AiAuthorizationData): z.infer<typeof AiAuthorization> => ({
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
