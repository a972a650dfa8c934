import { Field, Int, ObjectType } from 'type-graphql';
import { PageBrandType } from '../pages/page-brand.type';

@ObjectType('ConnectPage', { description: 'What the customer-facing page of a connect link (`/connect/{token}`) shows.' })
export class ConnectPageType {
  @Field(() => PageBrandType, { description: "The agency's brand; the language of the location's account, else the agency's." })
  brand!: PageBrandType;

  @Field({ description: '`google` or `facebook`.' })
  provider!: string;

  @Field({ description: 'The location the link attaches the business to.' })
  locationName!: string;

  @Field({ description: '`active`, `used`, `expired` or `revoked`, from the timestamps and the clock.' })
  status!: string;

  @Field({ description: 'The sign-in completed and waits for the business selection.' })
  signedIn!: boolean;

  @Field({ description: 'The CSRF token of the start form (a MAC of the link token): only a page that showed the link can start its sign-in.' })
  startCsrf!: string;
}

@ObjectType('ConnectBusiness', { description: 'A business (Google location, Facebook page) the signed-in account manages.' })
export class ConnectBusinessType {
  @Field()
  externalId!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  address!: string | null;
}

@ObjectType('ConnectSelection', { description: 'The business picker of a signed-in connect link.' })
export class ConnectSelectionType {
  @Field(() => ConnectPageType)
  page!: ConnectPageType;

  @Field(() => [ConnectBusinessType])
  businesses!: ConnectBusinessType[];

  @Field({ description: "The link's selection nonce, made when the sign-in completed: the selection form carries it." })
  nonce!: string;
}

@ObjectType('ConnectFailure', { description: 'A domain error of a connect page step, as data (the step knew its link).' })
export class ConnectFailureType {
  @Field({ description: 'The error code (`NOT_FOUND`, `FORBIDDEN`, `UPSTREAM`, ...).' })
  code!: string;

  @Field(() => String, { nullable: true, description: '`link_used`, `access_denied`, `provider_unavailable`, ...' })
  reason!: string | null;

  @Field()
  message!: string;
}

@ObjectType('ConnectSignIn', { description: 'The provider sent the customer back: the link its OAuth state belongs to, and how the sign-in ended.' })
export class ConnectSignInType {
  @Field({ description: 'The link the callback belongs to (its token: the page redirects to its selection). Edge-only, like every field here.' })
  token!: string;

  @Field(() => ConnectFailureType, { nullable: true, description: 'Why the sign-in did not complete; null: it did.' })
  failure!: ConnectFailureType | null;
}

@ObjectType('ConnectSelected', { description: 'The chosen business is attached to the link\'s location; the link is used.' })
export class ConnectSelectedType {
  @Field(() => ConnectPageType)
  page!: ConnectPageType;

  @Field()
  businessName!: string;

  @Field(() => Int)
  integrationId!: number;

  @Field(() => String, { nullable: true, description: 'Why the first review sync did not start (best effort: the integration exists); null when it did.' })
  reviewSyncFailure!: string | null;
}
