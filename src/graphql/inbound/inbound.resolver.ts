import { Arg, Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import * as inbound from '../../services/inbound.service';
import { CreateInboundConnectionInput, InboundConnectionListArgs, InboundSubmissionListArgs, UpdateInboundConnectionInput } from './inbound.input';
import {
  DeletedInboundConnection,
  InboundConnectionPage,
  InboundConnectionType,
  InboundConnectionWithSecretType,
  InboundSubmissionPage,
} from './inbound.type';

const principal = (ctx: Context) => ctx.principal!; // @Authorized guarantees it

/**
 * Inbound contact webhooks of campaigns. Token permissions: reading needs `request:read`; changing (and setting a
 * secret) `request:read` + `request:create`, as sending invites does. Only account owners (tenant owner,
 * organisation owner) pass the service; team members are FORBIDDEN.
 */
@Authorized()
@Resolver(() => InboundConnectionType)
export class InboundConnectionResolver {
  @Authorized('request:read')
  @Query(() => InboundConnectionPage, { description: 'Inbound connections, newest first.' })
  inboundConnections(@Args() args: InboundConnectionListArgs, @Ctx() ctx: Context) {
    return inbound.listConnections(principal(ctx), args);
  }

  @Authorized('request:read')
  @Query(() => InboundConnectionType)
  inboundConnection(@Arg('id') id: string, @Ctx() ctx: Context) {
    return inbound.getConnection(principal(ctx), id);
  }

  @Authorized('request:read')
  @Query(() => InboundSubmissionPage, { description: 'What a connection received, newest first.' })
  inboundSubmissions(@Args() args: InboundSubmissionListArgs, @Ctx() ctx: Context) {
    return inbound.listSubmissions(principal(ctx), args.connectionId, args);
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => InboundConnectionType, { description: 'A new connection with its endpoint URL (no signing secret until one is set).' })
  createInboundConnection(@Arg('input') input: CreateInboundConnectionInput, @Ctx() ctx: Context) {
    return inbound.createConnection(principal(ctx), { ...input, timing: input.timing ?? { mode: 'immediate' } }, { clock: ctx.clock });
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => InboundConnectionType)
  updateInboundConnection(@Arg('id') id: string, @Arg('input') input: UpdateInboundConnectionInput, @Ctx() ctx: Context) {
    return inbound.updateConnection(principal(ctx), id, input, { clock: ctx.clock });
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => DeletedInboundConnection, { description: 'Deletes the connection and its submission log; its URL answers 404.' })
  async deleteInboundConnection(@Arg('id') id: string, @Ctx() ctx: Context): Promise<DeletedInboundConnection> {
    await inbound.deleteConnection(principal(ctx), id, { clock: ctx.clock });
    return { id, message: 'Inbound connection deleted successfully.' };
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => InboundConnectionType, { description: 'A new endpoint URL; the old one stops working at once.' })
  regenerateInboundToken(@Arg('id') id: string, @Ctx() ctx: Context) {
    return inbound.regenerateToken(principal(ctx), id, { clock: ctx.clock });
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => InboundConnectionWithSecretType, {
    description: 'Sets the signing secret (the one given, 16-255 characters, or a generated one) and shows it this once.',
  })
  setInboundSigningSecret(@Arg('id') id: string, @Arg('secret', () => String, { nullable: true }) secret: string | null, @Ctx() ctx: Context) {
    return inbound.setSigningSecret(principal(ctx), id, { secret }, { clock: ctx.clock });
  }

  @Authorized('request:read', 'request:create')
  @Mutation(() => InboundConnectionType, { description: 'Removes the signing secret: submissions need no signature.' })
  clearInboundSigningSecret(@Arg('id') id: string, @Ctx() ctx: Context) {
    return inbound.clearSigningSecret(principal(ctx), id, { clock: ctx.clock });
  }
}
