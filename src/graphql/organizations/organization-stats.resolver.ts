import { Ctx, Field, FieldResolver, Float, Int, ObjectType, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import type { Organization } from '../../models';
import type { OrganizationStats } from '../../services/organization-stats.service';
import { OrganizationType } from './organization.type';

@ObjectType('StarDistribution', { description: 'Reviews per star rating.' })
class StarDistributionType {
  @Field(() => Int) five!: number;
  @Field(() => Int) four!: number;
  @Field(() => Int) three!: number;
  @Field(() => Int) two!: number;
  @Field(() => Int) one!: number;
}

@ObjectType('OrganizationStats', { description: 'Review totals over the reviews the caller may see.' })
class OrganizationStatsType {
  @Field(() => Int) reviewCount!: number;
  @Field(() => Float, { nullable: true, description: 'Mean rating, two decimals; null without reviews.' }) averageRating!: number | null;
  @Field(() => StarDistributionType) starDistribution!: StarDistributionType;
}

@Resolver(() => OrganizationType)
export class OrganizationStatsResolver {
  @FieldResolver(() => OrganizationStatsType, {
    nullable: true,
    description: 'Review totals; null when the token lacks reviews:read (review figures are review data).',
  })
  stats(@Root() org: Organization, @Ctx() ctx: Context): Promise<OrganizationStats> | null {
    const principal = ctx.principal;
    if (!principal || !principal.permissions.has('reviews:read')) return null;
    return ctx.loaders.organizationStats.load(org.id); // one query for a page of organisations
  }
}
