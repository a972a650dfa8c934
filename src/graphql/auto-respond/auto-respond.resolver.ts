import { Arg, Args, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import * as autoRespond from '../../services/auto-respond.service';
import { Deleted } from '../common';
import { AutoRespondRuleListArgs, CreateAutoRespondRuleInput, UpdateAutoRespondRuleInput } from './auto-respond.input';
import { AutoRespondRulePage, AutoRespondRuleType } from './auto-respond.type';

const principal = (ctx: Context) => ctx.principal!; // @Authorized guarantees it

/**
 * Auto-respond rules. The MCP permission `reviews.auto_respond` maps to the token permissions `reviews:read` +
 * `reviews:update` (rules publish replies), for reads too. PLAN_LIMIT `upgrade_required` (402) when the account's
 * plan lacks the `auto_respond` feature.
 */
@Authorized('reviews:read', 'reviews:update')
@Resolver(() => AutoRespondRuleType)
export class AutoRespondRuleResolver {
  @Query(() => AutoRespondRulePage, { description: 'Rules the caller sees, in evaluation order (MCP list_auto_respond_rules).' })
  autoRespondRules(@Args() args: AutoRespondRuleListArgs, @Ctx() ctx: Context) {
    return autoRespond.listRules(principal(ctx), args);
  }

  @Query(() => AutoRespondRuleType)
  autoRespondRule(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return autoRespond.getRule(principal(ctx), id);
  }

  @Mutation(() => AutoRespondRuleType, { description: 'Account owners only; team members are FORBIDDEN.' })
  createAutoRespondRule(@Arg('input') input: CreateAutoRespondRuleInput, @Ctx() ctx: Context) {
    return autoRespond.createRule(principal(ctx), input, { clock: ctx.clock });
  }

  @Mutation(() => AutoRespondRuleType)
  updateAutoRespondRule(@Arg('id', () => Int) id: number, @Arg('input') input: UpdateAutoRespondRuleInput, @Ctx() ctx: Context) {
    return autoRespond.updateRule(principal(ctx), id, input, { clock: ctx.clock });
  }

  @Mutation(() => Deleted, { description: 'Allowed without the plan feature (cleaning up after a downgrade).' })
  async deleteAutoRespondRule(@Arg('id', () => Int) id: number, @Ctx() ctx: Context): Promise<Deleted> {
    await autoRespond.deleteRule(principal(ctx), id, { clock: ctx.clock });
    return { id, message: 'Auto-respond rule deleted successfully.' };
  }
}
