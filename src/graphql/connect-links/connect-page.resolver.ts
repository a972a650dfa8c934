import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { ensureReviewSync, integrationLabel, type IntegrationLabel } from '../../../workflows/client';
import type { Context } from '../../context';
import { DomainError } from '../../domain/errors';
import * as links from '../../services/connect-links.service';
import { LINK } from '../auth-checker';
import { PageBrandType } from '../pages/page-brand.type';
import { ConnectPageType, ConnectSelectedType, ConnectSelectionType, ConnectSignInType } from './connect-page.type';

const brandOf = (view: links.LinkView): PageBrandType => ({ name: view.tenant.brandName || view.tenant.name, logoUrl: view.tenant.logoUrl, language: view.language });

const pageOf = (view: links.LinkView): ConnectPageType => ({
  brand: brandOf(view),
  provider: view.link.provider,
  locationName: view.location.name,
  status: view.status,
  signedIn: Boolean(view.link.completedOauthAt && view.link.pendingCredentials),
  startCsrf: links.startFormToken(view.link.token),
});

const optionsOf = (ctx: Context) => ({ clock: ctx.clock, platformClient: ctx.seams.platformClient });

const startReviewSync = (id: number, label?: IntegrationLabel) => ensureReviewSync(id, { label });

/**
 * The customer-facing connect page (facades/pages/connect): the link token is the credential, checked by the service
 * as the page did. A link that cannot be used is NOT_FOUND `link_<status>` (LinkUnavailable), a step before the
 * sign-in FORBIDDEN `sign_in_required`, a failed sign-in FORBIDDEN with its reason (SignInFailed), a platform that
 * refuses or is down UPSTREAM. The platform client and the review-sync start are the context's seams when given.
 */
@Authorized(LINK)
@Resolver()
export class ConnectPageResolver {
  @Query(() => ConnectPageType, { description: 'The landing page of a connect link, whatever its status; NOT_FOUND `link_unknown` for an unknown token.' })
  async connectPage(@Arg('token') token: string, @Ctx() ctx: Context): Promise<ConnectPageType> {
    return pageOf(await links.viewLink(token, optionsOf(ctx)));
  }

  @Query(() => PageBrandType, {
    nullable: true,
    description:
      "The brand of the link whose open sign-in has this OAuth `state` (its agency's brand, its account's language), read only: what the page of a refused callback wears when the state still names a link (a provider's answer that reached another browser). Null when no link has the state. Only the brand: the link's token and start form stay with the page that showed the link.",
  })
  async connectBrandForState(@Arg('state') state: string, @Ctx() ctx: Context): Promise<PageBrandType | null> {
    const view = await links.viewLinkOfState(state, optionsOf(ctx));
    return view ? brandOf(view) : null;
  }

  @Mutation(() => String, {
    nullable: true,
    description:
      "Starts a sign-in of an active link: stores a fresh OAuth state and PKCE verifier and answers the provider's authorization URL. Null when `csrf` is not the link's start-form token (nothing changes).",
  })
  async startConnectSignIn(@Arg('token') token: string, @Arg('csrf') csrf: string, @Ctx() ctx: Context): Promise<string | null> {
    if (!links.isStartFormToken(token, csrf)) {
      await links.viewLink(token, optionsOf(ctx)); // an unknown link is still NOT_FOUND
      return null;
    }
    return links.startSignIn(token, optionsOf(ctx));
  }

  @Mutation(() => ConnectSignInType, {
    description:
      "The provider's callback (`callbackUrl`: the whole URL it called, with `state` and `code` or `error`): finds the link by its OAuth state and completes the sign-in. A state of no open link is FORBIDDEN `state_mismatch`; once the link is known, a domain error is its `failure`.",
  })
  async completeConnectSignIn(@Arg('state') state: string, @Arg('callbackUrl') callbackUrl: string, @Ctx() ctx: Context): Promise<ConnectSignInType> {
    const token = await links.linkTokenForState(state);
    try {
      await links.completeSignIn(token, new URL(callbackUrl), optionsOf(ctx));
      return { token, failure: null };
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      return { token, failure: { code: e.code, reason: e.reason ?? null, message: e.message } };
    }
  }

  @Query(() => ConnectSelectionType, { description: 'The businesses the signed-in account manages (asked from the platform), for the selection form.' })
  async connectSelection(@Arg('token') token: string, @Ctx() ctx: Context): Promise<ConnectSelectionType> {
    const view = await links.selectionFor(token, optionsOf(ctx));
    return { page: pageOf(view), businesses: view.businesses.map((b) => ({ externalId: b.externalId, name: b.name, address: b.address })), nonce: view.nonce };
  }

  @Mutation(() => ConnectSelectedType, {
    description:
      "Attaches the chosen business (one the account manages; VALIDATION otherwise) to the link's location as a synced integration and uses the link; then starts its review sync, best effort.",
  })
  async selectConnectBusiness(
    @Arg('token') token: string,
    @Arg('nonce') nonce: string,
    @Arg('business') business: string,
    @Ctx() ctx: Context,
  ): Promise<ConnectSelectedType> {
    const result = await links.selectBusiness(token, { nonce, externalId: business }, optionsOf(ctx));
    let reviewSyncFailure: string | null = null;
    try {
      // After the commit: the integration exists whatever happens here.
      await (ctx.seams.ensureReviewSync ?? startReviewSync)(result.integration.id, integrationLabel(result.integration));
    } catch (e) {
      reviewSyncFailure = (e as Error).message;
    }
    return { page: pageOf(result.view), businessName: result.business.name, integrationId: result.integration.id, reviewSyncFailure };
  }
}
