import { Arg, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import * as feedback from '../../services/private-feedback.service';
import { LINK } from '../auth-checker';
import { FeedbackGateKind, FeedbackGateType, FeedbackPageType, PrivateFeedbackFormInput } from './feedback-page.type';

const pageOf = (view: feedback.FeedbackPage): FeedbackPageType => ({
  invite: view.invite.uuid,
  brand: view.brand,
  businessName: view.organization.name,
  firstName: view.contact.firstName,
  lastName: view.contact.lastName,
  email: view.contact.email,
  phone: view.contact.phone,
  feedbackSent: view.existing !== null,
  campaign: view.campaign,
});

/**
 * The review link of an invite (facades/pages/feedback): the invite's random UUID is the key, as before; an unknown
 * or malformed one is null.
 */
@Authorized(LINK)
@Resolver(() => FeedbackPageType)
export class FeedbackPageResolver {
  @Query(() => FeedbackPageType, { nullable: true, description: 'The review page of an invite; null for an unknown or malformed UUID.' })
  async feedbackPage(@Arg('invite') invite: string): Promise<FeedbackPageType | null> {
    const view = await feedback.feedbackPageOf(invite);
    return view && pageOf(view);
  }

  @Mutation(() => FeedbackPageType, {
    nullable: true,
    description:
      'A star chosen on the review page (its form, a POST: mail scanners GET every link and never count): the first marks the invite clicked (a `clicked` activity, once), which stops its follow-ups. Null for an unknown invite.',
  })
  async openReviewLink(@Arg('invite') invite: string, @Ctx() ctx: Context): Promise<FeedbackPageType | null> {
    const view = await feedback.feedbackPageOf(invite);
    if (!view) return null;
    await feedback.recordClick(view, { clock: ctx.clock });
    return pageOf(view);
  }

  @Mutation(() => Boolean, {
    description: 'Stores the private feedback form of an invite (one per invite: a second submission stores nothing). Returns whether it was stored now.',
  })
  async sendPrivateFeedback(@Arg('invite') invite: string, @Arg('form') form: PrivateFeedbackFormInput, @Ctx() ctx: Context): Promise<boolean> {
    const { created } = await feedback.submitFeedback(invite, { ...form }, { clock: ctx.clock });
    return created;
  }

  @FieldResolver(() => FeedbackGateType, { description: 'Where this rating (1-5) leads.' })
  gate(@Root() page: FeedbackPageType, @Arg('rating', () => Int) rating: number): FeedbackGateType {
    const gate = feedback.gateFor(page.campaign, rating);
    return { kind: gate.kind as FeedbackGateKind, url: gate.kind === 'review' ? gate.url : null };
  }
}
