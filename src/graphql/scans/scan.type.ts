import { Field, Float, GraphQLISODateTime, InputType, Int, ObjectType } from 'type-graphql';
import { Paginated } from '../common';

/** The grid a scan draws: the same fields in a scan and in the input that creates one (a base class: type-graphql emits only the types a resolver reaches). */
@ObjectType('ScanGridBase')
@InputType('ScanGridBaseInput')
export abstract class ScanGridFields {
  @Field(() => [String])
  keywords!: string[];

  @Field(() => Int)
  gridSize!: number;

  @Field(() => Float)
  distance!: number;

  @Field({ description: '`km` or `miles`.' })
  distanceUnit!: string;
}

/** Pins that gained, lost or kept their rank against the snapshot before: the pin changes and the scan report's. */
@ObjectType('ScanPinCountsBase')
export abstract class PinCountFields {
  @Field(() => Int)
  gained!: number;

  @Field(() => Int)
  lost!: number;

  @Field(() => Int)
  same!: number;
}

@ObjectType('Scan', { description: 'A Local Search Grid scan: an N x N grid of pins ranked for keywords.' })
export class ScanType extends ScanGridFields {
  @Field()
  uuid!: string;

  @Field({ description: 'Display name of the scanned business.' })
  location!: string;

  @Field({ description: 'The primary (first) keyword.' })
  keyword!: string;

  @Field({ description: '`business` or `sab`.' })
  type!: string;

  @Field(() => String, { nullable: true })
  address!: string | null;

  @Field(() => String, { nullable: true })
  targetPlaceId!: string | null;

  @Field(() => Float)
  lat!: number;

  @Field(() => Float)
  lng!: number;

  @Field()
  isScheduled!: boolean;

  @Field()
  isRunning!: boolean;

  @Field()
  lastRunFailed!: boolean;

  @Field(() => GraphQLISODateTime, { nullable: true })
  lastRunAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  nextRunAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  archivedAt!: Date | null;

  @Field()
  reportUrl!: string;

  @Field(() => GraphQLISODateTime)
  createdAt!: Date;

  @Field(() => GraphQLISODateTime)
  updatedAt!: Date;
}

@ObjectType()
export class ScanPage extends Paginated(ScanType, 'Scan') {}

@ObjectType('ScanRunStarted')
export class RunStartedType {
  @Field()
  uuid!: string;

  @Field({ description: 'The run this call queued (read it with scanRun).' })
  runId!: string;

  @Field(() => GraphQLISODateTime, { description: 'When the run starts (later than now for a staggered first run).' })
  startedAt!: Date;

  @Field()
  isRunning!: boolean;
}

@ObjectType('ScanScheduleCost')
export class ScanScheduleCostType {
  @Field({ description: '`weekly`, `bi-weekly` or `monthly`.' })
  frequency!: string;

  @Field(() => Int)
  runsPerYear!: number;

  @Field(() => Int)
  creditsPerYear!: number;
}

@ObjectType('ScanCost', { description: 'What a scan would cost, one credit per pin search (pin x keyword).' })
export class ScanCostType {
  @Field(() => Int)
  pins!: number;

  @Field(() => Int)
  keywords!: number;

  @Field(() => Int)
  creditsPerRun!: number;

  @Field(() => [ScanScheduleCostType], { description: 'The yearly cost of scheduling it at each frequency.' })
  schedules!: ScanScheduleCostType[];
}

@ObjectType('ScanPinChange', { description: "One pin: the business's rank in the snapshot and in the earlier one, and who moved past whom." })
export class PinChangeType {
  @Field(() => Float)
  lat!: number;

  @Field(() => Float)
  lng!: number;

  @Field(() => Int, { nullable: true, description: 'null: not in the top 20.' })
  rank!: number | null;

  @Field(() => Int, { nullable: true })
  previousRank!: number | null;

  @Field({ description: '`gained`, `lost` or `same`.' })
  change!: string;

  @Field(() => [PlaceType], { description: 'Competitors now above the business at this pin that were not before.' })
  overtakenBy!: PlaceType[];

  @Field(() => [PlaceType], { description: 'Competitors that were above the business here and no longer are.' })
  overtook!: PlaceType[];
}

