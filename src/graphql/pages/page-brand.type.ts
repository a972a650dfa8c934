import { Field, ObjectType } from 'type-graphql';

@ObjectType('PageBrand', { description: "The agency's brand (white label) a public page wears, and the language the page speaks." })
export class PageBrandType {
  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  logoUrl!: string | null;

  @Field({ description: 'ISO 639-1: the account\'s language, else the agency\'s.' })
  language!: string;
}
