import { Arg, Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { CUSTOMER_TOKENS } from '../auth-checker';
import type { ConnectLink } from '../../models';
import { tenantLinkBase } from '../../services/link-domain.service';
import * as connectLinks from '../../services/connect-links.service';
import { CreateConnectLinkInput, ConnectLinkListArgs } from './connect-link.input';
import { ConnectLinkPage, ConnectLinkType } from './connect-link.type';

/** Connect links (agency): the service lets only tenant owners in (FORBIDDEN otherwise). */
@Authorized(CUSTOMER_TOKENS, 'organizations:read')
@Resolver(() => ConnectLinkType)
export class ConnectLinkResolver {
  @Query(() => ConnectLinkPage, { description: "The tenant's connect links, newest first." })
  connectLinks(@Args() args: ConnectLinkListArgs, @Ctx() ctx: Context) {
    return connectLinks.listConnectLinks(ctx.principal!, args, { clock: ctx.clock });
  }

  @Query(() => ConnectLinkType)
  connectLink(@Arg('token') token: string, @Ctx() ctx: Context) {
    return connectLinks.getConnectLink(ctx.principal!, token);
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:read', 'organizations:update')
  @Mutation(() => ConnectLinkType, { description: 'Issues a link; any other active link for the location and provider is revoked.' })
  createConnectLink(@Arg('input') input: CreateConnectLinkInput, @Ctx() ctx: Context) {
    return connectLinks.createConnectLink(ctx.principal!, input, { clock: ctx.clock });
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:read', 'organizations:update')
  @Mutation(() => ConnectLinkType, { description: 'Revokes an active link; a used, revoked or expired link is returned unchanged.' })
  revokeConnectLink(@Arg('token') token: string, @Ctx() ctx: Context) {
    return connectLinks.revokeConnectLink(ctx.principal!, token, { clock: ctx.clock });
  }

  @FieldResolver(() => String)
  status(@Root() link: ConnectLink, @Ctx() ctx: Context): string {
    return connectLinks.connectLinkStatus(link, ctx.clock.now());
  }

  @FieldResolver(() => String)
  async connectUrl(@Root() link: ConnectLink): Promise<string> {
    // The same URL the customer gets by e-mail: on the agency's link base, whatever host the agency called the API on.
    return connectLinks.connectUrlOf(link.token, await tenantLinkBase(link.tenantId));
  }
}