@ObjectType('ScanPinChanges')
export class PinChangesType extends PinCountFields {
  @Field()
  scanUuid!: string;

  @Field()
  keyword!: string;

  @Field(() => GraphQLISODateTime, { nullable: true })
  snapshotAt!: Date | null;

  @Field(() => GraphQLISODateTime, { nullable: true, description: 'The snapshot compared with; null when there is none.' })
  previousSnapshotAt!: Date | null;

  @Field(() => [PinChangeType])
  pins!: PinChangeType[];
}

@ObjectType('ScanProgress')
export class ScanProgressType {
  @Field(() => Int, { description: 'Pin searches done so far, over every keyword.' })
  pinsDone!: number;

  @Field(() => Int, { description: "The run's pin searches: pins x keywords." })
  pinsTotal!: number;
}

@ObjectType('ScanRun', { description: 'One run of a scan: a snapshot per keyword, queued together.' })
export class ScanRunType {
  @Field()
  id!: string;

  @Field()
  scanUuid!: string;

  @Field({ description: '`running`, `completed` or `failed`.' })
  status!: string;

  @Field(() => GraphQLISODateTime, { description: "The run's snapshot time (its planned start)." })
  snapshotAt!: Date;

  @Field(() => GraphQLISODateTime)
  queuedAt!: Date;

  @Field(() => GraphQLISODateTime)
  lastUpdatedAt!: Date;

  @Field(() => String, { nullable: true, description: 'Why the run failed; null unless failed.' })
  error!: string | null;

  @Field(() => Int, { description: 'Pins searched so far, over every keyword.' })
  pinsDone!: number;

  @Field(() => Int, { description: 'Pins to search: pins x keywords.' })
  pinsTotal!: number;
}

@ObjectType('ScanPlace')
export class PlaceType {
  @Field()
  placeId!: string;

  @Field()
  name!: string;

  @Field(() => Int)
  rank!: number;
}

@ObjectType('ScanPinResult')
export class PinResultType {
  @Field(() => Float)
  lat!: number;

  @Field(() => Float)
  lng!: number;

  @Field(() => Int, { nullable: true, description: "The target's rank; null when it is not in the top 20." })
  rank!: number | null;

  @Field()
  keyword!: string;

  @Field()
  status!: string;

  @Field(() => GraphQLISODateTime)
  snapshotAt!: Date;

  @Field(() => [PlaceType])
  topResults!: PlaceType[];
}

@ObjectType('ScanSummary')
export class SummaryType {
  @Field(() => Float)
  averageRank!: number;

  @Field(() => Int)
  top3Count!: number;

  @Field(() => Int)
  top4To10Count!: number;

  @Field(() => Int)
  notRankingCount!: number;
}

@ObjectType('ScanDetail')
export class ScanDetailType {
  @Field(() => ScanType)
  scan!: ScanType;

  @Field(() => ScanProgressType, { nullable: true, description: 'While a run goes: pin searches done and in all; null when idle.' })
  progress!: ScanProgressType | null;

  @Field(() => SummaryType, { nullable: true })
  summary!: SummaryType | null;

  @Field()
  reportUrl!: string;

  @Field(() => [GraphQLISODateTime], { description: 'Completed snapshot times, newest first.' })
  availableSnapshots!: Date[];

  @Field(() => [PinResultType])
  results!: PinResultType[];
}

/** The standard page of pins, plus the snapshot it was read from. */
@ObjectType('ScanDataPointPage')
export class DataPointPageType extends Paginated(PinResultType, 'ScanDataPointBase') {
  @Field()
  scanUuid!: string;

  @Field(() => GraphQLISODateTime, { nullable: true })
  snapshotAt!: Date | null;

  @Field(() => String, { nullable: true })
  keyword!: string | null;

  @Field(() => Int)
  topN!: number;
}

@ObjectType('ScanSnapshot')
export class SnapshotRowType {
  @Field(() => GraphQLISODateTime)
  snapshotAt!: Date;

  @Field()
  label!: string;

  @Field()
  shortLabel!: string;

  @Field()
  monthYear!: string;

  @Field(() => Float)
  avgRank!: number;

  @Field(() => Float)
  changeFromPrevious!: number;

