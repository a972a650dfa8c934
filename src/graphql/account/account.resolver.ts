import { ArrayMaxSize, IsEmail, IsIn, IsOptional, MinLength } from 'class-validator';
import { Arg, Authorized, Ctx, Field, GraphQLISODateTime, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { CUSTOMER_TOKENS } from '../auth-checker';
import { ALL_PERMISSIONS, ORGANIZATION_PERMISSIONS } from '../../domain/permissions';
import { TOKEN_KINDS, type TokenKind } from '../../domain/principal';
import * as account from '../../services/account.service';
import { UserType } from '../reference/reference.type';
import { MaxChars, msg } from '../validation';

@ObjectType('Tenant', { description: 'The agency whose brand the platform runs under.' })
class TenantType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field() brandName!: string;
  @Field(() => String, { nullable: true }) logoUrl!: string | null;
  @Field(() => String, { nullable: true, description: 'The brand colour (`#rrggbb`) reports are drawn in; null: the default blue.' }) brandColor!: string | null;
  @Field({ description: 'ISO 639-1: the language new customer accounts take unless given one.' }) language!: string;
  @Field(() => [String]) domains!: string[];
}

@ObjectType('Account', { description: "The caller's customer account: plan, limits (0 = unlimited) and subscription." })
class AccountType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field() email!: string;
  @Field({ description: '`active`, `paused` or `canceled`.' }) subscriptionStatus!: string;
  @Field({ description: 'ISO 639-1: the language of the pages, review requests and reports the account and its customers read.' }) language!: string;
  @Field({ description: "Whether the account's owners get each organisation's monthly report by mail on the 1st (PDF attached); for the agency's own account, also each scan's report." }) reportEmails!: boolean;
  @Field(() => String, { nullable: true }) planName!: string | null;
  @Field(() => Int) locationLimit!: number;
  @Field(() => Int) memberLimit!: number;
  @Field(() => Int) locationsUsed!: number;
  @Field(() => Int) membersUsed!: number;
}

@ObjectType('ApiToken', { description: 'An API token; the secret is shown once, at creation.' })
class ApiTokenType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field() kind!: string;
  @Field({ description: 'The first characters of the secret, to recognise it by.' }) tokenPrefix!: string;
  @Field(() => [String]) permissions!: string[];
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) revokedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) lastUsedAt!: Date | null;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
}

@ObjectType('IssuedApiToken')
class IssuedApiTokenType {
  @Field(() => ApiTokenType) token!: ApiTokenType;
  @Field({ description: 'The secret. Store it now: it cannot be read again.' }) plainText!: string;
}

@InputType()
class CreateApiTokenInput {
  @Field()
  @MinLength(1, msg.required('name'))
  @MaxChars(255, 'name')
  name!: string;

  @Field(() => String, { defaultValue: 'customer' })
  @IsIn([...TOKEN_KINDS], { message: `The kind must be one of: ${TOKEN_KINDS.join(', ')}.` })
  kind!: TokenKind;

  @Field(() => [String])
  @IsIn(ALL_PERMISSIONS, { each: true, message: 'The permissions contain an unknown permission.' })
  permissions!: string[];

  @Field(() => GraphQLISODateTime, { nullable: true })
  @IsOptional()
  expiresAt?: Date | null;
}

@InputType()
class TeamMemberInput {
  @Field(() => Int) organizationId!: number;

  @Field()
  @IsEmail({}, { message: 'The email must be a valid email address.' })
  email!: string;

  @Field()
  @MinLength(1, msg.required('name'))
  @MaxChars(255, 'name')
  name!: string;

  @Field(() => [Int]) @ArrayMaxSize(1000) locationIds!: number[];

  @Field(() => [String], { description: `Any of: ${ORGANIZATION_PERMISSIONS.join(', ')}.` })
  @IsIn([...ORGANIZATION_PERMISSIONS], { each: true, message: 'The permissions contain an unknown organization permission.' })
  permissions!: string[];
}

@InputType()
class TeamMemberAccessInput {
  @Field(() => Int) userId!: number;
  @Field(() => Int) organizationId!: number;
  @Field(() => [Int]) @ArrayMaxSize(1000) locationIds!: number[];
  @Field(() => [String]) permissions!: string[];
}

