import { Field, InputType, Int } from 'type-graphql';
import { MaxChars } from '../validation';

@InputType()
export class EmailSettingsInput {
  @Field()
  @MaxChars(253, 'host')
  host!: string;

  @Field(() => Int, { nullable: true, description: 'Default 465 when `secure`, else 587.' })
  port?: number | null;

  @Field(() => Boolean, { nullable: true, description: 'Default: true for port 465.' })
  secure?: boolean | null;

  @Field(() => String, { nullable: true })
  username?: string | null;

  @Field(() => String, { nullable: true, description: 'Absent or null keeps the stored password; an empty string removes it.' })
  password?: string | null;

  @Field()
  fromEmail!: string;

  @Field(() => String, { nullable: true, description: 'Default: the business (organisation) name.' })
  fromName?: string | null;
}

@InputType()
export class SmsSettingsInput {
  @Field(() => String, { nullable: true, description: '`sms` (default) or `messaging` (the messaging app).' })
  channel?: string | null;

  @Field()
  accountSid!: string;

  @Field(() => String, { nullable: true, description: 'Required the first time; absent or null keeps the stored one.' })
  authToken?: string | null;

  @Field({ description: 'E.164 sender number.' })
  fromNumber!: string;

  @Field(() => String, { nullable: true, description: 'API origin of a Twilio-compatible provider; default https://api.twilio.com.' })
  baseUrl?: string | null;
}

@InputType()
export class TestMessageInput {
  @Field({ description: '`email`, `sms` or `messaging`.' })
  channel!: string;

  @Field({ description: 'An email address, or an E.164 phone number.' })
  to!: string;
}
