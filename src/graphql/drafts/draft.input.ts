import { IsIn, IsOptional } from 'class-validator';
import { ArgsType, Field, InputType, Int } from 'type-graphql';
import { REPLY_DRAFT_STATES } from '../../models/reply-draft.model';
import { PageArgs, perPageField } from '../common';

@ArgsType()
export class ReplyDraftListArgs extends PageArgs {
  @perPageField(10)
  perPage!: number;

  @Field(() => String, { nullable: true, defaultValue: 'pending', description: '`pending` (default), `approved`, `rejected`; null: every state.' })
  @IsOptional()
  @IsIn([...REPLY_DRAFT_STATES], { message: 'The status must be pending, approved or rejected.' })
  status?: 'pending' | 'approved' | 'rejected' | null;

  @Field(() => Int, { nullable: true })
  organizationId?: number | null;

  @Field(() => Int, { nullable: true })
  locationId?: number | null;

  @Field(() => Int, { nullable: true })
  reviewId?: number | null;
}

@InputType()
export class ApproveReplyDraftInput {
  @Field(() => String, { nullable: true, description: "The approver's edit of the text (1-8000 characters; at most 4096 can be published)." })
  message?: string | null;
}

@InputType()
export class RejectReplyDraftInput {
  @Field(() => String, { nullable: true, description: 'Why, at most 1000 characters; kept on the draft.' })
  reason?: string | null;
}
