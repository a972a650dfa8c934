import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

@ObjectType('Location')
export class LocationType {
  @Field(() => Int)
  id!: number;

  @Field(() => Int)
  organizationId!: number;

  @Field()
  name!: string;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType()
export class LocationPage extends Paginated(LocationType, 'Location') {}
