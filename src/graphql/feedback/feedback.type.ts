import { Field, ObjectType } from 'type-graphql';
import { Paginated } from '../common';
import { RatedMessageFields } from '../reviews/review.type';

@ObjectType('PrivateFeedback', { description: 'What a customer wrote on the private feedback form after a low rating.' })
export class PrivateFeedbackType extends RatedMessageFields {
  @Field(() => String, { nullable: true, description: 'Campaign UUID.' })
  campaignId!: string | null;

  @Field(() => String, { nullable: true, description: 'Contact UUID.' })
  contactId!: string | null;

  @Field({ description: 'The name given on the form.' })
  author!: string;

  @Field()
  email!: string;

  @Field()
  phone!: string;

  @Field()
  replied!: boolean;

  @Field({ description: 'How the form was reached: `email`, `sms`, `messaging` or `link`.' })
  source!: string;

  @Field({ description: "The campaign's name." })
  sourceName!: string;

  @Field({ description: 'The submitted form as JSON text (name, email, phone, message, rating, source, source_id, source_name).' })
  meta!: string;
}

@ObjectType()
export class PrivateFeedbackPage extends Paginated(PrivateFeedbackType, 'PrivateFeedback') {}
