import { Authorized, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import type { ReviewSource } from '../../models';
import * as reference from '../../services/reference.service';
import { sourceLogoUrl } from '../urls';
import { CountryType, ReviewSourceType, UserType } from './reference.type';

@Authorized()
@Resolver(() => ReviewSourceType)
export class ReferenceResolver {
  @Query(() => [ReviewSourceType], { description: 'The review-source catalogue.' })
  sources() {
    return reference.sources();
  }

  @Query(() => [CountryType], { description: 'ISO 3166-1 countries.' })
  countries() {
    return reference.countries();
  }

  @Query(() => UserType, { description: 'The user the token belongs to.' })
  me(@Ctx() ctx: Context) {
    return reference.me(ctx.principal!);
  }

  @FieldResolver(() => String)
  logo(@Root() source: ReviewSource, @Ctx() ctx: Context): string {
    return sourceLogoUrl(ctx.baseUrl, source.slug);
  }
}
