import { Field, Float, GraphQLISODateTime, Int, ObjectType, registerEnumType } from 'type-graphql';
import { SHOWN_LOGO_DESCRIPTION } from '../pages/page-brand.type';
import { PinCountFields, PlaceType, ScanGridFields, SnapshotRowType } from '../scans/scan.type';

/** The shape of src/reports/types.ts (ScanReport), which the page and the PDF are drawn from. */

@ObjectType('ScanReportBrand', { description: "The agency's brand on a public scan report, and the language it speaks (the agency's)." })
export class ScanReportBrandType {
  @Field()
  name!: string;

  /** The agency's stored logo URL; the field answers `shownLogoUrl` of it (ScanReportBrandResolver). */
  @Field(() => String, { nullable: true, description: SHOWN_LOGO_DESCRIPTION })
  logoUrl!: string | null;

  @Field(() => String, { nullable: true, description: '`#rrggbb`; null: the default.' })
  color!: string | null;

  @Field()
  language!: string;
}

@ObjectType('ScanReportScan')
export class ScanReportScanType extends ScanGridFields {
  @Field()
  uuid!: string;

  @Field()
  location!: string;

  @Field(() => String, { nullable: true })
  address!: string | null;

  @Field({ description: '`gbp` or `sab`.' })
  type!: string;

  @Field(() => Float)
  lat!: number;

  @Field(() => Float)
  lng!: number;
}

@ObjectType('ScanReportPin')
export class ScanReportPinType {
  @Field(() => Float)
  lat!: number;

  @Field(() => Float)
  lng!: number;

  @Field(() => Int, { nullable: true, description: "The business's rank at this pin; null when it is not in the top 20." })
  rank!: number | null;

  @Field()
  status!: string;

  @Field(() => [PlaceType], { description: 'The top results at this pin, best first.' })
  top!: PlaceType[];
}

@ObjectType('ScanReportSummary')
export class ScanReportSummaryType {
  @Field(() => Float)
  averageRank!: number;

  @Field(() => Int)
  top3!: number;

  @Field(() => Int)
  top4to10!: number;

  @Field(() => Int)
  top11to20!: number;

  @Field(() => Int)
  notRanking!: number;

  @Field(() => Int)
  totalPins!: number;

  @Field(() => Float)
  visibilityScore!: number;

  @Field(() => Float, { nullable: true, description: 'Average-rank difference to the previous snapshot (negative = better); null for the first.' })
  changeFromPrevious!: number | null;

  @Field(() => GraphQLISODateTime, { nullable: true })
  previousSnapshotAt!: Date | null;
}

@ObjectType('ScanReportCompetitor')
export class ScanReportCompetitorType {
  @Field()
  name!: string;

  @Field(() => Float)
  avgRank!: number;

  @Field(() => Int, { description: 'Pins where the business is in the top 20.' })
  appearances!: number;

  @Field(() => Float, { description: 'appearances / pins, percent (1 decimal).' })
  coverage!: number;

  @Field(() => Float)
  threatScore!: number;
}

@ObjectType('ScanReportCell', { description: 'A pin at its place in the grid: column x (west to east), row y (north to south), from 0.' })
export class ScanReportCellType {
  @Field(() => Int)
  x!: number;

  @Field(() => Int)
  y!: number;

  @Field(() => Int, { nullable: true })
  rank!: number | null;

  @Field()
  status!: string;
}

@ObjectType('ScanReportHeatmap')
export class ScanReportHeatmapType {
  @Field(() => SnapshotRowType)
  snapshot!: SnapshotRowType;

  @Field(() => Int)
  size!: number;

  @Field(() => [ScanReportCellType])
  cells!: ScanReportCellType[];
}

@ObjectType('ScanReportTrendPoint')
export class ScanReportTrendPointType {
  @Field(() => Float, { nullable: true })
  avgRank!: number | null;

  @Field(() => Float, { nullable: true })
  visibility!: number | null;
}

