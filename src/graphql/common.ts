import { IsInt, Max, Min } from 'class-validator';
import { ArgsType, ClassType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { msg } from './validation';

/** An uploaded file travelling inside the in-process GraphQL call. */
@InputType()
export class FileInput {
  @Field()
  filename!: string;

  @Field({ description: 'File content, base64-encoded.' })
  base64!: string;
}

@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: 1 })
  @IsInt()
  @Min(1, msg.min('page', 1))
  page!: number;
}

/** `perPage` 1-100; each list states its own default (reviews 10, locations 25). */
export function perPageField(defaultValue: number) {
  return (target: object, key: string) => {
    Field(() => Int, { defaultValue })(target, key);
    IsInt()(target, key);
    Min(1, msg.between('per page', 1, 100))(target, key);
    Max(100, msg.between('per page', 1, 100))(target, key);
  };
}

/** A page (10 a page unless asked) of a list that may be narrowed to one organisation or location. */
@ArgsType()
export class ScopedPageArgs extends PageArgs {
  @perPageField(10)
  perPage!: number;

  @Field(() => Int, { nullable: true })
  organizationId?: number | null;

  @Field(() => Int, { nullable: true })
  locationId?: number | null;
}

export function Paginated<T extends object>(itemClass: ClassType<T>, name: string) {
  @ObjectType(`${name}Page`)
  abstract class PageClass {
    @Field(() => [itemClass])
    items!: T[];

    @Field(() => Int)
    total!: number;

    @Field(() => Int)
    page!: number;

    @Field(() => Int)
    perPage!: number;
  }
  return PageClass;
}

@ObjectType()
export class Deleted {
  @Field(() => Int)
  id!: number;

  @Field()
  message!: string;
}
