import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { PageBrandType } from '../pages/page-brand.type';

export enum FeedbackGateKind {
  REVIEW = 'review',
  THANKS = 'thanks',
  FEEDBACK = 'feedback',
}
registerEnumType(FeedbackGateKind, {
  name: 'FeedbackGateKind',
  description: "Where a rating leads: the public review site, a thank-you page (no review URL), or the private feedback form.",
});

@ObjectType('FeedbackGate', { description: "The campaign's rating gate for one rating (above its feedback threshold: the review site)." })
export class FeedbackGateType {
  @Field(() => FeedbackGateKind)
  kind!: FeedbackGateKind;

  @Field(() => String, { nullable: true, description: 'The review site, for `review`.' })
  url!: string | null;
}

@ObjectType('FeedbackPage', { description: "What the review link of an invite (`/r/{invite uuid}`) shows." })
export class FeedbackPageType {
  @Field({ description: 'Invite UUID.' })
  invite!: string;

  @Field(() => PageBrandType)
  brand!: PageBrandType;

  @Field({ description: 'The organisation of the campaign.' })
  businessName!: string;

  @Field(() => String, { nullable: true, description: "The contact's first name (the greeting and the form's prefill)." })
  firstName!: string | null;

  @Field(() => String, { nullable: true })
  lastName!: string | null;

  @Field(() => String, { nullable: true })
  email!: string | null;

  @Field(() => String, { nullable: true })
  phone!: string | null;

  @Field({ description: 'Feedback was sent through this invite already (one per invite).' })
  feedbackSent!: boolean;

  /** For the gate field: the campaign's threshold and review site. */
  campaign!: { feedbackThreshold: number; reviewUrl: string | null };
}

@InputType('PrivateFeedbackFormInput', { description: 'The private feedback form as the browser sent it (every value text; absent fields empty). The service validates it.' })
export class PrivateFeedbackFormInput {
  @Field({ defaultValue: '' })
  name!: string;

  @Field({ defaultValue: '' })
  email!: string;

  @Field({ defaultValue: '' })
  phone!: string;

  @Field({ defaultValue: '' })
  message!: string;

  @Field({ defaultValue: '' })
  rating!: string;
}
