import { Args, ArgsType, Authorized, Ctx, Field, Float, GraphQLISODateTime, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { CUSTOMER_TOKENS } from '../auth-checker';
import type { McpAuditEntry } from '../../models';
import { listAuditLog } from '../../services/mcp-audit.service';
import { PageArgs, Paginated, perPageField } from '../common';

@ObjectType('McpAuditEntry', { description: 'One answered call to the MCP endpoint.' })
class McpAuditEntryType {
  // Float: the row id is a BIGINT, past GraphQL's 32-bit Int after 2^31 calls (every read of the log then failed).
  @Field(() => Float, { description: 'The row id: a whole number, beyond 32 bits too.' }) id!: number;
  @Field(() => Int) tokenId!: number;
  @Field(() => Int) userId!: number;
  @Field({ description: 'JSON-RPC method (initialize, tools/list, tools/call, ping, ...).' }) method!: string;
  @Field(() => String, { nullable: true }) tool!: string | null;
  @Field(() => String, { nullable: true, description: 'Tool arguments as JSON, personal data replaced by "[redacted]".' })
  argumentsJson!: string | null;
  @Field({ description: 'The call unlocked personal data (include_pii with reviews:pii).' }) piiUnlocked!: boolean;
  @Field(() => Int, { description: '0 result, 1 tool result with isError, else the JSON-RPC error code.' }) resultCode!: number;
  @Field(() => String, { nullable: true }) errorReason!: string | null;
  @Field(() => Int) durationMs!: number;
  @Field() correlationId!: string;
  @Field(() => String, { nullable: true }) requestId!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
}

@ObjectType()
class McpAuditPage extends Paginated(McpAuditEntryType, 'McpAuditEntry') {}

@ArgsType()
class McpAuditArgs extends PageArgs {
  @perPageField(25)
  perPage!: number;

  @Field(() => Int, { nullable: true })
  tokenId?: number | null;

  @Field(() => String, { nullable: true })
  tool?: string | null;

  @Field(() => String, { nullable: true })
  correlationId?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Only calls that did not end in a result.' })
  failedOnly?: boolean | null;
}

const view = (e: McpAuditEntry): McpAuditEntryType => ({
  id: Number(e.id),
  tokenId: e.tokenId,
  userId: e.userId,
  method: e.method,
  tool: e.tool,
  argumentsJson: e.arguments === null ? null : JSON.stringify(e.arguments),
  piiUnlocked: Boolean(e.piiUnlocked),
  resultCode: e.resultCode,
  errorReason: e.errorReason,
  durationMs: e.durationMs,
  correlationId: e.correlationId,
  requestId: e.requestId,
  createdAt: e.createdAt,
});

/**
 * The MCP audit log of the tenant, for its owner (others: FORBIDDEN). A customer token needs `organizations:read` as
 * well, as for the agency's audit trail (agency tokens carry no permissions; /graphql refuses AI tokens).
 */
@Authorized(CUSTOMER_TOKENS, 'organizations:read')
@Resolver()
export class McpAuditResolver {
  @Query(() => McpAuditPage, { description: 'Calls to the MCP endpoint by every token of the tenant, newest first (tenant owner only).' })
  async mcpAuditLog(@Args() args: McpAuditArgs, @Ctx() ctx: Context) {
    const page = await listAuditLog(ctx.principal!, args);
    return { ...page, items: page.items.map(view) };
  }
}
