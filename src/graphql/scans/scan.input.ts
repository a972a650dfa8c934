import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ArgsType, Field, Float, InputType, Int } from 'type-graphql';
import { PageArgs } from '../common';
import { msg } from '../validation';
import { ScanGridFields } from './scan.type';

@ArgsType()
export class ScanListArgs extends PageArgs {
  @Field(() => Int, { defaultValue: 20 })
  @IsInt()
  @Min(1, msg.between('per page', 1, 100))
  @Max(100, msg.between('per page', 1, 100))
  perPage!: number;

  @Field(() => String, { nullable: true, description: 'Free text over location and keywords.' })
  search?: string | null;

  @Field(() => Boolean, { nullable: true })
  isScheduled?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Only scans with (true) / without (false) a completed snapshot.' })
  completed?: boolean | null;

  @Field(() => Boolean, { nullable: true, description: 'Only scans whose last run failed (true) / did not (false).' })
  failed?: boolean | null;

  @Field(() => Int, { nullable: true, description: 'Only scans created in the last N days (1-365).' })
  @IsOptional()
  @IsInt()
  @Min(1, msg.between('since days', 1, 365))
  @Max(365, msg.between('since days', 1, 365))
  sinceDays?: number | null;

  @Field(() => Boolean, { nullable: true })
  archivedOnly?: boolean | null;

  @Field(() => Boolean, { nullable: true })
  includeArchived?: boolean | null;
}

@ArgsType()
export class DataPointArgs extends PageArgs {
  @Field(() => Int, { defaultValue: 100 })
  @IsInt()
  @Min(1, msg.between('per page', 1, 500))
  @Max(500, msg.between('per page', 1, 500))
  perPage!: number;

  @Field()
  uuid!: string;

  @Field(() => String, { nullable: true })
  snapshotAt?: string | null;

  @Field(() => String, { nullable: true })
  keyword?: string | null;

  @Field(() => Int, { nullable: true, description: '0-20, default 5; 0 gives lat, lng and the target rank only.' })
  topN?: number | null;
}

@InputType()
export class CreateScanInput extends ScanGridFields {
  @Field()
  location!: string;

  @Field(() => String, { nullable: true })
  address?: string | null;

  @Field(() => String, { nullable: true })
  type?: string | null;

  @Field(() => String, { nullable: true })
  targetPlaceId?: string | null;

  @Field(() => Float, { nullable: true })
  lat?: number | null;

  @Field(() => Float, { nullable: true })
  lng?: number | null;

  @Field(() => Int, { nullable: true, description: 'A location of the tenant the scan belongs to (optional).' })
  locationId?: number | null;
}

@InputType()
export class UpdateScanInput {
  @Field(() => String, { nullable: true })
  location?: string | null;

  @Field(() => String, { nullable: true })
  address?: string | null;

  @Field(() => [String], { nullable: true })
  keywords?: string[] | null;

  @Field(() => String, { nullable: true })
  targetPlaceId?: string | null;

  @Field(() => String, { nullable: true })
  type?: string | null;

  @Field(() => Int, { nullable: true })
  gridSize?: number | null;

  @Field(() => Float, { nullable: true })
  distance?: number | null;

  @Field(() => String, { nullable: true })
  distanceUnit?: string | null;

  @Field(() => Float, { nullable: true })
  lat?: number | null;

  @Field(() => Float, { nullable: true })
  lng?: number | null;

  @Field(() => Boolean, { nullable: true })
  regeneratePins?: boolean | null;
}

@InputType()
export class SetScanScheduleInput {
  @Field()
  isScheduled!: boolean;

  @Field(() => String, { nullable: true })
  frequency?: string | null;

  @Field(() => String, { nullable: true })
  scheduledFrom?: string | null;

  @Field(() => String, { nullable: true })
  scheduledTo?: string | null;

  @Field(() => [Int], { nullable: true })
  scheduledDays?: number[] | null;

  @Field(() => String, { nullable: true })
  timezone?: string | null;
}
