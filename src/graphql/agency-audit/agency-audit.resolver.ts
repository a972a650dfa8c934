import { Args, ArgsType, Authorized, Ctx, Field, GraphQLISODateTime, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { CUSTOMER_TOKENS } from '../auth-checker';
import type { AgencyAuditEvent } from '../../models';
import { listAgencyEvents } from '../../services/agency-audit.service';
import { PageArgs, Paginated, perPageField } from '../common';

@ObjectType('AgencyAuditEvent', { description: 'One change on the agency side: who, what, when, under which request, before and after.' })
class AgencyAuditEventType {
  @Field(() => String, { description: 'The row id (a 64-bit integer, as a string).' }) id!: string;
  @Field({ description: 'token.created, token.revoked, customer.created, customer.deleted, customer.plan_changed, customer.location_limit_changed, customer.member_limit_changed, customer.credits_added, customer.paused, customer.resumed, connect_link.created, connect_link.revoked.' })
  action!: string;
  @Field({ description: 'token, customer or connect_link.' }) subjectType!: string;
  @Field({ description: "The subject's id (a connect link: the first 8 characters of its token)." }) subjectId!: string;
  @Field(() => Int, { nullable: true }) customerId!: number | null;
  @Field({ description: 'user (through one of its tokens) or cli (the operator CLI).' }) actorType!: string;
  @Field(() => Int, { nullable: true }) actorUserId!: number | null;
  @Field(() => Int, { nullable: true }) actorTokenId!: number | null;
  @Field({ description: "The user's e-mail, or the CLI and the system user it ran as." }) actorLabel!: string;
  @Field(() => String, { nullable: true, description: 'The X-Request-Id of the request that made the change.' }) requestId!: string | null;
  @Field(() => String, { nullable: true, description: 'The changed fields before, as JSON (null for a creation).' }) beforeJson!: string | null;
  @Field(() => String, { nullable: true, description: 'The changed fields after, as JSON (null for a deletion).' }) afterJson!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
}

@ObjectType()
class AgencyAuditPage extends Paginated(AgencyAuditEventType, 'AgencyAuditEvent') {}

@ArgsType()
class AgencyAuditArgs extends PageArgs {
  @perPageField(25)
  perPage!: number;

  @Field(() => String, { nullable: true })
  action?: string | null;

  @Field(() => String, { nullable: true })
  subjectType?: string | null;

  @Field(() => String, { nullable: true })
  subjectId?: string | null;

  @Field(() => Int, { nullable: true })
  customerId?: number | null;
}

export const auditEventView = (e: AgencyAuditEvent): AgencyAuditEventType => ({
  id: String(e.id),
  action: e.action,
  subjectType: e.subjectType,
  subjectId: e.subjectId,
  customerId: e.customerId,
  actorType: e.actorType,
  actorUserId: e.actorUserId,
  actorTokenId: e.actorTokenId,
  actorLabel: e.actorLabel,
  requestId: e.requestId,
  beforeJson: e.beforeState === null ? null : JSON.stringify(e.beforeState),
  afterJson: e.afterState === null ? null : JSON.stringify(e.afterState),
  createdAt: e.createdAt,
});

/**
 * The agency side's audit trail, for the tenant owner (others: FORBIDDEN). A customer token needs
 * `organizations:read` as well: the entries name every account's owner and e-mail, more than a `reviews:read` token
 * may see (agency tokens carry no permissions; /graphql refuses AI tokens).
 */
@Authorized(CUSTOMER_TOKENS, 'organizations:read')
@Resolver()
export class AgencyAuditResolver {
  @Query(() => AgencyAuditPage, { description: 'Changes to the tenant\'s accounts and access (tokens, credits, pause/resume, plans, limits, connect links), newest first (tenant owner only).' })
  async agencyAuditEvents(@Args() args: AgencyAuditArgs, @Ctx() ctx: Context) {
    const page = await listAgencyEvents(ctx.principal!, args);
    return { ...page, items: page.items.map(auditEventView) };
  }
}
