import { Field, Int, ObjectType } from 'type-graphql';
import { PageBrandType } from '../pages/page-brand.type';

@ObjectType('UnsubscribePage', { description: 'What the unsubscribe link of a review request (`/u/{token}`) shows.' })
export class UnsubscribePageType {
  @Field(() => PageBrandType)
  brand!: PageBrandType;

  @Field({ description: 'Who the person heard from: the organisation of the contact list, else of a campaign using it, else the account.' })
  businessName!: string;

  @Field({ description: 'The contact is unsubscribed already.' })
  unsubscribed!: boolean;
}

@ObjectType('Unsubscribed', { description: 'The outcome of an unsubscribe link (idempotent).' })
export class UnsubscribedType {
  @Field(() => PageBrandType)
  brand!: PageBrandType;

  @Field()
  businessName!: string;

  @Field({ description: 'Contact UUID.' })
  contactId!: string;

  @Field({ description: 'It was unsubscribed already: nothing changed.' })
  already!: boolean;

  @Field(() => Int, { description: 'Waiting invites canceled now.' })
  canceled!: number;
}
