import { MinLength } from 'class-validator';
import { Arg, Authorized, Ctx, Field, FieldResolver, InputType, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import type { Integration } from '../../models';
import * as integrations from '../../services/integrations.service';
import { sourceLogoUrl } from '../urls';
import { MaxChars, msg } from '../validation';

@ObjectType('Integration', { description: 'A review source attached to a location.' })
export class IntegrationType {
  @Field(() => Int)
  id!: number;

  @Field()
  name!: string;

  @Field({ description: '`synced`, `testimonials` or `custom`.' })
  type!: string;

  @Field(() => Int)
  organizationId!: number;

  @Field(() => Int)
  locationId!: number;

  @Field(() => String, { nullable: true, description: 'Id of the business or page at a synced platform.' })
  externalId!: string | null;
}

@InputType()
export class CreateCustomSourceInput {
  @Field(() => Int)
  locationId!: number;

  @Field()
  @MinLength(1, msg.required('name'))
  @MaxChars(255, 'name')
  name!: string;
}

@Authorized()
@Resolver(() => IntegrationType)
export class IntegrationResolver {
  @Authorized('reviews:read')
  @Query(() => [IntegrationType], { description: 'Sources attached to a location.' })
  integrations(@Arg('locationId', () => Int) locationId: number, @Ctx() ctx: Context) {
    return integrations.listForLocation(ctx.principal!, locationId);
  }

  @Authorized('reviews:read', 'reviews:create')
  @Mutation(() => IntegrationType, { description: 'Attaches a custom written source (e.g. imported reviews) to a location.' })
  createCustomSource(@Arg('input') input: CreateCustomSourceInput, @Ctx() ctx: Context) {
    return integrations.createWritable(ctx.principal!, { locationId: input.locationId, sourceSlug: 'custom', name: input.name });
  }

  @FieldResolver(() => String)
  async logo(@Root() integration: Integration, @Ctx() ctx: Context): Promise<string> {
    const source = await ctx.loaders.source.load(integration.sourceId);
    return sourceLogoUrl(ctx.baseUrl, source?.slug ?? 'custom');
  }
}
