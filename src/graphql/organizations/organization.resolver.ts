import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import type { Location, Organization } from '../../models';
import * as organizations from '../../services/organizations.service';
import { Deleted } from '../common';
import { LocationType } from '../locations/location.type';
import { fileUrl } from '../urls';
import { CreateOrganizationInput, OrganizationListArgs, UpdateOrganizationInput } from './organization.input';
import { OrganizationPage, OrganizationType } from './organization.type';

@Authorized()
@Resolver(() => OrganizationType)
export class OrganizationResolver {
  @Authorized('organizations:read')
  @Query(() => OrganizationPage)
  organizations(@Args() args: OrganizationListArgs, @Ctx() ctx: Context) {
    return organizations.list(ctx.principal!, args);
  }

  @Authorized('organizations:read')
  @Query(() => OrganizationType)
  organization(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return organizations.get(ctx.principal!, id);
  }

  @Authorized('organizations:create')
  @Mutation(() => OrganizationType, { description: 'Creates an organisation with its Default Location.' })
  createOrganization(@Arg('input') input: CreateOrganizationInput, @Ctx() ctx: Context) {
    return organizations.create(ctx.principal!, input, { clock: ctx.clock });
  }

  @Authorized('organizations:update')
  @Mutation(() => OrganizationType)
  updateOrganization(@Arg('id', () => Int) id: number, @Arg('input') input: UpdateOrganizationInput, @Ctx() ctx: Context) {
    return organizations.update(ctx.principal!, id, input, { clock: ctx.clock });
  }

  @Authorized('organizations:delete')
  @Mutation(() => Deleted)
  async deleteOrganization(@Arg('id', () => Int) id: number, @Ctx() ctx: Context): Promise<Deleted> {
    await organizations.remove(ctx.principal!, id, { clock: ctx.clock });
    return { id, message: 'Organization deleted successfully.' };
  }

  @FieldResolver(() => [LocationType], { description: 'Locations of the organisation the caller can see.' })
  locations(@Root() org: Organization, @Ctx() ctx: Context): Promise<Location[]> {
    return ctx.loaders.locationsByOrganization.load(org.id);
  }

  @FieldResolver(() => String, { nullable: true })
  logo(@Root() org: Organization, @Ctx() ctx: Context): string | null {
    return org.logoFileId ? fileUrl(ctx.baseUrl, org.logoFileId) : null;
  }
}
