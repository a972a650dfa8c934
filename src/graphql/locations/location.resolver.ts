import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import * as locations from '../../services/locations.service';
import { Deleted } from '../common';
import { CreateLocationInput, LocationListArgs, UpdateLocationInput } from './location.input';
import { LocationPage, LocationType } from './location.type';

@Authorized()
@Resolver(() => LocationType)
export class LocationResolver {
  @Authorized('organizations:read')
  @Query(() => LocationPage, { description: 'Visible locations, ordered by organisation.' })
  locations(@Args() args: LocationListArgs, @Ctx() ctx: Context) {
    return locations.list(ctx.principal!, args);
  }

  @Authorized('organizations:read')
  @Query(() => LocationType)
  location(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return locations.get(ctx.principal!, id);
  }

  @Authorized('organizations:create')
  @Mutation(() => LocationType)
  createLocation(@Arg('input') input: CreateLocationInput, @Ctx() ctx: Context) {
    return locations.create(ctx.principal!, input, { clock: ctx.clock });
  }

  @Authorized('organizations:update')
  @Mutation(() => LocationType)
  updateLocation(@Arg('id', () => Int) id: number, @Arg('input') input: UpdateLocationInput, @Ctx() ctx: Context) {
    return locations.update(ctx.principal!, id, input, { clock: ctx.clock });
  }

  @Authorized('organizations:delete')
  @Mutation(() => Deleted)
  async deleteLocation(@Arg('id', () => Int) id: number, @Ctx() ctx: Context): Promise<Deleted> {
    await locations.remove(ctx.principal!, id, { clock: ctx.clock });
    return { id, message: 'Location deleted successfully.' };
  }
}
