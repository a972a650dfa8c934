import { Arg, Authorized, Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { assertScope } from '../../services/scope.service';

@ObjectType('AccessScope', { description: 'The organisation and location a caller asked to filter by, both within its scope.' })
class AccessScopeType {
  @Field(() => Int, { nullable: true }) organizationId!: number | null;
  @Field(() => Int, { nullable: true }) locationId!: number | null;
}

/**
 * A strict scope check for filters (used by the MCP tools next to their list query, in the same operation):
 * FORBIDDEN `access_denied` for an organisation or location the caller cannot see, VALIDATION when the location is
 * not in the organisation. Needs only a valid token: it reveals nothing the caller could not list.
 */
@Authorized()
@Resolver()
export class ScopeResolver {
  @Query(() => AccessScopeType, { description: 'Refuses (FORBIDDEN access_denied) an organisation or location outside the caller\'s scope.' })
  accessScope(
    @Arg('organizationId', () => Int, { nullable: true }) organizationId: number | null,
    @Arg('locationId', () => Int, { nullable: true }) locationId: number | null,
    @Ctx() ctx: Context,
  ) {
    return assertScope(ctx.principal!, { organizationId: organizationId ?? null, locationId: locationId ?? null });
  }
}
