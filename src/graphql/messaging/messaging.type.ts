import { Field, GraphQLISODateTime, Int, ObjectType } from 'type-graphql';

@ObjectType('EmailSettings', { description: "The account's own SMTP server for review requests (the password is never returned)." })
export class EmailSettingsType {
  @Field()
  host!: string;

  @Field(() => Int)
  port!: number;

  @Field({ description: 'TLS from the first byte (port 465); false: STARTTLS when the server offers it.' })
  secure!: boolean;

  @Field(() => String, { nullable: true })
  username!: string | null;

  @Field()
  fromEmail!: string;

  @Field(() => String, { nullable: true })
  fromName!: string | null;
}

@ObjectType('SmsSettings', { description: "The account's own Twilio-style SMS / messaging-app account (the auth token is never returned)." })
export class SmsSettingsType {
  @Field()
  accountSid!: string;

  @Field({ description: 'E.164 sender number (the messaging channel sends from `whatsapp:<number>`).' })
  fromNumber!: string;

  @Field(() => String, { nullable: true, description: 'API origin; null = https://api.twilio.com.' })
  baseUrl!: string | null;
}

@ObjectType('MessagingSetting', { description: 'How review requests of one channel are sent for the account.' })
export class MessagingSettingType {
  @Field({ description: '`email`, `sms` or `messaging`.' })
  channel!: string;

  @Field({ description: 'The account has its own provider for the channel.' })
  configured!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Who sends while it is not configured: `platform_mail` (email), `simulator` (SMS_SIMULATOR on), or null (steps fail `sms_not_configured`).',
  })
  fallback!: string | null;

  @Field(() => EmailSettingsType, { nullable: true })
  email!: EmailSettingsType | null;

  @Field(() => SmsSettingsType, { nullable: true })
  sms!: SmsSettingsType | null;

  @Field({ description: 'A password (email) or auth token (SMS, messaging) is stored.' })
  hasPassword!: boolean;

  @Field(() => GraphQLISODateTime, { nullable: true })
  updatedAt!: Date | null;
}

@ObjectType('TestMessageResult')
export class TestMessageResultType {
  @Field()
  channel!: string;

  @Field()
  to!: string;

  @Field({ description: 'Who sent it: `account SMTP`, `platform mail`, `SMS provider`, `messaging-app provider` or `SMS simulator`.' })
  sender!: string;

  @Field(() => String, { nullable: true })
  providerMessageId!: string | null;
}
