import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

@ObjectType('Organization')
export class OrganizationType {
  @Field(() => Int)
  id!: number;

  @Field()
  name!: string;

  @Field(() => Int, { nullable: true })
  defaultLocationId!: number | null;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType()
export class OrganizationPage extends Paginated(OrganizationType, 'Organization') {}