  @Field(() => Int)
  top3Count!: number;

  @Field(() => Int)
  top10Count!: number;

  @Field(() => Int)
  belowTop10Count!: number;

  @Field(() => Int)
  notRankingCount!: number;

  @Field(() => Int)
  totalPins!: number;

  @Field(() => Float)
  visibilityScore!: number;

  @Field({
    description:
      'False when the snapshot has no figures of the business: it was taken while the scan had no business to track (target_place_id), or the scan tracks none now. Its rank figures then read 0, which is no rank.',
  })
  ranked!: boolean;
}

@ObjectType('ScanInsightSummary')
export class InsightSummaryType {
  @Field(() => Float)
  avgRank!: number;

  @Field(() => Float)
  visibilityScore!: number;

  @Field(() => Int)
  top3!: number;

  @Field(() => Int)
  top10!: number;

  @Field(() => Int)
  notRanking!: number;

  @Field(() => Int)
  totalPins!: number;
}

@ObjectType('ScanTrendVsFirst')
export class TrendVsFirstType {
  @Field(() => GraphQLISODateTime)
  firstSnapshotAt!: Date;

  @Field(() => Float)
  startAvg!: number;

  @Field(() => Float)
  currentAvg!: number;

  @Field(() => Float)
  change!: number;

  @Field()
  improved!: boolean;

  @Field(() => Float)
  percentChange!: number;
}

@ObjectType('ScanTrendVsPrevious')
export class TrendVsPreviousType {
  @Field(() => GraphQLISODateTime)
  previousSnapshotAt!: Date;

  @Field(() => Float)
  avgRankChange!: number;

  @Field(() => Float)
  visibilityChange!: number;

  @Field(() => Int)
  top3Change!: number;

  @Field(() => Int)
  top10Change!: number;
}

@ObjectType('ScanRegionStrength')
export class RegionStrengthType {
  @Field()
  label!: string;

  @Field(() => Int)
  pins!: number;

  @Field(() => Float)
  avgRank!: number;

  @Field(() => Float)
  visibility!: number;

  @Field(() => Float)
  coverage!: number;
}

@ObjectType('ScanCompetitor')
export class CompetitorType {
  @Field()
  placeId!: string;

  @Field()
  name!: string;

  @Field(() => Float)
  avgRank!: number;

  @Field(() => Float)
  visibility!: number;

  @Field(() => Float)
  threatScore!: number;

  @Field(() => Int)
  pinsAhead!: number;
}

@ObjectType('ScanRecommendation')
export class RecommendationType {
  @Field({ description: 'not_ranking, weak_area, competitor_threat, declining, expand_radius or maintain_lead.' })
  type!: string;

  @Field()
  icon!: string;

  @Field()
  title!: string;

  @Field()
  description!: string;
}

@ObjectType('ScanInsights')
export class InsightsType {
  @Field()
  scanUuid!: string;

  @Field(() => GraphQLISODateTime, { nullable: true })
  snapshotAt!: Date | null;

  @Field()
  keyword!: string;

  @Field(() => InsightSummaryType, { nullable: true })
  summary!: InsightSummaryType | null;

  @Field(() => TrendVsFirstType, { nullable: true })
  trendsVsFirstSnapshot!: TrendVsFirstType | null;

  @Field(() => TrendVsPreviousType, { nullable: true })
  trendsVsPreviousSnapshot!: TrendVsPreviousType | null;

  @Field(() => [RegionStrengthType])
  geographicStrength!: RegionStrengthType[];

  @Field(() => [CompetitorType])
  topCompetitors!: CompetitorType[];

  @Field(() => [RecommendationType])
  recommendations!: RecommendationType[];
}

@ObjectType('ScanSchedule')
export class ScheduleType {
  @Field()
  uuid!: string;

  @Field()
  isScheduled!: boolean;

  @Field(() => String, { nullable: true })
  frequency!: string | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  nextRunAt!: Date | null;

  @Field(() => String, { nullable: true })
  scheduledFrom!: string | null;

  @Field(() => String, { nullable: true })
  scheduledTo!: string | null;

  @Field(() => [Int])
  scheduledDays!: number[];

  @Field(() => String, { nullable: true })
  timezone!: string | null;
}
