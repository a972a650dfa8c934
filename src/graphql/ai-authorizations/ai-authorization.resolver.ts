import { Arg, Authorized, Ctx, Field, GraphQLISODateTime, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { CUSTOMER_TOKENS } from '../auth-checker';
import * as oauth from '../../services/mcp-oauth.service';

/**
 * AI clients a user allowed through MCP's OAuth sign-in (issue 16): listed and revoked by the user, and by the tenant
 * owner for every user of the tenant. AI tokens themselves cannot manage them.
 */
@ObjectType('AiAuthorization', { description: 'An AI client allowed to act for a user through the MCP endpoint (OAuth).' })
export class AiAuthorizationType {
  @Field(() => Int)
  id!: number;

  @Field(() => Int, { description: 'The user who allowed it.' })
  userId!: number;

  @Field({ description: 'The OAuth client id (a registered id or a client metadata document URL).' })
  clientId!: string;

  @Field()
  clientName!: string;

  @Field(() => [String], { description: 'The abilities granted: mcp:access, and mcp:writes and reviews:pii when chosen.' })
  scopes!: string[];

  @Field(() => [Int], { nullable: true, description: 'The organisations granted; null = all of them, including ones added later.' })
  organizationIds!: number[] | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  lastUsedAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  revokedAt!: Date | null;
}

const present = (r: oauth.AuthorizationRow): AiAuthorizationType => ({
  id: r.id,
  userId: r.userId,
  clientId: r.clientId,
  clientName: r.clientName,
  scopes: r.scopes.split(' ').filter(Boolean),
  organizationIds: r.organizationIds === null ? null : (JSON.parse(r.organizationIds) as number[]),
  createdAt: new Date(r.createdAt),
  lastUsedAt: r.lastUsedAt ? new Date(r.lastUsedAt) : null,
  revokedAt: r.revokedAt ? new Date(r.revokedAt) : null,
});

// Customer tokens: organizations:read to list, and organizations:update as well to revoke (as for the other settings:
// a read-only token changes nothing; the answer is read under the listing's rule). Agency tokens carry no permissions.
@Authorized(CUSTOMER_TOKENS, 'organizations:read')
@Resolver(() => AiAuthorizationType)
export class AiAuthorizationResolver {
  @Query(() => [AiAuthorizationType], { description: 'AI clients allowed through OAuth: your own; a tenant owner sees every user\'s.' })
  async aiAuthorizations(@Arg('includeRevoked', { defaultValue: false }) includeRevoked: boolean, @Ctx() ctx: Context): Promise<AiAuthorizationType[]> {
    oauth.assertCanManageAuthorizations(ctx.principal!);
    return (await oauth.listAuthorizations(ctx.principal!, { includeRevoked })).map(present);
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:read', 'organizations:update')
  @Mutation(() => AiAuthorizationType, { description: 'Revokes the client: its access and refresh tokens stop working at once.' })
  async revokeAiAuthorization(@Arg('id', () => Int) id: number, @Ctx() ctx: Context): Promise<AiAuthorizationType> {
    oauth.assertCanManageAuthorizations(ctx.principal!);
    return present(await oauth.revokeAuthorization(ctx.principal!, id, { clock: ctx.clock }));
  }
}