@Authorized()
@Resolver()
export class AccountResolver {
  @Query(() => TenantType, { description: 'The agency (brand) the caller belongs to.' })
  tenant(@Ctx() ctx: Context) {
    return account.tenantOf(ctx.principal!);
  }

  @Query(() => AccountType)
  account(@Ctx() ctx: Context) {
    return account.accountOf(ctx.principal!);
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:update')
  @Mutation(() => AccountType, { description: "Sets the account's language (en, es, fr, de, pt or it): pages, review requests and reports speak it. Account owners only." })
  setAccountLanguage(@Arg('language') language: string, @Ctx() ctx: Context) {
    return account.setAccountLanguage(ctx.principal!, language);
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:update')
  @Mutation(() => AccountType, { description: "Turns the monthly report mail of the account's owners on or off (on the agency's own account: the scan reports' too). Account owners only." })
  setAccountReportEmails(@Arg('enabled') enabled: boolean, @Ctx() ctx: Context) {
    return account.setAccountReportEmails(ctx.principal!, enabled);
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:update')
  @Mutation(() => TenantType, { description: "Sets the agency's language (en, es, fr, de, pt or it): new customer accounts take it. Agency owners only." })
  setTenantLanguage(@Arg('language') language: string, @Ctx() ctx: Context) {
    return account.setTenantLanguage(ctx.principal!, language);
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:update')
  @Mutation(() => TenantType, { description: "Sets the agency's brand colour (`#rrggbb`, null clears it): reports draw their header and accents in it. Agency owners only." })
  setTenantBrandColor(@Arg('color', () => String, { nullable: true }) color: string | null, @Ctx() ctx: Context) {
    return account.setTenantBrandColor(ctx.principal!, color);
  }

  // Like the other settings: a customer token needs organizations:read to see its user's tokens and
  // organizations:update as well to issue or revoke one (a read-only token, say a widget's, changes nothing);
  // agency tokens pass on their role, and revoking stays open while the account is paused (paused.middleware.ts).
  @Authorized(CUSTOMER_TOKENS, 'organizations:read')
  @Query(() => [ApiTokenType], { description: "The caller's own API tokens, newest first." })
  apiTokens(@Ctx() ctx: Context) {
    return account.listTokens(ctx.principal!);
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:read', 'organizations:update')
  @Mutation(() => IssuedApiTokenType, { description: 'Issues a token with at most the permissions of the calling token.' })
  async createApiToken(@Arg('input') input: CreateApiTokenInput, @Ctx() ctx: Context): Promise<IssuedApiTokenType> {
    const issued = await account.createToken(ctx.principal!, input, { clock: ctx.clock });
    return { token: issued.token, plainText: issued.plainText };
  }

  @Authorized(CUSTOMER_TOKENS, 'organizations:read', 'organizations:update')
  @Mutation(() => ApiTokenType)
  revokeApiToken(@Arg('id', () => Int) id: number, @Ctx() ctx: Context) {
    return account.revokeOwnToken(ctx.principal!, id, { clock: ctx.clock });
  }

  @Authorized('organizations:read')
  @Query(() => [UserType], { description: 'Team members of the accounts the caller manages.' })
  teamMembers(@Ctx() ctx: Context) {
    return account.listTeam(ctx.principal!);
  }

  @Authorized('organizations:update')
  @Mutation(() => UserType, { description: 'Adds a team member to an organisation with assigned locations (member limit applies).' })
  addTeamMember(@Arg('input') input: TeamMemberInput, @Ctx() ctx: Context) {
    return account.addTeamMember(ctx.principal!, input, { clock: ctx.clock });
  }

  @Authorized('organizations:update')
  @Mutation(() => UserType, { description: "Replaces a team member's locations and permissions in one organisation." })
  setTeamMemberAccess(@Arg('input') input: TeamMemberAccessInput, @Ctx() ctx: Context) {
    return account.setTeamMemberAccess(ctx.principal!, input, { clock: ctx.clock });
  }
}
