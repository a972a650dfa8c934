import { Arg, Args, Authorized, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { CUSTOMER_TOKENS } from '../auth-checker';
import type { Scan } from '../../models';
import { tenantLinkBase } from '../../services/link-domain.service';
import * as scans from '../../services/scans.service';
import { CreateScanInput, DataPointArgs, ScanListArgs, SetScanScheduleInput, UpdateScanInput } from './scan.input';
import { DataPointPageType, InsightsType, RunStartedType, ScanDetailType, PinChangesType, ScanCostType, ScanPage, ScanRunType, ScanType, ScheduleType, SnapshotRowType } from './scan.type';

/**
 * Undefined-vs-null: GraphQL hands absent optional fields as undefined, which the update rules need
 * (`address: null` clears, absent keeps).
 */
const present = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** Local Search Grid scans (agency): the service lets only tenant owners in (FORBIDDEN otherwise). */
// Customer tokens: organizations:read, and for changes organizations:update as well (the answer's fields are read
// under the class's rule, so a change the token could not read back would be made and then refused).
@Authorized(CUSTOMER_TOKENS, 'organizations:read')
@Resolver(() => ScanType)
export class ScanResolver {
  @Query(() => ScanPage, { description: "The tenant's scans, newest first." })
  scans(@Args() args: ScanListArgs, @Ctx() ctx: Context) {
    return scans.listScans(ctx.principal!, args, { clock: ctx.clock });
  }

  @Query(() => ScanDetailType)
  scan(
    @Arg('uuid') uuid: string,
    @Arg('snapshotAt', () => String, { nullable: true }) snapshotAt: string | null,
    @Arg('topN', () => Int, { nullable: true }) topN: number | null,
    @Ctx() ctx: Context,
  ) {
    return scans.scanDetail(ctx.principal!, uuid, { snapshotAt, topN });
  }

  @Query(() => DataPointPageType)
  scanDataPoints(@Args() args: DataPointArgs, @Ctx() ctx: Context) {
    return scans.dataPoints(ctx.principal!, args.uuid, args);
  }

  @Query(() => [SnapshotRowType])
  scanSnapshots(@Arg('uuid') uuid: string, @Arg('keyword', () => String, { nullable: true }) keyword: string | null, @Ctx() ctx: Context) {
    return scans.listSnapshots(ctx.principal!, uuid, { keyword });
  }

  @Query(() => InsightsType)
  scanInsights(
    @Arg('uuid') uuid: string,
    @Arg('keyword', () => String, { nullable: true }) keyword: string | null,
    @Arg('snapshotAt', () => String, { nullable: true }) snapshotAt: string | null,
    @Ctx() ctx: Context,
  ) {
    return scans.scanInsights(ctx.principal!, uuid, { keyword, snapshotAt });
  }

  @Query(() => ScanRunType, { description: 'One run of a scan by its id (createScan/runScan): status and progress.' })
  scanRun(@Arg('id') id: string, @Ctx() ctx: Context) {
    return scans.scanRun(ctx.principal!, id);
  }

  @Query(() => PinChangesType, { description: "Pin by pin, a keyword's snapshot against an earlier one (default: the latest and the one before)." })
  scanPinChanges(
    @Arg('uuid') uuid: string,
    @Arg('keyword', () => String, { nullable: true }) keyword: string | null,
    @Arg('snapshotAt', () => String, { nullable: true }) snapshotAt: string | null,
    @Arg('compareTo', () => String, { nullable: true }) compareTo: string | null,
    @Ctx() ctx: Context,
  ) {
    return scans.pinChanges(ctx.principal!, uuid, { keyword, snapshotAt, compareTo });
  }

  @Query(() => ScanCostType, { description: 'What creating this scan would cost (the create rules, no provider call); nothing is created.' })
  scanCost(@Arg('input') input: CreateScanInput, @Ctx() ctx: Context) {
    return scans.scanCost(ctx.principal!, input);
  }

  @Query(() => ScheduleType)
  scanSchedule(@Arg('uuid') uuid: string, @Ctx() ctx: Context) {
    return scans.getSchedule(ctx.principal!, uuid);
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:read', 'organizations:update')
  @Mutation(() => RunStartedType, { description: 'Creates a scan, generates its pins and queues the first snapshot.' })
  createScan(@Arg('input') input: CreateScanInput, @Ctx() ctx: Context) {
    return scans.createScan(ctx.principal!, input, { clock: ctx.clock });
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:read', 'organizations:update')
  @Mutation(() => RunStartedType, { description: 'Queues a new snapshot (409 while one runs).' })
  runScan(@Arg('uuid') uuid: string, @Ctx() ctx: Context) {
    return scans.runScanNow(ctx.principal!, uuid, { clock: ctx.clock });
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:read', 'organizations:update')
  @Mutation(() => ScanType)
  updateScan(@Arg('uuid') uuid: string, @Arg('input') input: UpdateScanInput, @Ctx() ctx: Context) {
    return scans.updateScan(ctx.principal!, uuid, present(input), { clock: ctx.clock });
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:read', 'organizations:update')
  @Mutation(() => ScanType)
  archiveScan(@Arg('uuid') uuid: string, @Ctx() ctx: Context) {
    return scans.archiveScan(ctx.principal!, uuid, { clock: ctx.clock });
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:read', 'organizations:update')
  @Mutation(() => ScanType)
  restoreScan(@Arg('uuid') uuid: string, @Ctx() ctx: Context) {
    return scans.restoreScan(ctx.principal!, uuid, { clock: ctx.clock });
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:read', 'organizations:update')
  @Mutation(() => ScheduleType)
  setScanSchedule(@Arg('uuid') uuid: string, @Arg('input') input: SetScanScheduleInput, @Ctx() ctx: Context) {
    return scans.setSchedule(ctx.principal!, uuid, input, { clock: ctx.clock });
  }

  @FieldResolver(() => String)
  keyword(@Root() scan: Scan): string {
    return scan.keywords[0] ?? '';
  }

  @FieldResolver(() => String)
  async reportUrl(@Root() scan: Scan): Promise<string> {
    return scans.reportUrlOf(scan.uuid, {}, 'html', await tenantLinkBase(scan.tenantId));
  }
}