@ObjectType('ScanReportCompetitorTrend')
export class ScanReportCompetitorTrendType {
  @Field()
  placeId!: string;

  @Field()
  name!: string;

  @Field(() => [ScanReportTrendPointType], { description: 'One point per trend snapshot (oldest first); nulls where it did not appear.' })
  points!: ScanReportTrendPointType[];
}

@ObjectType('ScanReportChangedCell')
export class ScanReportChangedCellType extends ScanReportCellType {
  @Field(() => Int, { nullable: true })
  previousRank!: number | null;

  @Field({ description: '`gained`, `lost` or `same`.' })
  change!: 'gained' | 'lost' | 'same';
}

@ObjectType('ScanReportChanges', { description: 'Pin by pin against the snapshot before the shown one.' })
export class ScanReportChangesType extends PinCountFields {
  @Field(() => GraphQLISODateTime)
  previousSnapshotAt!: Date;

  @Field(() => [ScanReportChangedCellType])
  cells!: ScanReportChangedCellType[];
}

@ObjectType('ScanReportOvertaker')
export class ScanReportOvertakerType {
  @Field()
  name!: string;

  @Field(() => Int)
  pins!: number;
}

@ObjectType('ScanReportHistory', { description: "The keyword's snapshots up to the shown one: heat maps, pin changes and competitors over time." })
export class ScanReportHistoryType {
  @Field(() => Int)
  size!: number;

  @Field(() => [ScanReportHeatmapType])
  heatmaps!: ScanReportHeatmapType[];

  @Field(() => [SnapshotRowType])
  trend!: SnapshotRowType[];

  @Field(() => [ScanReportCompetitorTrendType])
  competitors!: ScanReportCompetitorTrendType[];

  @Field(() => ScanReportChangesType, { nullable: true })
  changes!: ScanReportChangesType | null;

  @Field(() => [ScanReportOvertakerType])
  overtakers!: ScanReportOvertakerType[];
}

@ObjectType('ScanReport', { description: 'What the public scan report shows for one keyword and one snapshot of a scan.' })
export class ScanReportType {
  @Field(() => ScanReportBrandType)
  brand!: ScanReportBrandType;

  @Field(() => ScanReportScanType)
  scan!: ScanReportScanType;

  @Field()
  keyword!: string;

  @Field(() => [SnapshotRowType], { description: "This keyword's completed snapshots, newest first." })
  snapshots!: SnapshotRowType[];

  @Field(() => SnapshotRowType, { nullable: true, description: 'The shown snapshot; null before the first one.' })
  snapshot!: SnapshotRowType | null;

  @Field(() => [ScanReportPinType])
  pins!: ScanReportPinType[];

  @Field(() => ScanReportSummaryType, { nullable: true })
  summary!: ScanReportSummaryType | null;

  @Field(() => [ScanReportCompetitorType])
  competitors!: ScanReportCompetitorType[];

  @Field(() => ScanReportHistoryType, { nullable: true })
  history!: ScanReportHistoryType | null;
}

export enum ScanReportProblem {
  SCAN = 'scan',
  KEYWORD = 'keyword',
  SNAPSHOT = 'snapshot',
  SNAPSHOT_AT = 'snapshot_at',
}
registerEnumType(ScanReportProblem, { name: 'ScanReportProblem', description: 'Why a scan report cannot be shown: no such scan, keyword or snapshot, or a malformed `snapshot_at`.' });

@ObjectType('ScanReportPage', { description: 'The public scan report of a scan UUID (the share key), or why it cannot be shown.' })
export class ScanReportPageType {
  @Field(() => ScanReportType, { nullable: true })
  report!: ScanReportType | null;

  @Field(() => ScanReportProblem, { nullable: true })
  problem!: ScanReportProblem | null;

  @Field(() => ScanReportBrandType, { nullable: true, description: "With a problem: the scan tenant's brand when the scan exists (the error page is white-label too)." })
  brand!: ScanReportBrandType | null;
}
