import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { unsubscribeByToken, unsubscribeViewOf } from '../../services/unsubscribe.service';
import { LINK } from '../auth-checker';
import { UnsubscribedType, UnsubscribePageType } from './unsubscribe.type';

/**
 * The unsubscribe link of review requests (facades/pages/unsubscribe): the signed token of the link is the
 * credential (src/messaging/links.ts); a malformed, forged or unknown token is null.
 */
@Authorized(LINK)
@Resolver()
export class UnsubscribeResolver {
  @Query(() => UnsubscribePageType, { nullable: true, description: 'The unsubscribe page of a link token; null for an unknown, malformed or forged token.' })
  async unsubscribePage(@Arg('token') token: string): Promise<UnsubscribePageType | null> {
    const view = await unsubscribeViewOf(token);
    return view && { brand: view.brand, businessName: view.businessName, unsubscribed: view.contact.unsubscribedAt !== null };
  }

  @Mutation(() => UnsubscribedType, {
    nullable: true,
    description: "Unsubscribes the link token's contact from every review request of its list and cancels its waiting invites (idempotent); null for an invalid token.",
  })
  async unsubscribe(@Arg('token') token: string, @Ctx() ctx: Context): Promise<UnsubscribedType | null> {
    const result = await unsubscribeByToken(token, { clock: ctx.clock });
    return (
      result && { brand: result.brand, businessName: result.businessName, contactId: result.contact.uuid, already: result.already, canceled: result.canceled }
    );
  }
}
