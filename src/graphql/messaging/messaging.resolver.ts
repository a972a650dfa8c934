import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import * as messaging from '../../services/messaging-settings.service';
import { EmailSettingsInput, SmsSettingsInput, TestMessageInput } from './messaging.input';
import { MessagingSettingType, TestMessageResultType } from './messaging.type';

/**
 * The account's own sending accounts for review requests ("Messaging" settings): SMTP for email, a Twilio-style
 * account for SMS and the messaging app. Token permissions as for the other account settings: reading needs
 * `organizations:read`, changing and sending a test message `organizations:update`; the service lets only the
 * account's owners in (team members: FORBIDDEN). Secrets are write-only.
 */
@Authorized()
@Resolver(() => MessagingSettingType)
export class MessagingSettingsResolver {
  @Authorized('organizations:read')
  @Query(() => [MessagingSettingType], { description: 'One entry per channel: email, sms, messaging.' })
  messagingSettings(@Ctx() ctx: Context) {
    return messaging.listMessagingSettings(ctx.principal!);
  }

  @Authorized('organizations:update')
  @Mutation(() => MessagingSettingType, { description: "Sets the account's SMTP server for review-request email." })
  setEmailSettings(@Arg('input') input: EmailSettingsInput, @Ctx() ctx: Context) {
    return messaging.setEmailSettings(ctx.principal!, input, { clock: ctx.clock });
  }

  @Authorized('organizations:update')
  @Mutation(() => MessagingSettingType, { description: "Sets the account's Twilio-style account for SMS or the messaging app." })
  setSmsSettings(@Arg('input') input: SmsSettingsInput, @Ctx() ctx: Context) {
    return messaging.setSmsSettings(ctx.principal!, input, { clock: ctx.clock });
  }

  @Authorized('organizations:update')
  @Mutation(() => MessagingSettingType, { description: "Removes the channel's own provider (the default applies again)." })
  clearMessagingSettings(@Arg('channel') channel: string, @Ctx() ctx: Context) {
    return messaging.clearMessagingSettings(ctx.principal!, channel, { clock: ctx.clock });
  }

  @Authorized('organizations:update')
  @Mutation(() => TestMessageResultType, { description: 'Sends a fixed test message through the channel (takes no credits).' })
  sendTestMessage(@Arg('input') input: TestMessageInput, @Ctx() ctx: Context) {
    return messaging.sendTestMessage(ctx.principal!, input, { clock: ctx.clock });
  }
}
