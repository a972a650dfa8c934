import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType('ReviewSource', { description: 'A review platform of the catalogue.' })
export class ReviewSourceType {
  @Field(() => Int)
  id!: number;

  @Field()
  slug!: string;

  @Field()
  name!: string;

  @Field()
  url!: string;

  @Field()
  kind!: string;

  @Field()
  available!: boolean;

  @Field()
  canCollectReviews!: boolean;

  @Field()
  deepLinkingSupported!: boolean;
}

@ObjectType('Country')
export class CountryType {
  @Field({ description: 'ISO 3166-1 alpha-2 code.' })
  id!: string;

  @Field()
  name!: string;
}

@ObjectType('User')
export class UserType {
  @Field(() => Int)
  id!: number;

  @Field()
  name!: string;

  @Field()
  email!: string;

  @Field()
  role!: string;
}
