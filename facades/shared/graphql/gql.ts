/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query InboundEndpoint($token: String!) { inboundEndpoint(token: $token) { connection signed } }": typeof types.InboundEndpointDocument,
    "mutation ReceiveInboundSubmission($token: String!, $kind: InboundBodyKind!, $body: String!, $signature: String, $timestamp: String) {\n  receiveInboundSubmission(token: $token, kind: $kind, body: $body, signature: $signature, timestamp: $timestamp) {\n    status connection submissionId contactId sendAt rescheduled reason duplicateOf\n  }\n}": typeof types.ReceiveInboundSubmissionDocument,
    "query McpBrandName { tenant { brandName } }": typeof types.McpBrandNameDocument,
    "fragment AccessScope on Query {\n  accessScope(organizationId: $organizationId, locationId: $locationId) @include(if: $checkScope) { organizationId }\n}": typeof types.AccessScopeFragmentDoc,
    "fragment OrganizationScope on Query { accessScope(organizationId: $organizationId) @include(if: $checkScope) { organizationId } }": typeof types.OrganizationScopeFragmentDoc,
    "query ScopeCheck($organizationId: Int, $locationId: Int) {\n  accessScope(organizationId: $organizationId, locationId: $locationId) { organizationId }\n}": typeof types.ScopeCheckDocument,
    "fragment MetricsTotalsFields on MetricsTotals { totalReviews avgRating responded responseRate starDistribution { rating count } sentimentDistribution { positive neutral negative } aspects { aspect positive neutral negative } }": typeof types.MetricsTotalsFieldsFragmentDoc,
    "query McpGetMetrics($compare: Boolean!, $organizationId: Int, $locationId: Int, $sourceName: String, $dateFrom: String, $dateTo: String,\n      $groupBy: String, $compareToDateFrom: String, $compareToDateTo: String) {\n    reviewMetrics(organizationId: $organizationId, locationId: $locationId, sourceName: $sourceName, dateFrom: $dateFrom, dateTo: $dateTo,\n        groupBy: $groupBy, compareToDateFrom: $compareToDateFrom, compareToDateTo: $compareToDateTo) {\n      period { from to }\n      filters { organizationId locationId sourceName }\n      totals { ...MetricsTotalsFields }\n      breakdown { bucket totalReviews avgRating responded responseRate }\n      comparison @include(if: $compare) { period { from to } totals { ...MetricsTotalsFields } }\n    }\n  }": typeof types.McpGetMetricsDocument,
    "query McpGetAiInsights($organizationId: Int!, $locationId: Int, $periodStart: String, $periodEnd: String) {\n    aiInsights(organizationId: $organizationId, locationId: $locationId, periodStart: $periodStart, periodEnd: $periodEnd) {\n      organizationId locationId period { from to } previousPeriod { from to }\n      totals { ...MetricsTotalsFields } previousTotals { ...MetricsTotalsFields } analysedReviews\n      themes { theme mentions positive neutral negative score sentiment example previousMentions }\n      changes { subject previous current direction text }\n      strengths complaints suggestedActions narrative narrativeSource\n    }\n  }": typeof types.McpGetAiInsightsDocument,
    "query McpGetReport($organizationId: Int!, $month: String!) {\n    organizationReport(organizationId: $organizationId, month: $month) {\n      organizationId organizationName language month previousMonth title period { from to }\n      totals { ...MetricsTotalsFields } previousTotals { ...MetricsTotalsFields }\n      months { month totalReviews avgRating responseRate positive neutral negative aspects { aspect mentions positive neutral negative netSentiment } }\n      changes\n    }\n  }": typeof types.McpGetReportDocument,
    "fragment AutoRespondRuleFields on AutoRespondRule { id organizationId locationId name ratings sourceNames keywords keywordMatch useAi template paused priority createdAt updatedAt }": typeof types.AutoRespondRuleFieldsFragmentDoc,
    "query McpListAutoRespondRules($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $useAi: Boolean, $paused: Boolean, $page: Int!, $perPage: Int!) {\n    ...AccessScope\n    autoRespondRules(organizationId: $organizationId, locationId: $locationId, useAi: $useAi, paused: $paused, page: $page, perPage: $perPage) {\n      total page perPage items { ...AutoRespondRuleFields }\n    }\n  }": typeof types.McpListAutoRespondRulesDocument,
    "fragment CampaignFields on Campaign { id internalId name organizationId locationId contactListId paused pausedAt reviewUrl feedbackThreshold steps { channel delayHours } metrics { invitesSent invitesFailed invitesScheduled clicks feedbackCount } createdAt updatedAt }": typeof types.CampaignFieldsFragmentDoc,
    "query McpListCampaigns($checkScope: Boolean!, $organizationId: Int, $campaignId: Int, $dateFrom: String, $dateTo: String, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    campaigns(organizationId: $organizationId, campaignId: $campaignId, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, perPage: $perPage) {\n      total page perPage items { ...CampaignFields }\n    }\n  }": typeof types.McpListCampaignsDocument,
    "fragment ContactFields on Contact { id internalId contactListId firstName lastName email phone subscribed unsubscribedAt engagement { invitesSent lastInvitedAt clicks feedbackCount } createdAt }": typeof types.ContactFieldsFragmentDoc,
    "query McpListContacts($checkScope: Boolean!, $organizationId: Int, $contactListId: Int, $subscribed: Boolean, $dateFrom: String, $dateTo: String, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    contacts(organizationId: $organizationId, contactListId: $contactListId, subscribed: $subscribed, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, perPage: $perPage) {\n      total page perPage items { ...ContactFields }\n    }\n  }": typeof types.McpListContactsDocument,
    "query McpGetContactActivity($contactId: ID!, $limit: Int!) {\n    contact(id: $contactId) { ...ContactFields }\n    contactActivity(contactId: $contactId, limit: $limit) { id type channel detail occurredAt campaignId campaignName }\n  }": typeof types.McpGetContactActivityDocument,
    "mutation McpDraftReviewResponse($reviewId: Int!, $message: String!) {\n    draftReviewResponse(reviewId: $reviewId, message: $message) { id reviewId organizationId locationId message status createdVia createdAt }\n  }": typeof types.McpDraftReviewResponseDocument,
    "fragment PrivateFeedbackFields on PrivateFeedback { id organizationId locationId campaignId contactId rating author email phone message reply replyDate replied source sourceName createdAt }": typeof types.PrivateFeedbackFieldsFragmentDoc,
    "query McpListPrivateFeedback($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $dateFrom: String, $dateTo: String, $ratings: [Int!], $responded: Boolean,\n      $page: Int!, $perPage: Int!) {\n    ...AccessScope\n    privateFeedbacks(organizationId: $organizationId, locationId: $locationId, dateFrom: $dateFrom, dateTo: $dateTo, ratings: $ratings, responded: $responded,\n        page: $page, perPage: $perPage) {\n      total page perPage items { ...PrivateFeedbackFields }\n    }\n  }": typeof types.McpListPrivateFeedbackDocument,
    "fragment OrganizationStatsField on Organization { stats @include(if: $includeStats) { reviewCount averageRating starDistribution { five four three two one } } }": typeof types.OrganizationStatsFieldFragmentDoc,
    "query McpListOrganizations($one: Boolean!, $id: Int!, $checkScope: Boolean!, $organizationId: Int, $includeStats: Boolean!, $search: String, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    organization(id: $id) @include(if: $one) { ...OrganizationFields ...OrganizationStatsField }\n    organizations(search: $search, page: $page, perPage: $perPage) @skip(if: $one) {\n      total page perPage items { ...OrganizationFields ...OrganizationStatsField }\n    }\n  }": typeof types.McpListOrganizationsDocument,
    "query McpListLocations($checkScope: Boolean!, $organizationId: Int, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    locations(organizationId: $organizationId, page: $page, perPage: $perPage) { total page perPage items { ...LocationFields } }\n  }": typeof types.McpListLocationsDocument,
    "query McpListReviews($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $sourceNames: [String!], $ratings: [Int!],\n    $dateFrom: String, $dateTo: String, $sentiment: String, $aspect: String, $aspectSentiment: String, $responded: Boolean, $verified: Boolean, $query: String,\n    $minMessageLength: Int, $sortBy: ReviewSort, $page: Int!, $perPage: Int!) {\n    ...AccessScope\n    reviews(organizationId: $organizationId, locationId: $locationId, sourceNames: $sourceNames, ratings: $ratings,\n      dateFrom: $dateFrom, dateTo: $dateTo, sentiment: $sentiment, aspect: $aspect, aspectSentiment: $aspectSentiment,\n      responded: $responded, verified: $verified, query: $query,\n      minMessageLength: $minMessageLength, sortBy: $sortBy, page: $page, perPage: $perPage) {\n      total page perPage items { ...ReviewFields }\n    }\n  }": typeof types.McpListReviewsDocument,
    "query McpGetReview($id: Int!) { review(id: $id) { ...ReviewFields } }": typeof types.McpGetReviewDocument,
    "query McpListScans($page: Int!, $perPage: Int!, $search: String, $isScheduled: Boolean, $completed: Boolean, $failed: Boolean, $sinceDays: Int) {\n    scans(page: $page, perPage: $perPage, search: $search, isScheduled: $isScheduled, completed: $completed, failed: $failed, sinceDays: $sinceDays) {\n      total page perPage items { ...ScanRowFields }\n    }\n  }": typeof types.McpListScansDocument,
    "query McpGetScanReport($uuid: String!, $keyword: String, $snapshotAt: String) {\n    scanReport(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) {\n      brand { language }\n      scan { uuid location address type keywords gridSize distance distanceUnit lat lng }\n      keyword\n      snapshot { ...ScanSnapshotFields }\n      snapshots { ...ScanSnapshotFields }\n      summary { averageRank top3 top4to10 top11to20 notRanking totalPins visibilityScore changeFromPrevious previousSnapshotAt }\n      pins { lat lng rank status }\n      competitors { name avgRank appearances coverage threatScore }\n      history {\n        size\n        trend { ...ScanSnapshotFields }\n        competitors { placeId name points { avgRank visibility } }\n        changes { previousSnapshotAt gained lost same cells { x y rank previousRank change } }\n        overtakers { name pins }\n      }\n      htmlUrl pdfUrl\n    }\n  }": typeof types.McpGetScanReportDocument,
    "query McpScanRun($id: String!) { scanRun(id: $id) { id scanUuid status snapshotAt queuedAt lastUpdatedAt error pinsDone pinsTotal } }": typeof types.McpScanRunDocument,
    "query McpRunOutcome($uuid: String!, $snapshotAt: String) {\n  scan(uuid: $uuid, snapshotAt: $snapshotAt, topN: 0) { summary { averageRank top3Count top4To10Count notRankingCount } reportUrl }\n}": typeof types.McpRunOutcomeDocument,
    "mutation McpTagReviews($reviewIds: [Int!]!, $attachTags: [String!], $detachTags: [String!]) {\n    tagReviews(reviewIds: $reviewIds, attachTags: $attachTags, detachTags: $detachTags) { reviewId tags }\n  }": typeof types.McpTagReviewsDocument,
    "fragment ConnectPageFields on ConnectPage { brand { name logoUrl language } provider locationName status signedIn startCsrf }": typeof types.ConnectPageFieldsFragmentDoc,
    "query ConnectPage($token: String!) { page: connectPage(token: $token) { ...ConnectPageFields } }": typeof types.ConnectPageDocument,
    "mutation StartConnectSignIn($token: String!, $csrf: String!) { url: startConnectSignIn(token: $token, csrf: $csrf) }": typeof types.StartConnectSignInDocument,
    "mutation CompleteConnectSignIn($state: String!, $callbackUrl: String!) {\n  signIn: completeConnectSignIn(state: $state, callbackUrl: $callbackUrl) { token failure { code reason message } }\n}": typeof types.CompleteConnectSignInDocument,
    "query ConnectBrandForState($state: String!) { brand: connectBrandForState(state: $state) { name logoUrl language } }": typeof types.ConnectBrandForStateDocument,
    "query ConnectSelection($token: String!) {\n  selection: connectSelection(token: $token) { page { ...ConnectPageFields } businesses { externalId name address } nonce }\n}": typeof types.ConnectSelectionDocument,
    "mutation SelectConnectBusiness($token: String!, $nonce: String!, $business: String!) {\n  selected: selectConnectBusiness(token: $token, nonce: $nonce, business: $business) { page { ...ConnectPageFields } businessName integrationId reviewSyncFailure }\n}": typeof types.SelectConnectBusinessDocument,
    "fragment FeedbackPageFields on FeedbackPage { invite brand { name logoUrl language } businessName firstName lastName email phone feedbackSent }": typeof types.FeedbackPageFieldsFragmentDoc,
    "query FeedbackPage($invite: String!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields } }": typeof types.FeedbackPageDocument,
    "query ReviewRatingPage($invite: String!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields review: gate(rating: 5) { kind url } } }": typeof types.ReviewRatingPageDocument,
    "mutation RateReviewLink($invite: String!, $rating: Int!) { page: openReviewLink(invite: $invite) { ...FeedbackPageFields gate(rating: $rating) { kind url } } }": typeof types.RateReviewLinkDocument,
    "query RatedReviewPage($invite: String!, $rating: Int!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields gate(rating: $rating) { kind url } } }": typeof types.RatedReviewPageDocument,
    "mutation SendPrivateFeedback($invite: String!, $form: PrivateFeedbackFormInput!) { sendPrivateFeedback(invite: $invite, form: $form) }": typeof types.SendPrivateFeedbackDocument,
    "fragment ScanReportBrandFields on ScanReportBrand { name logoUrl color language }": typeof types.ScanReportBrandFieldsFragmentDoc,
    "fragment ScanReportFields on ScanReport {\n  brand { ...ScanReportBrandFields }\n  scan { uuid location address type keywords gridSize distance distanceUnit lat lng }\n  keyword\n  snapshots { ...ScanSnapshotFields }\n  snapshot { ...ScanSnapshotFields }\n  pins { lat lng rank status top { placeId name rank } }\n  summary { averageRank top3 top4to10 top11to20 notRanking totalPins visibilityScore changeFromPrevious previousSnapshotAt }\n  competitors { name avgRank appearances coverage threatScore }\n  history {\n    size\n    heatmaps { snapshot { ...ScanSnapshotFields } size cells { x y rank status } }\n    trend { ...ScanSnapshotFields }\n    competitors { placeId name points { avgRank visibility } }\n    changes { previousSnapshotAt gained lost same cells { x y rank status previousRank change } }\n    overtakers { name pins }\n  }\n}": typeof types.ScanReportFieldsFragmentDoc,
    "query ScanReportPage($uuid: String!, $keyword: String, $snapshotAt: String) {\n  page: scanReportPage(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) { report { ...ScanReportFields } problem brand { ...ScanReportBrandFields } }\n}": typeof types.ScanReportPageDocument,
    "query UnsubscribePage($token: String!) {\n  unsubscribePage(token: $token) { brand { name logoUrl language } businessName unsubscribed }\n}": typeof types.UnsubscribePageDocument,
    "mutation Unsubscribe($token: String!, $withLogo: Boolean!) {\n  unsubscribe(token: $token) { brand { name logoUrl @include(if: $withLogo) language } businessName contactId already canceled }\n}": typeof types.UnsubscribeDocument,
    "query ListAuditEvents($action: String, $subjectType: String, $subjectId: String, $customerId: Int, $page: Int!, $perPage: Int!) {\n      agencyAuditEvents(action: $action, subjectType: $subjectType, subjectId: $subjectId, customerId: $customerId, page: $page, perPage: $perPage) {\n        total page perPage items { ...AuditEventFields }\n      }\n    }": typeof types.ListAuditEventsDocument,
    "query ListConnectLinks($locationId: Int, $provider: String, $active: Boolean, $page: Int!, $perPage: Int!) {\n      connectLinks(locationId: $locationId, provider: $provider, active: $active, page: $page, perPage: $perPage) {\n        total page perPage items { ...ConnectLinkFields }\n      }\n    }": typeof types.ListConnectLinksDocument,
    "mutation CreateConnectLink($input: CreateConnectLinkInput!) { createConnectLink(input: $input) { ...ConnectLinkFields } }": typeof types.CreateConnectLinkDocument,
    "query GetConnectLink($token: String!) { connectLink(token: $token) { ...ConnectLinkFields } }": typeof types.GetConnectLinkDocument,
    "mutation RevokeConnectLink($token: String!) { revokeConnectLink(token: $token) { ...ConnectLinkFields } }": typeof types.RevokeConnectLinkDocument,
    "query ListCustomers($search: String, $page: Int!, $perPage: Int!) {\n      agencyCustomers(search: $search, page: $page, perPage: $perPage) { total page perPage items { ...CustomerFields } }\n    }": typeof types.ListCustomersDocument,
    "mutation CreateCustomer($input: CreateCustomerInput!) { createCustomer(input: $input) { ...CustomerFields } }": typeof types.CreateCustomerDocument,
    "mutation ChangeCustomerPlan($id: Int!, $customPlanId: String!, $language: String) {\n      changeCustomerPlan(id: $id, customPlanId: $customPlanId, language: $language) { ...CustomerFields }\n    }": typeof types.ChangeCustomerPlanDocument,
    "mutation SetCustomerLocationLimit($id: Int!, $limit: Int!) { setCustomerLocationLimit(id: $id, locationLimit: $limit) { message } }": typeof types.SetCustomerLocationLimitDocument,
    "mutation SetCustomerMemberLimit($id: Int!, $limit: Int!) { setCustomerMemberLimit(id: $id, memberLimit: $limit) { message } }": typeof types.SetCustomerMemberLimitDocument,
    "mutation AddCustomerCredits($id: Int!, $input: AddCreditsInput!) { addCustomerCredits(id: $id, input: $input) { message balance } }": typeof types.AddCustomerCreditsDocument,
    "mutation PauseCustomer($id: Int!) { pauseCustomer(id: $id) { message } }": typeof types.PauseCustomerDocument,
    "mutation ResumeCustomer($id: Int!) { resumeCustomer(id: $id) { message } }": typeof types.ResumeCustomerDocument,
    "mutation DeleteCustomer($id: Int!) { deleteCustomer(id: $id) { message } }": typeof types.DeleteCustomerDocument,
    "query ListNfcOrders { nfcOrders { ...OrderFields } }": typeof types.ListNfcOrdersDocument,
    "mutation ShipNfcOrder($id: String!, $trackingUrl: String) { shipNfcOrder(id: $id, trackingUrl: $trackingUrl) { ...OrderFields } }": typeof types.ShipNfcOrderDocument,
    "mutation CompleteNfcOrder($id: String!) { completeNfcOrder(id: $id) { ...OrderFields } }": typeof types.CompleteNfcOrderDocument,
    "mutation CancelNfcOrder($id: String!) { cancelNfcOrder(id: $id) { ...OrderFields } }": typeof types.CancelNfcOrderDocument,
    "query ListCustomPlans { customPlans { ...CustomPlanFields } }": typeof types.ListCustomPlansDocument,
    "fragment ScanFields on Scan { ...ScanRowFields distance distanceUnit type address targetPlaceId lat lng lastRunFailed archivedAt reportUrl createdAt updatedAt }": typeof types.ScanFieldsFragmentDoc,
    "query ScanCost($input: CreateScanInput!) {\n  scanCost(input: $input) { pins keywords creditsPerRun schedules { frequency runsPerYear creditsPerYear } }\n}": typeof types.ScanCostDocument,
    "query ListScans($page: Int!, $perPage: Int!, $search: String, $isScheduled: Boolean, $completed: Boolean, $failed: Boolean,\n        $sinceDays: Int, $archivedOnly: Boolean, $includeArchived: Boolean) {\n      scans(page: $page, perPage: $perPage, search: $search, isScheduled: $isScheduled, completed: $completed, failed: $failed,\n        sinceDays: $sinceDays, archivedOnly: $archivedOnly, includeArchived: $includeArchived) {\n        total page perPage items { ...ScanRowFields }\n      }\n    }": typeof types.ListScansDocument,
    "mutation UpdateScan($uuid: String!, $input: UpdateScanInput!) { updateScan(uuid: $uuid, input: $input) { ...ScanFields } }": typeof types.UpdateScanDocument,
    "mutation ArchiveScan($uuid: String!) { archiveScan(uuid: $uuid) { ...ScanFields } }": typeof types.ArchiveScanDocument,
    "mutation RestoreScan($uuid: String!) { restoreScan(uuid: $uuid) { ...ScanFields } }": typeof types.RestoreScanDocument,
    "query GetScanSchedule($uuid: String!) { scanSchedule(uuid: $uuid) { ...ScheduleFields } }": typeof types.GetScanScheduleDocument,
    "query ListAiAuthorizations($includeRevoked: Boolean!) { aiAuthorizations(includeRevoked: $includeRevoked) { ...AiAuthorizationFields } }": typeof types.ListAiAuthorizationsDocument,
    "mutation RevokeAiAuthorization($id: Int!) { revokeAiAuthorization(id: $id) { ...AiAuthorizationFields } }": typeof types.RevokeAiAuthorizationDocument,
    "query ListCampaigns($organizationId: Int, $search: String, $page: Int!, $perPage: Int!) {\n      campaigns(organizationId: $organizationId, search: $search, page: $page, perPage: $perPage) {\n        total page perPage items { id name }\n      }\n    }": typeof types.ListCampaignsDocument,
    "mutation InviteContact($campaign: String!, $input: InviteContactInput!) {\n      inviteContact(campaign: $campaign, input: $input) { id message }\n    }": typeof types.InviteContactDocument,
    "mutation InviteContacts($campaign: String!, $inputs: [InviteContactInput!]!) {\n      inviteContacts(campaign: $campaign, inputs: $inputs) { id message }\n    }": typeof types.InviteContactsDocument,
    "query ListLocations($organizationId: Int, $search: String, $page: Int!, $perPage: Int!) {\n      locations(organizationId: $organizationId, search: $search, page: $page, perPage: $perPage) {\n        total page perPage items { ...LocationFields }\n      }\n    }": typeof types.ListLocationsDocument,
    "query GetLocation($id: Int!) { location(id: $id) { ...LocationFields } }": typeof types.GetLocationDocument,
    "mutation CreateLocation($input: CreateLocationInput!) { createLocation(input: $input) { ...LocationFields } }": typeof types.CreateLocationDocument,
    "mutation UpdateLocation($id: Int!, $input: UpdateLocationInput!) { updateLocation(id: $id, input: $input) { ...LocationFields } }": typeof types.UpdateLocationDocument,
    "mutation DeleteLocation($id: Int!) { deleteLocation(id: $id) { id message } }": typeof types.DeleteLocationDocument,
    "fragment WebhookFields on WebhookEndpoint { id url description enabled events previousSecretExpiresAt createdAt updatedAt }": typeof types.WebhookFieldsFragmentDoc,
    "fragment WebhookDeliveryFields on WebhookDelivery { id endpointId event status attemptCount lastStatusCode lastError deliveredAt payload createdAt updatedAt\n  attempts { attempt statusCode latencyMs error responseExcerpt requestHeaders { name value } responseHeaders { name value } createdAt } }": typeof types.WebhookDeliveryFieldsFragmentDoc,
    "query ListOrganizations($page: Int!, $perPage: Int!) {\n      organizations(page: $page, perPage: $perPage) { total page perPage items { ...OrganizationFields } }\n    }": typeof types.ListOrganizationsDocument,
    "mutation CreateOrganization($input: CreateOrganizationInput!) { createOrganization(input: $input) { ...OrganizationFields } }": typeof types.CreateOrganizationDocument,
    "query GetOrganization($id: Int!) { organization(id: $id) { ...OrganizationFields } }": typeof types.GetOrganizationDocument,
    "mutation UpdateOrganization($id: Int!, $input: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $input) { ...OrganizationFields } }": typeof types.UpdateOrganizationDocument,
    "mutation DeleteOrganization($id: Int!) { deleteOrganization(id: $id) { id message } }": typeof types.DeleteOrganizationDocument,
    "query ListSources { sources { ...SourceFields } }": typeof types.ListSourcesDocument,
    "query ListCountries { countries { id name } }": typeof types.ListCountriesDocument,
    "query GetCurrentUser { me { id name email } }": typeof types.GetCurrentUserDocument,
    "fragment ReportTotalsFields on MetricsTotals { totalReviews avgRating responded responseRate sentimentDistribution { positive neutral negative }\n  aspects { aspect positive neutral negative } }": typeof types.ReportTotalsFieldsFragmentDoc,
    "query GetOrganizationReport($id: Int!, $month: String!) {\n      organizationReport(organizationId: $id, month: $month) {\n        organizationId organizationName brandName brandLogoUrl brandColor language month previousMonth generatedAt\n        period { from to }\n        totals { ...ReportTotalsFields } previousTotals { ...ReportTotalsFields }\n        months { month totalReviews avgRating responseRate positive neutral negative aspects { aspect mentions positive neutral negative netSentiment } }\n      }\n    }": typeof types.GetOrganizationReportDocument,
    "query ListReviews($rating: Int, $organizationId: Int, $locationId: Int, $sourceNames: [String!], $tags: [String!], $page: Int!, $perPage: Int!) {\n      reviews(rating: $rating, organizationId: $organizationId, locationId: $locationId, sourceNames: $sourceNames, tags: $tags, page: $page, perPage: $perPage) {\n        total page perPage items { ...ReviewFields }\n      }\n    }": typeof types.ListReviewsDocument,
    "query ListWritableReviewSources($organizationId: Int, $locationId: Int, $page: Int!, $perPage: Int!) {\n      writableSources(organizationId: $organizationId, locationId: $locationId, page: $page, perPage: $perPage) {\n        total page perPage items { ...WritableSourceFields }\n      }\n    }": typeof types.ListWritableReviewSourcesDocument,
    "query GetReview($id: Int!) { review(id: $id) { ...ReviewFields } }": typeof types.GetReviewDocument,
    "mutation CreateReview($input: CreateReviewInput!) { createReview(input: $input) { ...ReviewFields } }": typeof types.CreateReviewDocument,
    "mutation UpdateReview($id: Int!, $input: UpdateReviewInput!) { updateReview(id: $id, input: $input) { ...ReviewFields } }": typeof types.UpdateReviewDocument,
    "mutation ReplyToReview($id: Int!, $input: ReplyToReviewInput!) { replyToReview(id: $id, input: $input) { ...ReviewFields } }": typeof types.ReplyToReviewDocument,
    "mutation DeleteReview($id: Int!) { deleteReview(id: $id) { id message } }": typeof types.DeleteReviewDocument,
    "query ListWebhooks($page: Int!, $perPage: Int!) {\n      webhookEndpoints(page: $page, perPage: $perPage) { total page perPage items { ...WebhookFields } }\n    }": typeof types.ListWebhooksDocument,
    "mutation CreateWebhook($input: CreateWebhookEndpointInput!) {\n      createWebhookEndpoint(input: $input) { secret endpoint { ...WebhookFields } }\n    }": typeof types.CreateWebhookDocument,
    "query GetWebhook($id: Int!) { webhookEndpoint(id: $id) { ...WebhookFields } }": typeof types.GetWebhookDocument,
    "mutation UpdateWebhook($id: Int!, $input: UpdateWebhookEndpointInput!) {\n      updateWebhookEndpoint(id: $id, input: $input) { ...WebhookFields }\n    }": typeof types.UpdateWebhookDocument,
    "mutation DeleteWebhook($id: Int!) { deleteWebhookEndpoint(id: $id) { id message } }": typeof types.DeleteWebhookDocument,
    "mutation RotateWebhookSecret($id: Int!) { rotateWebhookSecret(id: $id) { secret endpoint { ...WebhookFields } } }": typeof types.RotateWebhookSecretDocument,
    "mutation TestWebhook($id: Int!) { testWebhookEndpoint(id: $id) { webhookId delivered statusCode latencyMs error responseExcerpt sentAt } }": typeof types.TestWebhookDocument,
    "query GetWebhookSecret($id: Int!) { webhookEndpointSecret(id: $id) }": typeof types.GetWebhookSecretDocument,
    "query ListWebhookDeliveries($endpointId: Int, $status: String, $event: String, $page: Int!, $perPage: Int!) {\n      webhookDeliveries(endpointId: $endpointId, status: $status, event: $event, page: $page, perPage: $perPage) {\n        total page perPage items { ...WebhookDeliveryFields }\n      }\n    }": typeof types.ListWebhookDeliveriesDocument,
    "query GetWebhookDelivery($id: String!) { webhookDelivery(id: $id) { ...WebhookDeliveryFields } }": typeof types.GetWebhookDeliveryDocument,
    "mutation RedeliverWebhook($id: String!) { redeliverWebhook(id: $id) { ...WebhookDeliveryFields } }": typeof types.RedeliverWebhookDocument,
    "fragment GbpTotalsFields on GbpMetricTotals { impressionsTotal impressionsSearch impressionsMaps impressionsDesktop impressionsMobile callClicks websiteClicks directionRequests }": typeof types.GbpTotalsFieldsFragmentDoc,
    "fragment GbpDailyFields on GbpDailyMetrics { date impressionsTotal impressionsSearch impressionsMaps impressionsDesktop impressionsMobile callClicks websiteClicks directionRequests }": typeof types.GbpDailyFieldsFragmentDoc,
    "query GbpMetrics($locationId: Int!, $from: String, $to: String, $includeDaily: Boolean!) {\n  gbpMetrics(locationId: $locationId, from: $from, to: $to, includeDaily: $includeDaily) {\n    locationId organizationId\n    period { from to }\n    totals { ...GbpTotalsFields }\n    previousPeriod { from to totals { ...GbpTotalsFields } }\n    daily { ...GbpDailyFields }\n  }\n}": typeof types.GbpMetricsDocument,
    "query GbpSearchTerms($locationId: Int!, $year: Int, $month: Int, $page: Int!, $perPage: Int!) {\n  gbpSearchTerms(locationId: $locationId, year: $year, month: $month, page: $page, perPage: $perPage) {\n    total page perPage locationId organizationId year month\n    items { keyword year month monthLabel impressions belowThreshold locationId organizationId }\n  }\n}": typeof types.GbpSearchTermsDocument,
    "fragment CustomerFields on AgencyCustomer { id name email phone language trialEndsAt createdAt updatedAt\n  customPlan { id name } organizations { id name } }": typeof types.CustomerFieldsFragmentDoc,
    "fragment CustomPlanFields on CustomPlan { id billingMonthlyId billingYearlyId name isDefault isHidden isFree createdAt updatedAt }": typeof types.CustomPlanFieldsFragmentDoc,
    "fragment OrderFields on NfcOrder { id orderNumber email total currency status\n  shipping { name address city country trackingUrl }\n  items { productName quantity unitPrice nfcUrls } }": typeof types.OrderFieldsFragmentDoc,
    "fragment ConnectLinkFields on ConnectLink { token provider locationId connectUrl status expiresAt lastStartedAt completedOauthAt usedAt revokedAt createdAt }": typeof types.ConnectLinkFieldsFragmentDoc,
    "fragment AuditEventFields on AgencyAuditEvent { id action subjectType subjectId customerId actorType actorUserId actorTokenId actorLabel requestId beforeJson afterJson createdAt }": typeof types.AuditEventFieldsFragmentDoc,
    "fragment AiAuthorizationFields on AiAuthorization { id userId clientId clientName scopes organizationIds createdAt lastUsedAt revokedAt }": typeof types.AiAuthorizationFieldsFragmentDoc,
    "fragment LocationFields on Location { id organizationId name createdAt updatedAt }": typeof types.LocationFieldsFragmentDoc,
    "fragment OrganizationFields on Organization { id name defaultLocationId logo createdAt updatedAt locations { ...LocationFields } }": typeof types.OrganizationFieldsFragmentDoc,
    "fragment SourceFields on ReviewSource { id name url logo available canCollectReviews deepLinkingSupported }": typeof types.SourceFieldsFragmentDoc,
    "fragment ReviewFields on Review { id organizationId locationId integrationId author publishedAt rating title message\n  source sourceLogo avatar reply replyDate hidden verified }": typeof types.ReviewFieldsFragmentDoc,
    "fragment WritableSourceFields on WritableSource { id name logo type organizationId locationId }": typeof types.WritableSourceFieldsFragmentDoc,
    "fragment ScanRowFields on Scan { uuid location keyword keywords gridSize isScheduled isRunning lastRunAt nextRunAt }": typeof types.ScanRowFieldsFragmentDoc,
    "fragment PinFields on ScanPinResult { lat lng rank keyword status snapshotAt topResults { placeId name rank } }": typeof types.PinFieldsFragmentDoc,
    "query ScanDetail($uuid: String!, $snapshotAt: String, $topN: Int) {\n  scan(uuid: $uuid, snapshotAt: $snapshotAt, topN: $topN) {\n    scan { uuid location keyword keywords gridSize isRunning }\n    progress { pinsDone pinsTotal }\n    summary { averageRank top3Count top4To10Count notRankingCount }\n    reportUrl availableSnapshots results { ...PinFields }\n  }\n}": typeof types.ScanDetailDocument,
    "query ScanPinChanges($uuid: String!, $keyword: String, $snapshotAt: String, $compareTo: String) {\n  scanPinChanges(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt, compareTo: $compareTo) {\n    scanUuid keyword snapshotAt previousSnapshotAt gained lost same\n    pins { lat lng rank previousRank change overtakenBy { placeId name rank } overtook { placeId name rank } }\n  }\n}": typeof types.ScanPinChangesDocument,
    "query ScanDataPoints($uuid: String!, $snapshotAt: String, $keyword: String, $topN: Int, $page: Int!, $perPage: Int!) {\n  scanDataPoints(uuid: $uuid, snapshotAt: $snapshotAt, keyword: $keyword, topN: $topN, page: $page, perPage: $perPage) {\n    total page perPage scanUuid snapshotAt keyword topN items { ...PinFields }\n  }\n}": typeof types.ScanDataPointsDocument,
    "fragment ScanSnapshotFields on ScanSnapshot {\n  snapshotAt label shortLabel monthYear avgRank changeFromPrevious top3Count top10Count belowTop10Count notRankingCount totalPins visibilityScore ranked\n}": typeof types.ScanSnapshotFieldsFragmentDoc,
    "query ScanSnapshots($uuid: String!, $keyword: String) { scanSnapshots(uuid: $uuid, keyword: $keyword) { ...ScanSnapshotFields } }": typeof types.ScanSnapshotsDocument,
    "query ScanInsights($uuid: String!, $keyword: String, $snapshotAt: String) {\n  scanInsights(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) {\n    scanUuid snapshotAt keyword\n    summary { avgRank visibilityScore top3 top10 notRanking totalPins }\n    trendsVsFirstSnapshot { firstSnapshotAt startAvg currentAvg change improved percentChange }\n    trendsVsPreviousSnapshot { previousSnapshotAt avgRankChange visibilityChange top3Change top10Change }\n    geographicStrength { label pins avgRank visibility coverage }\n    topCompetitors { name avgRank visibility threatScore }\n    recommendations { type icon title description }\n  }\n}": typeof types.ScanInsightsDocument,
    "fragment RunStartedFields on ScanRunStarted { uuid runId startedAt isRunning }": typeof types.RunStartedFieldsFragmentDoc,
    "mutation CreateScan($input: CreateScanInput!) { createScan(input: $input) { ...RunStartedFields } }": typeof types.CreateScanDocument,
    "mutation RunScan($uuid: String!) { runScan(uuid: $uuid) { ...RunStartedFields } }": typeof types.RunScanDocument,
    "fragment ScheduleFields on ScanSchedule { uuid isScheduled frequency nextRunAt scheduledFrom scheduledTo scheduledDays timezone }": typeof types.ScheduleFieldsFragmentDoc,
    "mutation SetScanSchedule($uuid: String!, $input: SetScanScheduleInput!) { setScanSchedule(uuid: $uuid, input: $input) { ...ScheduleFields } }": typeof types.SetScanScheduleDocument,
};
const documents: Documents = {
    "query InboundEndpoint($token: String!) { inboundEndpoint(token: $token) { connection signed } }": types.InboundEndpointDocument,
    "mutation ReceiveInboundSubmission($token: String!, $kind: InboundBodyKind!, $body: String!, $signature: String, $timestamp: String) {\n  receiveInboundSubmission(token: $token, kind: $kind, body: $body, signature: $signature, timestamp: $timestamp) {\n    status connection submissionId contactId sendAt rescheduled reason duplicateOf\n  }\n}": types.ReceiveInboundSubmissionDocument,
    "query McpBrandName { tenant { brandName } }": types.McpBrandNameDocument,
    "fragment AccessScope on Query {\n  accessScope(organizationId: $organizationId, locationId: $locationId) @include(if: $checkScope) { organizationId }\n}": types.AccessScopeFragmentDoc,
    "fragment OrganizationScope on Query { accessScope(organizationId: $organizationId) @include(if: $checkScope) { organizationId } }": types.OrganizationScopeFragmentDoc,
    "query ScopeCheck($organizationId: Int, $locationId: Int) {\n  accessScope(organizationId: $organizationId, locationId: $locationId) { organizationId }\n}": types.ScopeCheckDocument,
    "fragment MetricsTotalsFields on MetricsTotals { totalReviews avgRating responded responseRate starDistribution { rating count } sentimentDistribution { positive neutral negative } aspects { aspect positive neutral negative } }": types.MetricsTotalsFieldsFragmentDoc,
    "query McpGetMetrics($compare: Boolean!, $organizationId: Int, $locationId: Int, $sourceName: String, $dateFrom: String, $dateTo: String,\n      $groupBy: String, $compareToDateFrom: String, $compareToDateTo: String) {\n    reviewMetrics(organizationId: $organizationId, locationId: $locationId, sourceName: $sourceName, dateFrom: $dateFrom, dateTo: $dateTo,\n        groupBy: $groupBy, compareToDateFrom: $compareToDateFrom, compareToDateTo: $compareToDateTo) {\n      period { from to }\n      filters { organizationId locationId sourceName }\n      totals { ...MetricsTotalsFields }\n      breakdown { bucket totalReviews avgRating responded responseRate }\n      comparison @include(if: $compare) { period { from to } totals { ...MetricsTotalsFields } }\n    }\n  }": types.McpGetMetricsDocument,
    "query McpGetAiInsights($organizationId: Int!, $locationId: Int, $periodStart: String, $periodEnd: String) {\n    aiInsights(organizationId: $organizationId, locationId: $locationId, periodStart: $periodStart, periodEnd: $periodEnd) {\n      organizationId locationId period { from to } previousPeriod { from to }\n      totals { ...MetricsTotalsFields } previousTotals { ...MetricsTotalsFields } analysedReviews\n      themes { theme mentions positive neutral negative score sentiment example previousMentions }\n      changes { subject previous current direction text }\n      strengths complaints suggestedActions narrative narrativeSource\n    }\n  }": types.McpGetAiInsightsDocument,
    "query McpGetReport($organizationId: Int!, $month: String!) {\n    organizationReport(organizationId: $organizationId, month: $month) {\n      organizationId organizationName language month previousMonth title period { from to }\n      totals { ...MetricsTotalsFields } previousTotals { ...MetricsTotalsFields }\n      months { month totalReviews avgRating responseRate positive neutral negative aspects { aspect mentions positive neutral negative netSentiment } }\n      changes\n    }\n  }": types.McpGetReportDocument,
    "fragment AutoRespondRuleFields on AutoRespondRule { id organizationId locationId name ratings sourceNames keywords keywordMatch useAi template paused priority createdAt updatedAt }": types.AutoRespondRuleFieldsFragmentDoc,
    "query McpListAutoRespondRules($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $useAi: Boolean, $paused: Boolean, $page: Int!, $perPage: Int!) {\n    ...AccessScope\n    autoRespondRules(organizationId: $organizationId, locationId: $locationId, useAi: $useAi, paused: $paused, page: $page, perPage: $perPage) {\n      total page perPage items { ...AutoRespondRuleFields }\n    }\n  }": types.McpListAutoRespondRulesDocument,
    "fragment CampaignFields on Campaign { id internalId name organizationId locationId contactListId paused pausedAt reviewUrl feedbackThreshold steps { channel delayHours } metrics { invitesSent invitesFailed invitesScheduled clicks feedbackCount } createdAt updatedAt }": types.CampaignFieldsFragmentDoc,
    "query McpListCampaigns($checkScope: Boolean!, $organizationId: Int, $campaignId: Int, $dateFrom: String, $dateTo: String, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    campaigns(organizationId: $organizationId, campaignId: $campaignId, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, perPage: $perPage) {\n      total page perPage items { ...CampaignFields }\n    }\n  }": types.McpListCampaignsDocument,
    "fragment ContactFields on Contact { id internalId contactListId firstName lastName email phone subscribed unsubscribedAt engagement { invitesSent lastInvitedAt clicks feedbackCount } createdAt }": types.ContactFieldsFragmentDoc,
    "query McpListContacts($checkScope: Boolean!, $organizationId: Int, $contactListId: Int, $subscribed: Boolean, $dateFrom: String, $dateTo: String, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    contacts(organizationId: $organizationId, contactListId: $contactListId, subscribed: $subscribed, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, perPage: $perPage) {\n      total page perPage items { ...ContactFields }\n    }\n  }": types.McpListContactsDocument,
    "query McpGetContactActivity($contactId: ID!, $limit: Int!) {\n    contact(id: $contactId) { ...ContactFields }\n    contactActivity(contactId: $contactId, limit: $limit) { id type channel detail occurredAt campaignId campaignName }\n  }": types.McpGetContactActivityDocument,
    "mutation McpDraftReviewResponse($reviewId: Int!, $message: String!) {\n    draftReviewResponse(reviewId: $reviewId, message: $message) { id reviewId organizationId locationId message status createdVia createdAt }\n  }": types.McpDraftReviewResponseDocument,
    "fragment PrivateFeedbackFields on PrivateFeedback { id organizationId locationId campaignId contactId rating author email phone message reply replyDate replied source sourceName createdAt }": types.PrivateFeedbackFieldsFragmentDoc,
    "query McpListPrivateFeedback($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $dateFrom: String, $dateTo: String, $ratings: [Int!], $responded: Boolean,\n      $page: Int!, $perPage: Int!) {\n    ...AccessScope\n    privateFeedbacks(organizationId: $organizationId, locationId: $locationId, dateFrom: $dateFrom, dateTo: $dateTo, ratings: $ratings, responded: $responded,\n        page: $page, perPage: $perPage) {\n      total page perPage items { ...PrivateFeedbackFields }\n    }\n  }": types.McpListPrivateFeedbackDocument,
    "fragment OrganizationStatsField on Organization { stats @include(if: $includeStats) { reviewCount averageRating starDistribution { five four three two one } } }": types.OrganizationStatsFieldFragmentDoc,
    "query McpListOrganizations($one: Boolean!, $id: Int!, $checkScope: Boolean!, $organizationId: Int, $includeStats: Boolean!, $search: String, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    organization(id: $id) @include(if: $one) { ...OrganizationFields ...OrganizationStatsField }\n    organizations(search: $search, page: $page, perPage: $perPage) @skip(if: $one) {\n      total page perPage items { ...OrganizationFields ...OrganizationStatsField }\n    }\n  }": types.McpListOrganizationsDocument,
    "query McpListLocations($checkScope: Boolean!, $organizationId: Int, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    locations(organizationId: $organizationId, page: $page, perPage: $perPage) { total page perPage items { ...LocationFields } }\n  }": types.McpListLocationsDocument,
    "query McpListReviews($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $sourceNames: [String!], $ratings: [Int!],\n    $dateFrom: String, $dateTo: String, $sentiment: String, $aspect: String, $aspectSentiment: String, $responded: Boolean, $verified: Boolean, $query: String,\n    $minMessageLength: Int, $sortBy: ReviewSort, $page: Int!, $perPage: Int!) {\n    ...AccessScope\n    reviews(organizationId: $organizationId, locationId: $locationId, sourceNames: $sourceNames, ratings: $ratings,\n      dateFrom: $dateFrom, dateTo: $dateTo, sentiment: $sentiment, aspect: $aspect, aspectSentiment: $aspectSentiment,\n      responded: $responded, verified: $verified, query: $query,\n      minMessageLength: $minMessageLength, sortBy: $sortBy, page: $page, perPage: $perPage) {\n      total page perPage items { ...ReviewFields }\n    }\n  }": types.McpListReviewsDocument,
    "query McpGetReview($id: Int!) { review(id: $id) { ...ReviewFields } }": types.McpGetReviewDocument,
    "query McpListScans($page: Int!, $perPage: Int!, $search: String, $isScheduled: Boolean, $completed: Boolean, $failed: Boolean, $sinceDays: Int) {\n    scans(page: $page, perPage: $perPage, search: $search, isScheduled: $isScheduled, completed: $completed, failed: $failed, sinceDays: $sinceDays) {\n      total page perPage items { ...ScanRowFields }\n    }\n  }": types.McpListScansDocument,
    "query McpGetScanReport($uuid: String!, $keyword: String, $snapshotAt: String) {\n    scanReport(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) {\n      brand { language }\n      scan { uuid location address type keywords gridSize distance distanceUnit lat lng }\n      keyword\n      snapshot { ...ScanSnapshotFields }\n      snapshots { ...ScanSnapshotFields }\n      summary { averageRank top3 top4to10 top11to20 notRanking totalPins visibilityScore changeFromPrevious previousSnapshotAt }\n      pins { lat lng rank status }\n      competitors { name avgRank appearances coverage threatScore }\n      history {\n        size\n        trend { ...ScanSnapshotFields }\n        competitors { placeId name points { avgRank visibility } }\n        changes { previousSnapshotAt gained lost same cells { x y rank previousRank change } }\n        overtakers { name pins }\n      }\n      htmlUrl pdfUrl\n    }\n  }": types.McpGetScanReportDocument,
    "query McpScanRun($id: String!) { scanRun(id: $id) { id scanUuid status snapshotAt queuedAt lastUpdatedAt error pinsDone pinsTotal } }": types.McpScanRunDocument,
    "query McpRunOutcome($uuid: String!, $snapshotAt: String) {\n  scan(uuid: $uuid, snapshotAt: $snapshotAt, topN: 0) { summary { averageRank top3Count top4To10Count notRankingCount } reportUrl }\n}": types.McpRunOutcomeDocument,
    "mutation McpTagReviews($reviewIds: [Int!]!, $attachTags: [String!], $detachTags: [String!]) {\n    tagReviews(reviewIds: $reviewIds, attachTags: $attachTags, detachTags: $detachTags) { reviewId tags }\n  }": types.McpTagReviewsDocument,
    "fragment ConnectPageFields on ConnectPage { brand { name logoUrl language } provider locationName status signedIn startCsrf }": types.ConnectPageFieldsFragmentDoc,
    "query ConnectPage($token: String!) { page: connectPage(token: $token) { ...ConnectPageFields } }": types.ConnectPageDocument,
    "mutation StartConnectSignIn($token: String!, $csrf: String!) { url: startConnectSignIn(token: $token, csrf: $csrf) }": types.StartConnectSignInDocument,
    "mutation CompleteConnectSignIn($state: String!, $callbackUrl: String!) {\n  signIn: completeConnectSignIn(state: $state, callbackUrl: $callbackUrl) { token failure { code reason message } }\n}": types.CompleteConnectSignInDocument,
    "query ConnectBrandForState($state: String!) { brand: connectBrandForState(state: $state) { name logoUrl language } }": types.ConnectBrandForStateDocument,
    "query ConnectSelection($token: String!) {\n  selection: connectSelection(token: $token) { page { ...ConnectPageFields } businesses { externalId name address } nonce }\n}": types.ConnectSelectionDocument,
    "mutation SelectConnectBusiness($token: String!, $nonce: String!, $business: String!) {\n  selected: selectConnectBusiness(token: $token, nonce: $nonce, business: $business) { page { ...ConnectPageFields } businessName integrationId reviewSyncFailure }\n}": types.SelectConnectBusinessDocument,
    "fragment FeedbackPageFields on FeedbackPage { invite brand { name logoUrl language } businessName firstName lastName email phone feedbackSent }": types.FeedbackPageFieldsFragmentDoc,
    "query FeedbackPage($invite: String!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields } }": types.FeedbackPageDocument,
    "query ReviewRatingPage($invite: String!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields review: gate(rating: 5) { kind url } } }": types.ReviewRatingPageDocument,
    "mutation RateReviewLink($invite: String!, $rating: Int!) { page: openReviewLink(invite: $invite) { ...FeedbackPageFields gate(rating: $rating) { kind url } } }": types.RateReviewLinkDocument,
    "query RatedReviewPage($invite: String!, $rating: Int!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields gate(rating: $rating) { kind url } } }": types.RatedReviewPageDocument,
    "mutation SendPrivateFeedback($invite: String!, $form: PrivateFeedbackFormInput!) { sendPrivateFeedback(invite: $invite, form: $form) }": types.SendPrivateFeedbackDocument,
    "fragment ScanReportBrandFields on ScanReportBrand { name logoUrl color language }": types.ScanReportBrandFieldsFragmentDoc,
    "fragment ScanReportFields on ScanReport {\n  brand { ...ScanReportBrandFields }\n  scan { uuid location address type keywords gridSize distance distanceUnit lat lng }\n  keyword\n  snapshots { ...ScanSnapshotFields }\n  snapshot { ...ScanSnapshotFields }\n  pins { lat lng rank status top { placeId name rank } }\n  summary { averageRank top3 top4to10 top11to20 notRanking totalPins visibilityScore changeFromPrevious previousSnapshotAt }\n  competitors { name avgRank appearances coverage threatScore }\n  history {\n    size\n    heatmaps { snapshot { ...ScanSnapshotFields } size cells { x y rank status } }\n    trend { ...ScanSnapshotFields }\n    competitors { placeId name points { avgRank visibility } }\n    changes { previousSnapshotAt gained lost same cells { x y rank status previousRank change } }\n    overtakers { name pins }\n  }\n}": types.ScanReportFieldsFragmentDoc,
    "query ScanReportPage($uuid: String!, $keyword: String, $snapshotAt: String) {\n  page: scanReportPage(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) { report { ...ScanReportFields } problem brand { ...ScanReportBrandFields } }\n}": types.ScanReportPageDocument,
    "query UnsubscribePage($token: String!) {\n  unsubscribePage(token: $token) { brand { name logoUrl language } businessName unsubscribed }\n}": types.UnsubscribePageDocument,
    "mutation Unsubscribe($token: String!, $withLogo: Boolean!) {\n  unsubscribe(token: $token) { brand { name logoUrl @include(if: $withLogo) language } businessName contactId already canceled }\n}": types.UnsubscribeDocument,
    "query ListAuditEvents($action: String, $subjectType: String, $subjectId: String, $customerId: Int, $page: Int!, $perPage: Int!) {\n      agencyAuditEvents(action: $action, subjectType: $subjectType, subjectId: $subjectId, customerId: $customerId, page: $page, perPage: $perPage) {\n        total page perPage items { ...AuditEventFields }\n      }\n    }": types.ListAuditEventsDocument,
    "query ListConnectLinks($locationId: Int, $provider: String, $active: Boolean, $page: Int!, $perPage: Int!) {\n      connectLinks(locationId: $locationId, provider: $provider, active: $active, page: $page, perPage: $perPage) {\n        total page perPage items { ...ConnectLinkFields }\n      }\n    }": types.ListConnectLinksDocument,
    "mutation CreateConnectLink($input: CreateConnectLinkInput!) { createConnectLink(input: $input) { ...ConnectLinkFields } }": types.CreateConnectLinkDocument,
    "query GetConnectLink($token: String!) { connectLink(token: $token) { ...ConnectLinkFields } }": types.GetConnectLinkDocument,
    "mutation RevokeConnectLink($token: String!) { revokeConnectLink(token: $token) { ...ConnectLinkFields } }": types.RevokeConnectLinkDocument,
    "query ListCustomers($search: String, $page: Int!, $perPage: Int!) {\n      agencyCustomers(search: $search, page: $page, perPage: $perPage) { total page perPage items { ...CustomerFields } }\n    }": types.ListCustomersDocument,
    "mutation CreateCustomer($input: CreateCustomerInput!) { createCustomer(input: $input) { ...CustomerFields } }": types.CreateCustomerDocument,
    "mutation ChangeCustomerPlan($id: Int!, $customPlanId: String!, $language: String) {\n      changeCustomerPlan(id: $id, customPlanId: $customPlanId, language: $language) { ...CustomerFields }\n    }": types.ChangeCustomerPlanDocument,
    "mutation SetCustomerLocationLimit($id: Int!, $limit: Int!) { setCustomerLocationLimit(id: $id, locationLimit: $limit) { message } }": types.SetCustomerLocationLimitDocument,
    "mutation SetCustomerMemberLimit($id: Int!, $limit: Int!) { setCustomerMemberLimit(id: $id, memberLimit: $limit) { message } }": types.SetCustomerMemberLimitDocument,
    "mutation AddCustomerCredits($id: Int!, $input: AddCreditsInput!) { addCustomerCredits(id: $id, input: $input) { message balance } }": types.AddCustomerCreditsDocument,
    "mutation PauseCustomer($id: Int!) { pauseCustomer(id: $id) { message } }": types.PauseCustomerDocument,
    "mutation ResumeCustomer($id: Int!) { resumeCustomer(id: $id) { message } }": types.ResumeCustomerDocument,
    "mutation DeleteCustomer($id: Int!) { deleteCustomer(id: $id) { message } }": types.DeleteCustomerDocument,
    "query ListNfcOrders { nfcOrders { ...OrderFields } }": types.ListNfcOrdersDocument,
    "mutation ShipNfcOrder($id: String!, $trackingUrl: String) { shipNfcOrder(id: $id, trackingUrl: $trackingUrl) { ...OrderFields } }": types.ShipNfcOrderDocument,
    "mutation CompleteNfcOrder($id: String!) { completeNfcOrder(id: $id) { ...OrderFields } }": types.CompleteNfcOrderDocument,
    "mutation CancelNfcOrder($id: String!) { cancelNfcOrder(id: $id) { ...OrderFields } }": types.CancelNfcOrderDocument,
    "query ListCustomPlans { customPlans { ...CustomPlanFields } }": types.ListCustomPlansDocument,
    "fragment ScanFields on Scan { ...ScanRowFields distance distanceUnit type address targetPlaceId lat lng lastRunFailed archivedAt reportUrl createdAt updatedAt }": types.ScanFieldsFragmentDoc,
    "query ScanCost($input: CreateScanInput!) {\n  scanCost(input: $input) { pins keywords creditsPerRun schedules { frequency runsPerYear creditsPerYear } }\n}": types.ScanCostDocument,
    "query ListScans($page: Int!, $perPage: Int!, $search: String, $isScheduled: Boolean, $completed: Boolean, $failed: Boolean,\n        $sinceDays: Int, $archivedOnly: Boolean, $includeArchived: Boolean) {\n      scans(page: $page, perPage: $perPage, search: $search, isScheduled: $isScheduled, completed: $completed, failed: $failed,\n        sinceDays: $sinceDays, archivedOnly: $archivedOnly, includeArchived: $includeArchived) {\n        total page perPage items { ...ScanRowFields }\n      }\n    }": types.ListScansDocument,
    "mutation UpdateScan($uuid: String!, $input: UpdateScanInput!) { updateScan(uuid: $uuid, input: $input) { ...ScanFields } }": types.UpdateScanDocument,
    "mutation ArchiveScan($uuid: String!) { archiveScan(uuid: $uuid) { ...ScanFields } }": types.ArchiveScanDocument,
    "mutation RestoreScan($uuid: String!) { restoreScan(uuid: $uuid) { ...ScanFields } }": types.RestoreScanDocument,
    "query GetScanSchedule($uuid: String!) { scanSchedule(uuid: $uuid) { ...ScheduleFields } }": types.GetScanScheduleDocument,
    "query ListAiAuthorizations($includeRevoked: Boolean!) { aiAuthorizations(includeRevoked: $includeRevoked) { ...AiAuthorizationFields } }": types.ListAiAuthorizationsDocument,
    "mutation RevokeAiAuthorization($id: Int!) { revokeAiAuthorization(id: $id) { ...AiAuthorizationFields } }": types.RevokeAiAuthorizationDocument,
    "query ListCampaigns($organizationId: Int, $search: String, $page: Int!, $perPage: Int!) {\n      campaigns(organizationId: $organizationId, search: $search, page: $page, perPage: $perPage) {\n        total page perPage items { id name }\n      }\n    }": types.ListCampaignsDocument,
    "mutation InviteContact($campaign: String!, $input: InviteContactInput!) {\n      inviteContact(campaign: $campaign, input: $input) { id message }\n    }": types.InviteContactDocument,
    "mutation InviteContacts($campaign: String!, $inputs: [InviteContactInput!]!) {\n      inviteContacts(campaign: $campaign, inputs: $inputs) { id message }\n    }": types.InviteContactsDocument,
    "query ListLocations($organizationId: Int, $search: String, $page: Int!, $perPage: Int!) {\n      locations(organizationId: $organizationId, search: $search, page: $page, perPage: $perPage) {\n        total page perPage items { ...LocationFields }\n      }\n    }": types.ListLocationsDocument,
    "query GetLocation($id: Int!) { location(id: $id) { ...LocationFields } }": types.GetLocationDocument,
    "mutation CreateLocation($input: CreateLocationInput!) { createLocation(input: $input) { ...LocationFields } }": types.CreateLocationDocument,
    "mutation UpdateLocation($id: Int!, $input: UpdateLocationInput!) { updateLocation(id: $id, input: $input) { ...LocationFields } }": types.UpdateLocationDocument,
    "mutation DeleteLocation($id: Int!) { deleteLocation(id: $id) { id message } }": types.DeleteLocationDocument,
    "fragment WebhookFields on WebhookEndpoint { id url description enabled events previousSecretExpiresAt createdAt updatedAt }": types.WebhookFieldsFragmentDoc,
    "fragment WebhookDeliveryFields on WebhookDelivery { id endpointId event status attemptCount lastStatusCode lastError deliveredAt payload createdAt updatedAt\n  attempts { attempt statusCode latencyMs error responseExcerpt requestHeaders { name value } responseHeaders { name value } createdAt } }": types.WebhookDeliveryFieldsFragmentDoc,
    "query ListOrganizations($page: Int!, $perPage: Int!) {\n      organizations(page: $page, perPage: $perPage) { total page perPage items { ...OrganizationFields } }\n    }": types.ListOrganizationsDocument,
    "mutation CreateOrganization($input: CreateOrganizationInput!) { createOrganization(input: $input) { ...OrganizationFields } }": types.CreateOrganizationDocument,
    "query GetOrganization($id: Int!) { organization(id: $id) { ...OrganizationFields } }": types.GetOrganizationDocument,
    "mutation UpdateOrganization($id: Int!, $input: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $input) { ...OrganizationFields } }": types.UpdateOrganizationDocument,
    "mutation DeleteOrganization($id: Int!) { deleteOrganization(id: $id) { id message } }": types.DeleteOrganizationDocument,
    "query ListSources { sources { ...SourceFields } }": types.ListSourcesDocument,
    "query ListCountries { countries { id name } }": types.ListCountriesDocument,
    "query GetCurrentUser { me { id name email } }": types.GetCurrentUserDocument,
    "fragment ReportTotalsFields on MetricsTotals { totalReviews avgRating responded responseRate sentimentDistribution { positive neutral negative }\n  aspects { aspect positive neutral negative } }": types.ReportTotalsFieldsFragmentDoc,
    "query GetOrganizationReport($id: Int!, $month: String!) {\n      organizationReport(organizationId: $id, month: $month) {\n        organizationId organizationName brandName brandLogoUrl brandColor language month previousMonth generatedAt\n        period { from to }\n        totals { ...ReportTotalsFields } previousTotals { ...ReportTotalsFields }\n        months { month totalReviews avgRating responseRate positive neutral negative aspects { aspect mentions positive neutral negative netSentiment } }\n      }\n    }": types.GetOrganizationReportDocument,
    "query ListReviews($rating: Int, $organizationId: Int, $locationId: Int, $sourceNames: [String!], $tags: [String!], $page: Int!, $perPage: Int!) {\n      reviews(rating: $rating, organizationId: $organizationId, locationId: $locationId, sourceNames: $sourceNames, tags: $tags, page: $page, perPage: $perPage) {\n        total page perPage items { ...ReviewFields }\n      }\n    }": types.ListReviewsDocument,
    "query ListWritableReviewSources($organizationId: Int, $locationId: Int, $page: Int!, $perPage: Int!) {\n      writableSources(organizationId: $organizationId, locationId: $locationId, page: $page, perPage: $perPage) {\n        total page perPage items { ...WritableSourceFields }\n      }\n    }": types.ListWritableReviewSourcesDocument,
    "query GetReview($id: Int!) { review(id: $id) { ...ReviewFields } }": types.GetReviewDocument,
    "mutation CreateReview($input: CreateReviewInput!) { createReview(input: $input) { ...ReviewFields } }": types.CreateReviewDocument,
    "mutation UpdateReview($id: Int!, $input: UpdateReviewInput!) { updateReview(id: $id, input: $input) { ...ReviewFields } }": types.UpdateReviewDocument,
    "mutation ReplyToReview($id: Int!, $input: ReplyToReviewInput!) { replyToReview(id: $id, input: $input) { ...ReviewFields } }": types.ReplyToReviewDocument,
    "mutation DeleteReview($id: Int!) { deleteReview(id: $id) { id message } }": types.DeleteReviewDocument,
    "query ListWebhooks($page: Int!, $perPage: Int!) {\n      webhookEndpoints(page: $page, perPage: $perPage) { total page perPage items { ...WebhookFields } }\n    }": types.ListWebhooksDocument,
    "mutation CreateWebhook($input: CreateWebhookEndpointInput!) {\n      createWebhookEndpoint(input: $input) { secret endpoint { ...WebhookFields } }\n    }": types.CreateWebhookDocument,
    "query GetWebhook($id: Int!) { webhookEndpoint(id: $id) { ...WebhookFields } }": types.GetWebhookDocument,
    "mutation UpdateWebhook($id: Int!, $input: UpdateWebhookEndpointInput!) {\n      updateWebhookEndpoint(id: $id, input: $input) { ...WebhookFields }\n    }": types.UpdateWebhookDocument,
    "mutation DeleteWebhook($id: Int!) { deleteWebhookEndpoint(id: $id) { id message } }": types.DeleteWebhookDocument,
    "mutation RotateWebhookSecret($id: Int!) { rotateWebhookSecret(id: $id) { secret endpoint { ...WebhookFields } } }": types.RotateWebhookSecretDocument,
    "mutation TestWebhook($id: Int!) { testWebhookEndpoint(id: $id) { webhookId delivered statusCode latencyMs error responseExcerpt sentAt } }": types.TestWebhookDocument,
    "query GetWebhookSecret($id: Int!) { webhookEndpointSecret(id: $id) }": types.GetWebhookSecretDocument,
    "query ListWebhookDeliveries($endpointId: Int, $status: String, $event: String, $page: Int!, $perPage: Int!) {\n      webhookDeliveries(endpointId: $endpointId, status: $status, event: $event, page: $page, perPage: $perPage) {\n        total page perPage items { ...WebhookDeliveryFields }\n      }\n    }": types.ListWebhookDeliveriesDocument,
    "query GetWebhookDelivery($id: String!) { webhookDelivery(id: $id) { ...WebhookDeliveryFields } }": types.GetWebhookDeliveryDocument,
    "mutation RedeliverWebhook($id: String!) { redeliverWebhook(id: $id) { ...WebhookDeliveryFields } }": types.RedeliverWebhookDocument,
    "fragment GbpTotalsFields on GbpMetricTotals { impressionsTotal impressionsSearch impressionsMaps impressionsDesktop impressionsMobile callClicks websiteClicks directionRequests }": types.GbpTotalsFieldsFragmentDoc,
    "fragment GbpDailyFields on GbpDailyMetrics { date impressionsTotal impressionsSearch impressionsMaps impressionsDesktop impressionsMobile callClicks websiteClicks directionRequests }": types.GbpDailyFieldsFragmentDoc,
    "query GbpMetrics($locationId: Int!, $from: String, $to: String, $includeDaily: Boolean!) {\n  gbpMetrics(locationId: $locationId, from: $from, to: $to, includeDaily: $includeDaily) {\n    locationId organizationId\n    period { from to }\n    totals { ...GbpTotalsFields }\n    previousPeriod { from to totals { ...GbpTotalsFields } }\n    daily { ...GbpDailyFields }\n  }\n}": types.GbpMetricsDocument,
    "query GbpSearchTerms($locationId: Int!, $year: Int, $month: Int, $page: Int!, $perPage: Int!) {\n  gbpSearchTerms(locationId: $locationId, year: $year, month: $month, page: $page, perPage: $perPage) {\n    total page perPage locationId organizationId year month\n    items { keyword year month monthLabel impressions belowThreshold locationId organizationId }\n  }\n}": types.GbpSearchTermsDocument,
    "fragment CustomerFields on AgencyCustomer { id name email phone language trialEndsAt createdAt updatedAt\n  customPlan { id name } organizations { id name } }": types.CustomerFieldsFragmentDoc,
    "fragment CustomPlanFields on CustomPlan { id billingMonthlyId billingYearlyId name isDefault isHidden isFree createdAt updatedAt }": types.CustomPlanFieldsFragmentDoc,
    "fragment OrderFields on NfcOrder { id orderNumber email total currency status\n  shipping { name address city country trackingUrl }\n  items { productName quantity unitPrice nfcUrls } }": types.OrderFieldsFragmentDoc,
    "fragment ConnectLinkFields on ConnectLink { token provider locationId connectUrl status expiresAt lastStartedAt completedOauthAt usedAt revokedAt createdAt }": types.ConnectLinkFieldsFragmentDoc,
    "fragment AuditEventFields on AgencyAuditEvent { id action subjectType subjectId customerId actorType actorUserId actorTokenId actorLabel requestId beforeJson afterJson createdAt }": types.AuditEventFieldsFragmentDoc,
    "fragment AiAuthorizationFields on AiAuthorization { id userId clientId clientName scopes organizationIds createdAt lastUsedAt revokedAt }": types.AiAuthorizationFieldsFragmentDoc,
    "fragment LocationFields on Location { id organizationId name createdAt updatedAt }": types.LocationFieldsFragmentDoc,
    "fragment OrganizationFields on Organization { id name defaultLocationId logo createdAt updatedAt locations { ...LocationFields } }": types.OrganizationFieldsFragmentDoc,
    "fragment SourceFields on ReviewSource { id name url logo available canCollectReviews deepLinkingSupported }": types.SourceFieldsFragmentDoc,
    "fragment ReviewFields on Review { id organizationId locationId integrationId author publishedAt rating title message\n  source sourceLogo avatar reply replyDate hidden verified }": types.ReviewFieldsFragmentDoc,
    "fragment WritableSourceFields on WritableSource { id name logo type organizationId locationId }": types.WritableSourceFieldsFragmentDoc,
    "fragment ScanRowFields on Scan { uuid location keyword keywords gridSize isScheduled isRunning lastRunAt nextRunAt }": types.ScanRowFieldsFragmentDoc,
    "fragment PinFields on ScanPinResult { lat lng rank keyword status snapshotAt topResults { placeId name rank } }": types.PinFieldsFragmentDoc,
    "query ScanDetail($uuid: String!, $snapshotAt: String, $topN: Int) {\n  scan(uuid: $uuid, snapshotAt: $snapshotAt, topN: $topN) {\n    scan { uuid location keyword keywords gridSize isRunning }\n    progress { pinsDone pinsTotal }\n    summary { averageRank top3Count top4To10Count notRankingCount }\n    reportUrl availableSnapshots results { ...PinFields }\n  }\n}": types.ScanDetailDocument,
    "query ScanPinChanges($uuid: String!, $keyword: String, $snapshotAt: String, $compareTo: String) {\n  scanPinChanges(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt, compareTo: $compareTo) {\n    scanUuid keyword snapshotAt previousSnapshotAt gained lost same\n    pins { lat lng rank previousRank change overtakenBy { placeId name rank } overtook { placeId name rank } }\n  }\n}": types.ScanPinChangesDocument,
    "query ScanDataPoints($uuid: String!, $snapshotAt: String, $keyword: String, $topN: Int, $page: Int!, $perPage: Int!) {\n  scanDataPoints(uuid: $uuid, snapshotAt: $snapshotAt, keyword: $keyword, topN: $topN, page: $page, perPage: $perPage) {\n    total page perPage scanUuid snapshotAt keyword topN items { ...PinFields }\n  }\n}": types.ScanDataPointsDocument,
    "fragment ScanSnapshotFields on ScanSnapshot {\n  snapshotAt label shortLabel monthYear avgRank changeFromPrevious top3Count top10Count belowTop10Count notRankingCount totalPins visibilityScore ranked\n}": types.ScanSnapshotFieldsFragmentDoc,
    "query ScanSnapshots($uuid: String!, $keyword: String) { scanSnapshots(uuid: $uuid, keyword: $keyword) { ...ScanSnapshotFields } }": types.ScanSnapshotsDocument,
    "query ScanInsights($uuid: String!, $keyword: String, $snapshotAt: String) {\n  scanInsights(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) {\n    scanUuid snapshotAt keyword\n    summary { avgRank visibilityScore top3 top10 notRanking totalPins }\n    trendsVsFirstSnapshot { firstSnapshotAt startAvg currentAvg change improved percentChange }\n    trendsVsPreviousSnapshot { previousSnapshotAt avgRankChange visibilityChange top3Change top10Change }\n    geographicStrength { label pins avgRank visibility coverage }\n    topCompetitors { name avgRank visibility threatScore }\n    recommendations { type icon title description }\n  }\n}": types.ScanInsightsDocument,
    "fragment RunStartedFields on ScanRunStarted { uuid runId startedAt isRunning }": types.RunStartedFieldsFragmentDoc,
    "mutation CreateScan($input: CreateScanInput!) { createScan(input: $input) { ...RunStartedFields } }": types.CreateScanDocument,
    "mutation RunScan($uuid: String!) { runScan(uuid: $uuid) { ...RunStartedFields } }": types.RunScanDocument,
    "fragment ScheduleFields on ScanSchedule { uuid isScheduled frequency nextRunAt scheduledFrom scheduledTo scheduledDays timezone }": types.ScheduleFieldsFragmentDoc,
    "mutation SetScanSchedule($uuid: String!, $input: SetScanScheduleInput!) { setScanSchedule(uuid: $uuid, input: $input) { ...ScheduleFields } }": types.SetScanScheduleDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query InboundEndpoint($token: String!) { inboundEndpoint(token: $token) { connection signed } }"): (typeof documents)["query InboundEndpoint($token: String!) { inboundEndpoint(token: $token) { connection signed } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ReceiveInboundSubmission($token: String!, $kind: InboundBodyKind!, $body: String!, $signature: String, $timestamp: String) {\n  receiveInboundSubmission(token: $token, kind: $kind, body: $body, signature: $signature, timestamp: $timestamp) {\n    status connection submissionId contactId sendAt rescheduled reason duplicateOf\n  }\n}"): (typeof documents)["mutation ReceiveInboundSubmission($token: String!, $kind: InboundBodyKind!, $body: String!, $signature: String, $timestamp: String) {\n  receiveInboundSubmission(token: $token, kind: $kind, body: $body, signature: $signature, timestamp: $timestamp) {\n    status connection submissionId contactId sendAt rescheduled reason duplicateOf\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpBrandName { tenant { brandName } }"): (typeof documents)["query McpBrandName { tenant { brandName } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment AccessScope on Query {\n  accessScope(organizationId: $organizationId, locationId: $locationId) @include(if: $checkScope) { organizationId }\n}"): (typeof documents)["fragment AccessScope on Query {\n  accessScope(organizationId: $organizationId, locationId: $locationId) @include(if: $checkScope) { organizationId }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment OrganizationScope on Query { accessScope(organizationId: $organizationId) @include(if: $checkScope) { organizationId } }"): (typeof documents)["fragment OrganizationScope on Query { accessScope(organizationId: $organizationId) @include(if: $checkScope) { organizationId } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ScopeCheck($organizationId: Int, $locationId: Int) {\n  accessScope(organizationId: $organizationId, locationId: $locationId) { organizationId }\n}"): (typeof documents)["query ScopeCheck($organizationId: Int, $locationId: Int) {\n  accessScope(organizationId: $organizationId, locationId: $locationId) { organizationId }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment MetricsTotalsFields on MetricsTotals { totalReviews avgRating responded responseRate starDistribution { rating count } sentimentDistribution { positive neutral negative } aspects { aspect positive neutral negative } }"): (typeof documents)["fragment MetricsTotalsFields on MetricsTotals { totalReviews avgRating responded responseRate starDistribution { rating count } sentimentDistribution { positive neutral negative } aspects { aspect positive neutral negative } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpGetMetrics($compare: Boolean!, $organizationId: Int, $locationId: Int, $sourceName: String, $dateFrom: String, $dateTo: String,\n      $groupBy: String, $compareToDateFrom: String, $compareToDateTo: String) {\n    reviewMetrics(organizationId: $organizationId, locationId: $locationId, sourceName: $sourceName, dateFrom: $dateFrom, dateTo: $dateTo,\n        groupBy: $groupBy, compareToDateFrom: $compareToDateFrom, compareToDateTo: $compareToDateTo) {\n      period { from to }\n      filters { organizationId locationId sourceName }\n      totals { ...MetricsTotalsFields }\n      breakdown { bucket totalReviews avgRating responded responseRate }\n      comparison @include(if: $compare) { period { from to } totals { ...MetricsTotalsFields } }\n    }\n  }"): (typeof documents)["query McpGetMetrics($compare: Boolean!, $organizationId: Int, $locationId: Int, $sourceName: String, $dateFrom: String, $dateTo: String,\n      $groupBy: String, $compareToDateFrom: String, $compareToDateTo: String) {\n    reviewMetrics(organizationId: $organizationId, locationId: $locationId, sourceName: $sourceName, dateFrom: $dateFrom, dateTo: $dateTo,\n        groupBy: $groupBy, compareToDateFrom: $compareToDateFrom, compareToDateTo: $compareToDateTo) {\n      period { from to }\n      filters { organizationId locationId sourceName }\n      totals { ...MetricsTotalsFields }\n      breakdown { bucket totalReviews avgRating responded responseRate }\n      comparison @include(if: $compare) { period { from to } totals { ...MetricsTotalsFields } }\n    }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpGetAiInsights($organizationId: Int!, $locationId: Int, $periodStart: String, $periodEnd: String) {\n    aiInsights(organizationId: $organizationId, locationId: $locationId, periodStart: $periodStart, periodEnd: $periodEnd) {\n      organizationId locationId period { from to } previousPeriod { from to }\n      totals { ...MetricsTotalsFields } previousTotals { ...MetricsTotalsFields } analysedReviews\n      themes { theme mentions positive neutral negative score sentiment example previousMentions }\n      changes { subject previous current direction text }\n      strengths complaints suggestedActions narrative narrativeSource\n    }\n  }"): (typeof documents)["query McpGetAiInsights($organizationId: Int!, $locationId: Int, $periodStart: String, $periodEnd: String) {\n    aiInsights(organizationId: $organizationId, locationId: $locationId, periodStart: $periodStart, periodEnd: $periodEnd) {\n      organizationId locationId period { from to } previousPeriod { from to }\n      totals { ...MetricsTotalsFields } previousTotals { ...MetricsTotalsFields } analysedReviews\n      themes { theme mentions positive neutral negative score sentiment example previousMentions }\n      changes { subject previous current direction text }\n      strengths complaints suggestedActions narrative narrativeSource\n    }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpGetReport($organizationId: Int!, $month: String!) {\n    organizationReport(organizationId: $organizationId, month: $month) {\n      organizationId organizationName language month previousMonth title period { from to }\n      totals { ...MetricsTotalsFields } previousTotals { ...MetricsTotalsFields }\n      months { month totalReviews avgRating responseRate positive neutral negative aspects { aspect mentions positive neutral negative netSentiment } }\n      changes\n    }\n  }"): (typeof documents)["query McpGetReport($organizationId: Int!, $month: String!) {\n    organizationReport(organizationId: $organizationId, month: $month) {\n      organizationId organizationName language month previousMonth title period { from to }\n      totals { ...MetricsTotalsFields } previousTotals { ...MetricsTotalsFields }\n      months { month totalReviews avgRating responseRate positive neutral negative aspects { aspect mentions positive neutral negative netSentiment } }\n      changes\n    }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment AutoRespondRuleFields on AutoRespondRule { id organizationId locationId name ratings sourceNames keywords keywordMatch useAi template paused priority createdAt updatedAt }"): (typeof documents)["fragment AutoRespondRuleFields on AutoRespondRule { id organizationId locationId name ratings sourceNames keywords keywordMatch useAi template paused priority createdAt updatedAt }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpListAutoRespondRules($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $useAi: Boolean, $paused: Boolean, $page: Int!, $perPage: Int!) {\n    ...AccessScope\n    autoRespondRules(organizationId: $organizationId, locationId: $locationId, useAi: $useAi, paused: $paused, page: $page, perPage: $perPage) {\n      total page perPage items { ...AutoRespondRuleFields }\n    }\n  }"): (typeof documents)["query McpListAutoRespondRules($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $useAi: Boolean, $paused: Boolean, $page: Int!, $perPage: Int!) {\n    ...AccessScope\n    autoRespondRules(organizationId: $organizationId, locationId: $locationId, useAi: $useAi, paused: $paused, page: $page, perPage: $perPage) {\n      total page perPage items { ...AutoRespondRuleFields }\n    }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment CampaignFields on Campaign { id internalId name organizationId locationId contactListId paused pausedAt reviewUrl feedbackThreshold steps { channel delayHours } metrics { invitesSent invitesFailed invitesScheduled clicks feedbackCount } createdAt updatedAt }"): (typeof documents)["fragment CampaignFields on Campaign { id internalId name organizationId locationId contactListId paused pausedAt reviewUrl feedbackThreshold steps { channel delayHours } metrics { invitesSent invitesFailed invitesScheduled clicks feedbackCount } createdAt updatedAt }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpListCampaigns($checkScope: Boolean!, $organizationId: Int, $campaignId: Int, $dateFrom: String, $dateTo: String, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    campaigns(organizationId: $organizationId, campaignId: $campaignId, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, perPage: $perPage) {\n      total page perPage items { ...CampaignFields }\n    }\n  }"): (typeof documents)["query McpListCampaigns($checkScope: Boolean!, $organizationId: Int, $campaignId: Int, $dateFrom: String, $dateTo: String, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    campaigns(organizationId: $organizationId, campaignId: $campaignId, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, perPage: $perPage) {\n      total page perPage items { ...CampaignFields }\n    }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ContactFields on Contact { id internalId contactListId firstName lastName email phone subscribed unsubscribedAt engagement { invitesSent lastInvitedAt clicks feedbackCount } createdAt }"): (typeof documents)["fragment ContactFields on Contact { id internalId contactListId firstName lastName email phone subscribed unsubscribedAt engagement { invitesSent lastInvitedAt clicks feedbackCount } createdAt }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpListContacts($checkScope: Boolean!, $organizationId: Int, $contactListId: Int, $subscribed: Boolean, $dateFrom: String, $dateTo: String, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    contacts(organizationId: $organizationId, contactListId: $contactListId, subscribed: $subscribed, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, perPage: $perPage) {\n      total page perPage items { ...ContactFields }\n    }\n  }"): (typeof documents)["query McpListContacts($checkScope: Boolean!, $organizationId: Int, $contactListId: Int, $subscribed: Boolean, $dateFrom: String, $dateTo: String, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    contacts(organizationId: $organizationId, contactListId: $contactListId, subscribed: $subscribed, dateFrom: $dateFrom, dateTo: $dateTo, page: $page, perPage: $perPage) {\n      total page perPage items { ...ContactFields }\n    }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpGetContactActivity($contactId: ID!, $limit: Int!) {\n    contact(id: $contactId) { ...ContactFields }\n    contactActivity(contactId: $contactId, limit: $limit) { id type channel detail occurredAt campaignId campaignName }\n  }"): (typeof documents)["query McpGetContactActivity($contactId: ID!, $limit: Int!) {\n    contact(id: $contactId) { ...ContactFields }\n    contactActivity(contactId: $contactId, limit: $limit) { id type channel detail occurredAt campaignId campaignName }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation McpDraftReviewResponse($reviewId: Int!, $message: String!) {\n    draftReviewResponse(reviewId: $reviewId, message: $message) { id reviewId organizationId locationId message status createdVia createdAt }\n  }"): (typeof documents)["mutation McpDraftReviewResponse($reviewId: Int!, $message: String!) {\n    draftReviewResponse(reviewId: $reviewId, message: $message) { id reviewId organizationId locationId message status createdVia createdAt }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment PrivateFeedbackFields on PrivateFeedback { id organizationId locationId campaignId contactId rating author email phone message reply replyDate replied source sourceName createdAt }"): (typeof documents)["fragment PrivateFeedbackFields on PrivateFeedback { id organizationId locationId campaignId contactId rating author email phone message reply replyDate replied source sourceName createdAt }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpListPrivateFeedback($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $dateFrom: String, $dateTo: String, $ratings: [Int!], $responded: Boolean,\n      $page: Int!, $perPage: Int!) {\n    ...AccessScope\n    privateFeedbacks(organizationId: $organizationId, locationId: $locationId, dateFrom: $dateFrom, dateTo: $dateTo, ratings: $ratings, responded: $responded,\n        page: $page, perPage: $perPage) {\n      total page perPage items { ...PrivateFeedbackFields }\n    }\n  }"): (typeof documents)["query McpListPrivateFeedback($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $dateFrom: String, $dateTo: String, $ratings: [Int!], $responded: Boolean,\n      $page: Int!, $perPage: Int!) {\n    ...AccessScope\n    privateFeedbacks(organizationId: $organizationId, locationId: $locationId, dateFrom: $dateFrom, dateTo: $dateTo, ratings: $ratings, responded: $responded,\n        page: $page, perPage: $perPage) {\n      total page perPage items { ...PrivateFeedbackFields }\n    }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment OrganizationStatsField on Organization { stats @include(if: $includeStats) { reviewCount averageRating starDistribution { five four three two one } } }"): (typeof documents)["fragment OrganizationStatsField on Organization { stats @include(if: $includeStats) { reviewCount averageRating starDistribution { five four three two one } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpListOrganizations($one: Boolean!, $id: Int!, $checkScope: Boolean!, $organizationId: Int, $includeStats: Boolean!, $search: String, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    organization(id: $id) @include(if: $one) { ...OrganizationFields ...OrganizationStatsField }\n    organizations(search: $search, page: $page, perPage: $perPage) @skip(if: $one) {\n      total page perPage items { ...OrganizationFields ...OrganizationStatsField }\n    }\n  }"): (typeof documents)["query McpListOrganizations($one: Boolean!, $id: Int!, $checkScope: Boolean!, $organizationId: Int, $includeStats: Boolean!, $search: String, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    organization(id: $id) @include(if: $one) { ...OrganizationFields ...OrganizationStatsField }\n    organizations(search: $search, page: $page, perPage: $perPage) @skip(if: $one) {\n      total page perPage items { ...OrganizationFields ...OrganizationStatsField }\n    }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpListLocations($checkScope: Boolean!, $organizationId: Int, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    locations(organizationId: $organizationId, page: $page, perPage: $perPage) { total page perPage items { ...LocationFields } }\n  }"): (typeof documents)["query McpListLocations($checkScope: Boolean!, $organizationId: Int, $page: Int!, $perPage: Int!) {\n    ...OrganizationScope\n    locations(organizationId: $organizationId, page: $page, perPage: $perPage) { total page perPage items { ...LocationFields } }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpListReviews($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $sourceNames: [String!], $ratings: [Int!],\n    $dateFrom: String, $dateTo: String, $sentiment: String, $aspect: String, $aspectSentiment: String, $responded: Boolean, $verified: Boolean, $query: String,\n    $minMessageLength: Int, $sortBy: ReviewSort, $page: Int!, $perPage: Int!) {\n    ...AccessScope\n    reviews(organizationId: $organizationId, locationId: $locationId, sourceNames: $sourceNames, ratings: $ratings,\n      dateFrom: $dateFrom, dateTo: $dateTo, sentiment: $sentiment, aspect: $aspect, aspectSentiment: $aspectSentiment,\n      responded: $responded, verified: $verified, query: $query,\n      minMessageLength: $minMessageLength, sortBy: $sortBy, page: $page, perPage: $perPage) {\n      total page perPage items { ...ReviewFields }\n    }\n  }"): (typeof documents)["query McpListReviews($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $sourceNames: [String!], $ratings: [Int!],\n    $dateFrom: String, $dateTo: String, $sentiment: String, $aspect: String, $aspectSentiment: String, $responded: Boolean, $verified: Boolean, $query: String,\n    $minMessageLength: Int, $sortBy: ReviewSort, $page: Int!, $perPage: Int!) {\n    ...AccessScope\n    reviews(organizationId: $organizationId, locationId: $locationId, sourceNames: $sourceNames, ratings: $ratings,\n      dateFrom: $dateFrom, dateTo: $dateTo, sentiment: $sentiment, aspect: $aspect, aspectSentiment: $aspectSentiment,\n      responded: $responded, verified: $verified, query: $query,\n      minMessageLength: $minMessageLength, sortBy: $sortBy, page: $page, perPage: $perPage) {\n      total page perPage items { ...ReviewFields }\n    }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpGetReview($id: Int!) { review(id: $id) { ...ReviewFields } }"): (typeof documents)["query McpGetReview($id: Int!) { review(id: $id) { ...ReviewFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpListScans($page: Int!, $perPage: Int!, $search: String, $isScheduled: Boolean, $completed: Boolean, $failed: Boolean, $sinceDays: Int) {\n    scans(page: $page, perPage: $perPage, search: $search, isScheduled: $isScheduled, completed: $completed, failed: $failed, sinceDays: $sinceDays) {\n      total page perPage items { ...ScanRowFields }\n    }\n  }"): (typeof documents)["query McpListScans($page: Int!, $perPage: Int!, $search: String, $isScheduled: Boolean, $completed: Boolean, $failed: Boolean, $sinceDays: Int) {\n    scans(page: $page, perPage: $perPage, search: $search, isScheduled: $isScheduled, completed: $completed, failed: $failed, sinceDays: $sinceDays) {\n      total page perPage items { ...ScanRowFields }\n    }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpGetScanReport($uuid: String!, $keyword: String, $snapshotAt: String) {\n    scanReport(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) {\n      brand { language }\n      scan { uuid location address type keywords gridSize distance distanceUnit lat lng }\n      keyword\n      snapshot { ...ScanSnapshotFields }\n      snapshots { ...ScanSnapshotFields }\n      summary { averageRank top3 top4to10 top11to20 notRanking totalPins visibilityScore changeFromPrevious previousSnapshotAt }\n      pins { lat lng rank status }\n      competitors { name avgRank appearances coverage threatScore }\n      history {\n        size\n        trend { ...ScanSnapshotFields }\n        competitors { placeId name points { avgRank visibility } }\n        changes { previousSnapshotAt gained lost same cells { x y rank previousRank change } }\n        overtakers { name pins }\n      }\n      htmlUrl pdfUrl\n    }\n  }"): (typeof documents)["query McpGetScanReport($uuid: String!, $keyword: String, $snapshotAt: String) {\n    scanReport(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) {\n      brand { language }\n      scan { uuid location address type keywords gridSize distance distanceUnit lat lng }\n      keyword\n      snapshot { ...ScanSnapshotFields }\n      snapshots { ...ScanSnapshotFields }\n      summary { averageRank top3 top4to10 top11to20 notRanking totalPins visibilityScore changeFromPrevious previousSnapshotAt }\n      pins { lat lng rank status }\n      competitors { name avgRank appearances coverage threatScore }\n      history {\n        size\n        trend { ...ScanSnapshotFields }\n        competitors { placeId name points { avgRank visibility } }\n        changes { previousSnapshotAt gained lost same cells { x y rank previousRank change } }\n        overtakers { name pins }\n      }\n      htmlUrl pdfUrl\n    }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpScanRun($id: String!) { scanRun(id: $id) { id scanUuid status snapshotAt queuedAt lastUpdatedAt error pinsDone pinsTotal } }"): (typeof documents)["query McpScanRun($id: String!) { scanRun(id: $id) { id scanUuid status snapshotAt queuedAt lastUpdatedAt error pinsDone pinsTotal } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query McpRunOutcome($uuid: String!, $snapshotAt: String) {\n  scan(uuid: $uuid, snapshotAt: $snapshotAt, topN: 0) { summary { averageRank top3Count top4To10Count notRankingCount } reportUrl }\n}"): (typeof documents)["query McpRunOutcome($uuid: String!, $snapshotAt: String) {\n  scan(uuid: $uuid, snapshotAt: $snapshotAt, topN: 0) { summary { averageRank top3Count top4To10Count notRankingCount } reportUrl }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation McpTagReviews($reviewIds: [Int!]!, $attachTags: [String!], $detachTags: [String!]) {\n    tagReviews(reviewIds: $reviewIds, attachTags: $attachTags, detachTags: $detachTags) { reviewId tags }\n  }"): (typeof documents)["mutation McpTagReviews($reviewIds: [Int!]!, $attachTags: [String!], $detachTags: [String!]) {\n    tagReviews(reviewIds: $reviewIds, attachTags: $attachTags, detachTags: $detachTags) { reviewId tags }\n  }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ConnectPageFields on ConnectPage { brand { name logoUrl language } provider locationName status signedIn startCsrf }"): (typeof documents)["fragment ConnectPageFields on ConnectPage { brand { name logoUrl language } provider locationName status signedIn startCsrf }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ConnectPage($token: String!) { page: connectPage(token: $token) { ...ConnectPageFields } }"): (typeof documents)["query ConnectPage($token: String!) { page: connectPage(token: $token) { ...ConnectPageFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation StartConnectSignIn($token: String!, $csrf: String!) { url: startConnectSignIn(token: $token, csrf: $csrf) }"): (typeof documents)["mutation StartConnectSignIn($token: String!, $csrf: String!) { url: startConnectSignIn(token: $token, csrf: $csrf) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CompleteConnectSignIn($state: String!, $callbackUrl: String!) {\n  signIn: completeConnectSignIn(state: $state, callbackUrl: $callbackUrl) { token failure { code reason message } }\n}"): (typeof documents)["mutation CompleteConnectSignIn($state: String!, $callbackUrl: String!) {\n  signIn: completeConnectSignIn(state: $state, callbackUrl: $callbackUrl) { token failure { code reason message } }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ConnectBrandForState($state: String!) { brand: connectBrandForState(state: $state) { name logoUrl language } }"): (typeof documents)["query ConnectBrandForState($state: String!) { brand: connectBrandForState(state: $state) { name logoUrl language } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ConnectSelection($token: String!) {\n  selection: connectSelection(token: $token) { page { ...ConnectPageFields } businesses { externalId name address } nonce }\n}"): (typeof documents)["query ConnectSelection($token: String!) {\n  selection: connectSelection(token: $token) { page { ...ConnectPageFields } businesses { externalId name address } nonce }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation SelectConnectBusiness($token: String!, $nonce: String!, $business: String!) {\n  selected: selectConnectBusiness(token: $token, nonce: $nonce, business: $business) { page { ...ConnectPageFields } businessName integrationId reviewSyncFailure }\n}"): (typeof documents)["mutation SelectConnectBusiness($token: String!, $nonce: String!, $business: String!) {\n  selected: selectConnectBusiness(token: $token, nonce: $nonce, business: $business) { page { ...ConnectPageFields } businessName integrationId reviewSyncFailure }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment FeedbackPageFields on FeedbackPage { invite brand { name logoUrl language } businessName firstName lastName email phone feedbackSent }"): (typeof documents)["fragment FeedbackPageFields on FeedbackPage { invite brand { name logoUrl language } businessName firstName lastName email phone feedbackSent }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query FeedbackPage($invite: String!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields } }"): (typeof documents)["query FeedbackPage($invite: String!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ReviewRatingPage($invite: String!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields review: gate(rating: 5) { kind url } } }"): (typeof documents)["query ReviewRatingPage($invite: String!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields review: gate(rating: 5) { kind url } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RateReviewLink($invite: String!, $rating: Int!) { page: openReviewLink(invite: $invite) { ...FeedbackPageFields gate(rating: $rating) { kind url } } }"): (typeof documents)["mutation RateReviewLink($invite: String!, $rating: Int!) { page: openReviewLink(invite: $invite) { ...FeedbackPageFields gate(rating: $rating) { kind url } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query RatedReviewPage($invite: String!, $rating: Int!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields gate(rating: $rating) { kind url } } }"): (typeof documents)["query RatedReviewPage($invite: String!, $rating: Int!) { page: feedbackPage(invite: $invite) { ...FeedbackPageFields gate(rating: $rating) { kind url } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation SendPrivateFeedback($invite: String!, $form: PrivateFeedbackFormInput!) { sendPrivateFeedback(invite: $invite, form: $form) }"): (typeof documents)["mutation SendPrivateFeedback($invite: String!, $form: PrivateFeedbackFormInput!) { sendPrivateFeedback(invite: $invite, form: $form) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ScanReportBrandFields on ScanReportBrand { name logoUrl color language }"): (typeof documents)["fragment ScanReportBrandFields on ScanReportBrand { name logoUrl color language }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ScanReportFields on ScanReport {\n  brand { ...ScanReportBrandFields }\n  scan { uuid location address type keywords gridSize distance distanceUnit lat lng }\n  keyword\n  snapshots { ...ScanSnapshotFields }\n  snapshot { ...ScanSnapshotFields }\n  pins { lat lng rank status top { placeId name rank } }\n  summary { averageRank top3 top4to10 top11to20 notRanking totalPins visibilityScore changeFromPrevious previousSnapshotAt }\n  competitors { name avgRank appearances coverage threatScore }\n  history {\n    size\n    heatmaps { snapshot { ...ScanSnapshotFields } size cells { x y rank status } }\n    trend { ...ScanSnapshotFields }\n    competitors { placeId name points { avgRank visibility } }\n    changes { previousSnapshotAt gained lost same cells { x y rank status previousRank change } }\n    overtakers { name pins }\n  }\n}"): (typeof documents)["fragment ScanReportFields on ScanReport {\n  brand { ...ScanReportBrandFields }\n  scan { uuid location address type keywords gridSize distance distanceUnit lat lng }\n  keyword\n  snapshots { ...ScanSnapshotFields }\n  snapshot { ...ScanSnapshotFields }\n  pins { lat lng rank status top { placeId name rank } }\n  summary { averageRank top3 top4to10 top11to20 notRanking totalPins visibilityScore changeFromPrevious previousSnapshotAt }\n  competitors { name avgRank appearances coverage threatScore }\n  history {\n    size\n    heatmaps { snapshot { ...ScanSnapshotFields } size cells { x y rank status } }\n    trend { ...ScanSnapshotFields }\n    competitors { placeId name points { avgRank visibility } }\n    changes { previousSnapshotAt gained lost same cells { x y rank status previousRank change } }\n    overtakers { name pins }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ScanReportPage($uuid: String!, $keyword: String, $snapshotAt: String) {\n  page: scanReportPage(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) { report { ...ScanReportFields } problem brand { ...ScanReportBrandFields } }\n}"): (typeof documents)["query ScanReportPage($uuid: String!, $keyword: String, $snapshotAt: String) {\n  page: scanReportPage(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) { report { ...ScanReportFields } problem brand { ...ScanReportBrandFields } }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query UnsubscribePage($token: String!) {\n  unsubscribePage(token: $token) { brand { name logoUrl language } businessName unsubscribed }\n}"): (typeof documents)["query UnsubscribePage($token: String!) {\n  unsubscribePage(token: $token) { brand { name logoUrl language } businessName unsubscribed }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation Unsubscribe($token: String!, $withLogo: Boolean!) {\n  unsubscribe(token: $token) { brand { name logoUrl @include(if: $withLogo) language } businessName contactId already canceled }\n}"): (typeof documents)["mutation Unsubscribe($token: String!, $withLogo: Boolean!) {\n  unsubscribe(token: $token) { brand { name logoUrl @include(if: $withLogo) language } businessName contactId already canceled }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListAuditEvents($action: String, $subjectType: String, $subjectId: String, $customerId: Int, $page: Int!, $perPage: Int!) {\n      agencyAuditEvents(action: $action, subjectType: $subjectType, subjectId: $subjectId, customerId: $customerId, page: $page, perPage: $perPage) {\n        total page perPage items { ...AuditEventFields }\n      }\n    }"): (typeof documents)["query ListAuditEvents($action: String, $subjectType: String, $subjectId: String, $customerId: Int, $page: Int!, $perPage: Int!) {\n      agencyAuditEvents(action: $action, subjectType: $subjectType, subjectId: $subjectId, customerId: $customerId, page: $page, perPage: $perPage) {\n        total page perPage items { ...AuditEventFields }\n      }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListConnectLinks($locationId: Int, $provider: String, $active: Boolean, $page: Int!, $perPage: Int!) {\n      connectLinks(locationId: $locationId, provider: $provider, active: $active, page: $page, perPage: $perPage) {\n        total page perPage items { ...ConnectLinkFields }\n      }\n    }"): (typeof documents)["query ListConnectLinks($locationId: Int, $provider: String, $active: Boolean, $page: Int!, $perPage: Int!) {\n      connectLinks(locationId: $locationId, provider: $provider, active: $active, page: $page, perPage: $perPage) {\n        total page perPage items { ...ConnectLinkFields }\n      }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateConnectLink($input: CreateConnectLinkInput!) { createConnectLink(input: $input) { ...ConnectLinkFields } }"): (typeof documents)["mutation CreateConnectLink($input: CreateConnectLinkInput!) { createConnectLink(input: $input) { ...ConnectLinkFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GetConnectLink($token: String!) { connectLink(token: $token) { ...ConnectLinkFields } }"): (typeof documents)["query GetConnectLink($token: String!) { connectLink(token: $token) { ...ConnectLinkFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RevokeConnectLink($token: String!) { revokeConnectLink(token: $token) { ...ConnectLinkFields } }"): (typeof documents)["mutation RevokeConnectLink($token: String!) { revokeConnectLink(token: $token) { ...ConnectLinkFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListCustomers($search: String, $page: Int!, $perPage: Int!) {\n      agencyCustomers(search: $search, page: $page, perPage: $perPage) { total page perPage items { ...CustomerFields } }\n    }"): (typeof documents)["query ListCustomers($search: String, $page: Int!, $perPage: Int!) {\n      agencyCustomers(search: $search, page: $page, perPage: $perPage) { total page perPage items { ...CustomerFields } }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateCustomer($input: CreateCustomerInput!) { createCustomer(input: $input) { ...CustomerFields } }"): (typeof documents)["mutation CreateCustomer($input: CreateCustomerInput!) { createCustomer(input: $input) { ...CustomerFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ChangeCustomerPlan($id: Int!, $customPlanId: String!, $language: String) {\n      changeCustomerPlan(id: $id, customPlanId: $customPlanId, language: $language) { ...CustomerFields }\n    }"): (typeof documents)["mutation ChangeCustomerPlan($id: Int!, $customPlanId: String!, $language: String) {\n      changeCustomerPlan(id: $id, customPlanId: $customPlanId, language: $language) { ...CustomerFields }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation SetCustomerLocationLimit($id: Int!, $limit: Int!) { setCustomerLocationLimit(id: $id, locationLimit: $limit) { message } }"): (typeof documents)["mutation SetCustomerLocationLimit($id: Int!, $limit: Int!) { setCustomerLocationLimit(id: $id, locationLimit: $limit) { message } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation SetCustomerMemberLimit($id: Int!, $limit: Int!) { setCustomerMemberLimit(id: $id, memberLimit: $limit) { message } }"): (typeof documents)["mutation SetCustomerMemberLimit($id: Int!, $limit: Int!) { setCustomerMemberLimit(id: $id, memberLimit: $limit) { message } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation AddCustomerCredits($id: Int!, $input: AddCreditsInput!) { addCustomerCredits(id: $id, input: $input) { message balance } }"): (typeof documents)["mutation AddCustomerCredits($id: Int!, $input: AddCreditsInput!) { addCustomerCredits(id: $id, input: $input) { message balance } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation PauseCustomer($id: Int!) { pauseCustomer(id: $id) { message } }"): (typeof documents)["mutation PauseCustomer($id: Int!) { pauseCustomer(id: $id) { message } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ResumeCustomer($id: Int!) { resumeCustomer(id: $id) { message } }"): (typeof documents)["mutation ResumeCustomer($id: Int!) { resumeCustomer(id: $id) { message } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteCustomer($id: Int!) { deleteCustomer(id: $id) { message } }"): (typeof documents)["mutation DeleteCustomer($id: Int!) { deleteCustomer(id: $id) { message } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListNfcOrders { nfcOrders { ...OrderFields } }"): (typeof documents)["query ListNfcOrders { nfcOrders { ...OrderFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ShipNfcOrder($id: String!, $trackingUrl: String) { shipNfcOrder(id: $id, trackingUrl: $trackingUrl) { ...OrderFields } }"): (typeof documents)["mutation ShipNfcOrder($id: String!, $trackingUrl: String) { shipNfcOrder(id: $id, trackingUrl: $trackingUrl) { ...OrderFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CompleteNfcOrder($id: String!) { completeNfcOrder(id: $id) { ...OrderFields } }"): (typeof documents)["mutation CompleteNfcOrder($id: String!) { completeNfcOrder(id: $id) { ...OrderFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CancelNfcOrder($id: String!) { cancelNfcOrder(id: $id) { ...OrderFields } }"): (typeof documents)["mutation CancelNfcOrder($id: String!) { cancelNfcOrder(id: $id) { ...OrderFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListCustomPlans { customPlans { ...CustomPlanFields } }"): (typeof documents)["query ListCustomPlans { customPlans { ...CustomPlanFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ScanFields on Scan { ...ScanRowFields distance distanceUnit type address targetPlaceId lat lng lastRunFailed archivedAt reportUrl createdAt updatedAt }"): (typeof documents)["fragment ScanFields on Scan { ...ScanRowFields distance distanceUnit type address targetPlaceId lat lng lastRunFailed archivedAt reportUrl createdAt updatedAt }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ScanCost($input: CreateScanInput!) {\n  scanCost(input: $input) { pins keywords creditsPerRun schedules { frequency runsPerYear creditsPerYear } }\n}"): (typeof documents)["query ScanCost($input: CreateScanInput!) {\n  scanCost(input: $input) { pins keywords creditsPerRun schedules { frequency runsPerYear creditsPerYear } }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListScans($page: Int!, $perPage: Int!, $search: String, $isScheduled: Boolean, $completed: Boolean, $failed: Boolean,\n        $sinceDays: Int, $archivedOnly: Boolean, $includeArchived: Boolean) {\n      scans(page: $page, perPage: $perPage, search: $search, isScheduled: $isScheduled, completed: $completed, failed: $failed,\n        sinceDays: $sinceDays, archivedOnly: $archivedOnly, includeArchived: $includeArchived) {\n        total page perPage items { ...ScanRowFields }\n      }\n    }"): (typeof documents)["query ListScans($page: Int!, $perPage: Int!, $search: String, $isScheduled: Boolean, $completed: Boolean, $failed: Boolean,\n        $sinceDays: Int, $archivedOnly: Boolean, $includeArchived: Boolean) {\n      scans(page: $page, perPage: $perPage, search: $search, isScheduled: $isScheduled, completed: $completed, failed: $failed,\n        sinceDays: $sinceDays, archivedOnly: $archivedOnly, includeArchived: $includeArchived) {\n        total page perPage items { ...ScanRowFields }\n      }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UpdateScan($uuid: String!, $input: UpdateScanInput!) { updateScan(uuid: $uuid, input: $input) { ...ScanFields } }"): (typeof documents)["mutation UpdateScan($uuid: String!, $input: UpdateScanInput!) { updateScan(uuid: $uuid, input: $input) { ...ScanFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ArchiveScan($uuid: String!) { archiveScan(uuid: $uuid) { ...ScanFields } }"): (typeof documents)["mutation ArchiveScan($uuid: String!) { archiveScan(uuid: $uuid) { ...ScanFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RestoreScan($uuid: String!) { restoreScan(uuid: $uuid) { ...ScanFields } }"): (typeof documents)["mutation RestoreScan($uuid: String!) { restoreScan(uuid: $uuid) { ...ScanFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GetScanSchedule($uuid: String!) { scanSchedule(uuid: $uuid) { ...ScheduleFields } }"): (typeof documents)["query GetScanSchedule($uuid: String!) { scanSchedule(uuid: $uuid) { ...ScheduleFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListAiAuthorizations($includeRevoked: Boolean!) { aiAuthorizations(includeRevoked: $includeRevoked) { ...AiAuthorizationFields } }"): (typeof documents)["query ListAiAuthorizations($includeRevoked: Boolean!) { aiAuthorizations(includeRevoked: $includeRevoked) { ...AiAuthorizationFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RevokeAiAuthorization($id: Int!) { revokeAiAuthorization(id: $id) { ...AiAuthorizationFields } }"): (typeof documents)["mutation RevokeAiAuthorization($id: Int!) { revokeAiAuthorization(id: $id) { ...AiAuthorizationFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListCampaigns($organizationId: Int, $search: String, $page: Int!, $perPage: Int!) {\n      campaigns(organizationId: $organizationId, search: $search, page: $page, perPage: $perPage) {\n        total page perPage items { id name }\n      }\n    }"): (typeof documents)["query ListCampaigns($organizationId: Int, $search: String, $page: Int!, $perPage: Int!) {\n      campaigns(organizationId: $organizationId, search: $search, page: $page, perPage: $perPage) {\n        total page perPage items { id name }\n      }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation InviteContact($campaign: String!, $input: InviteContactInput!) {\n      inviteContact(campaign: $campaign, input: $input) { id message }\n    }"): (typeof documents)["mutation InviteContact($campaign: String!, $input: InviteContactInput!) {\n      inviteContact(campaign: $campaign, input: $input) { id message }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation InviteContacts($campaign: String!, $inputs: [InviteContactInput!]!) {\n      inviteContacts(campaign: $campaign, inputs: $inputs) { id message }\n    }"): (typeof documents)["mutation InviteContacts($campaign: String!, $inputs: [InviteContactInput!]!) {\n      inviteContacts(campaign: $campaign, inputs: $inputs) { id message }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListLocations($organizationId: Int, $search: String, $page: Int!, $perPage: Int!) {\n      locations(organizationId: $organizationId, search: $search, page: $page, perPage: $perPage) {\n        total page perPage items { ...LocationFields }\n      }\n    }"): (typeof documents)["query ListLocations($organizationId: Int, $search: String, $page: Int!, $perPage: Int!) {\n      locations(organizationId: $organizationId, search: $search, page: $page, perPage: $perPage) {\n        total page perPage items { ...LocationFields }\n      }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GetLocation($id: Int!) { location(id: $id) { ...LocationFields } }"): (typeof documents)["query GetLocation($id: Int!) { location(id: $id) { ...LocationFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateLocation($input: CreateLocationInput!) { createLocation(input: $input) { ...LocationFields } }"): (typeof documents)["mutation CreateLocation($input: CreateLocationInput!) { createLocation(input: $input) { ...LocationFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UpdateLocation($id: Int!, $input: UpdateLocationInput!) { updateLocation(id: $id, input: $input) { ...LocationFields } }"): (typeof documents)["mutation UpdateLocation($id: Int!, $input: UpdateLocationInput!) { updateLocation(id: $id, input: $input) { ...LocationFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteLocation($id: Int!) { deleteLocation(id: $id) { id message } }"): (typeof documents)["mutation DeleteLocation($id: Int!) { deleteLocation(id: $id) { id message } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment WebhookFields on WebhookEndpoint { id url description enabled events previousSecretExpiresAt createdAt updatedAt }"): (typeof documents)["fragment WebhookFields on WebhookEndpoint { id url description enabled events previousSecretExpiresAt createdAt updatedAt }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment WebhookDeliveryFields on WebhookDelivery { id endpointId event status attemptCount lastStatusCode lastError deliveredAt payload createdAt updatedAt\n  attempts { attempt statusCode latencyMs error responseExcerpt requestHeaders { name value } responseHeaders { name value } createdAt } }"): (typeof documents)["fragment WebhookDeliveryFields on WebhookDelivery { id endpointId event status attemptCount lastStatusCode lastError deliveredAt payload createdAt updatedAt\n  attempts { attempt statusCode latencyMs error responseExcerpt requestHeaders { name value } responseHeaders { name value } createdAt } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListOrganizations($page: Int!, $perPage: Int!) {\n      organizations(page: $page, perPage: $perPage) { total page perPage items { ...OrganizationFields } }\n    }"): (typeof documents)["query ListOrganizations($page: Int!, $perPage: Int!) {\n      organizations(page: $page, perPage: $perPage) { total page perPage items { ...OrganizationFields } }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateOrganization($input: CreateOrganizationInput!) { createOrganization(input: $input) { ...OrganizationFields } }"): (typeof documents)["mutation CreateOrganization($input: CreateOrganizationInput!) { createOrganization(input: $input) { ...OrganizationFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GetOrganization($id: Int!) { organization(id: $id) { ...OrganizationFields } }"): (typeof documents)["query GetOrganization($id: Int!) { organization(id: $id) { ...OrganizationFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UpdateOrganization($id: Int!, $input: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $input) { ...OrganizationFields } }"): (typeof documents)["mutation UpdateOrganization($id: Int!, $input: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $input) { ...OrganizationFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteOrganization($id: Int!) { deleteOrganization(id: $id) { id message } }"): (typeof documents)["mutation DeleteOrganization($id: Int!) { deleteOrganization(id: $id) { id message } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListSources { sources { ...SourceFields } }"): (typeof documents)["query ListSources { sources { ...SourceFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListCountries { countries { id name } }"): (typeof documents)["query ListCountries { countries { id name } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GetCurrentUser { me { id name email } }"): (typeof documents)["query GetCurrentUser { me { id name email } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ReportTotalsFields on MetricsTotals { totalReviews avgRating responded responseRate sentimentDistribution { positive neutral negative }\n  aspects { aspect positive neutral negative } }"): (typeof documents)["fragment ReportTotalsFields on MetricsTotals { totalReviews avgRating responded responseRate sentimentDistribution { positive neutral negative }\n  aspects { aspect positive neutral negative } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GetOrganizationReport($id: Int!, $month: String!) {\n      organizationReport(organizationId: $id, month: $month) {\n        organizationId organizationName brandName brandLogoUrl brandColor language month previousMonth generatedAt\n        period { from to }\n        totals { ...ReportTotalsFields } previousTotals { ...ReportTotalsFields }\n        months { month totalReviews avgRating responseRate positive neutral negative aspects { aspect mentions positive neutral negative netSentiment } }\n      }\n    }"): (typeof documents)["query GetOrganizationReport($id: Int!, $month: String!) {\n      organizationReport(organizationId: $id, month: $month) {\n        organizationId organizationName brandName brandLogoUrl brandColor language month previousMonth generatedAt\n        period { from to }\n        totals { ...ReportTotalsFields } previousTotals { ...ReportTotalsFields }\n        months { month totalReviews avgRating responseRate positive neutral negative aspects { aspect mentions positive neutral negative netSentiment } }\n      }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListReviews($rating: Int, $organizationId: Int, $locationId: Int, $sourceNames: [String!], $tags: [String!], $page: Int!, $perPage: Int!) {\n      reviews(rating: $rating, organizationId: $organizationId, locationId: $locationId, sourceNames: $sourceNames, tags: $tags, page: $page, perPage: $perPage) {\n        total page perPage items { ...ReviewFields }\n      }\n    }"): (typeof documents)["query ListReviews($rating: Int, $organizationId: Int, $locationId: Int, $sourceNames: [String!], $tags: [String!], $page: Int!, $perPage: Int!) {\n      reviews(rating: $rating, organizationId: $organizationId, locationId: $locationId, sourceNames: $sourceNames, tags: $tags, page: $page, perPage: $perPage) {\n        total page perPage items { ...ReviewFields }\n      }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListWritableReviewSources($organizationId: Int, $locationId: Int, $page: Int!, $perPage: Int!) {\n      writableSources(organizationId: $organizationId, locationId: $locationId, page: $page, perPage: $perPage) {\n        total page perPage items { ...WritableSourceFields }\n      }\n    }"): (typeof documents)["query ListWritableReviewSources($organizationId: Int, $locationId: Int, $page: Int!, $perPage: Int!) {\n      writableSources(organizationId: $organizationId, locationId: $locationId, page: $page, perPage: $perPage) {\n        total page perPage items { ...WritableSourceFields }\n      }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GetReview($id: Int!) { review(id: $id) { ...ReviewFields } }"): (typeof documents)["query GetReview($id: Int!) { review(id: $id) { ...ReviewFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateReview($input: CreateReviewInput!) { createReview(input: $input) { ...ReviewFields } }"): (typeof documents)["mutation CreateReview($input: CreateReviewInput!) { createReview(input: $input) { ...ReviewFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UpdateReview($id: Int!, $input: UpdateReviewInput!) { updateReview(id: $id, input: $input) { ...ReviewFields } }"): (typeof documents)["mutation UpdateReview($id: Int!, $input: UpdateReviewInput!) { updateReview(id: $id, input: $input) { ...ReviewFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation ReplyToReview($id: Int!, $input: ReplyToReviewInput!) { replyToReview(id: $id, input: $input) { ...ReviewFields } }"): (typeof documents)["mutation ReplyToReview($id: Int!, $input: ReplyToReviewInput!) { replyToReview(id: $id, input: $input) { ...ReviewFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteReview($id: Int!) { deleteReview(id: $id) { id message } }"): (typeof documents)["mutation DeleteReview($id: Int!) { deleteReview(id: $id) { id message } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListWebhooks($page: Int!, $perPage: Int!) {\n      webhookEndpoints(page: $page, perPage: $perPage) { total page perPage items { ...WebhookFields } }\n    }"): (typeof documents)["query ListWebhooks($page: Int!, $perPage: Int!) {\n      webhookEndpoints(page: $page, perPage: $perPage) { total page perPage items { ...WebhookFields } }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateWebhook($input: CreateWebhookEndpointInput!) {\n      createWebhookEndpoint(input: $input) { secret endpoint { ...WebhookFields } }\n    }"): (typeof documents)["mutation CreateWebhook($input: CreateWebhookEndpointInput!) {\n      createWebhookEndpoint(input: $input) { secret endpoint { ...WebhookFields } }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GetWebhook($id: Int!) { webhookEndpoint(id: $id) { ...WebhookFields } }"): (typeof documents)["query GetWebhook($id: Int!) { webhookEndpoint(id: $id) { ...WebhookFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UpdateWebhook($id: Int!, $input: UpdateWebhookEndpointInput!) {\n      updateWebhookEndpoint(id: $id, input: $input) { ...WebhookFields }\n    }"): (typeof documents)["mutation UpdateWebhook($id: Int!, $input: UpdateWebhookEndpointInput!) {\n      updateWebhookEndpoint(id: $id, input: $input) { ...WebhookFields }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation DeleteWebhook($id: Int!) { deleteWebhookEndpoint(id: $id) { id message } }"): (typeof documents)["mutation DeleteWebhook($id: Int!) { deleteWebhookEndpoint(id: $id) { id message } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RotateWebhookSecret($id: Int!) { rotateWebhookSecret(id: $id) { secret endpoint { ...WebhookFields } } }"): (typeof documents)["mutation RotateWebhookSecret($id: Int!) { rotateWebhookSecret(id: $id) { secret endpoint { ...WebhookFields } } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation TestWebhook($id: Int!) { testWebhookEndpoint(id: $id) { webhookId delivered statusCode latencyMs error responseExcerpt sentAt } }"): (typeof documents)["mutation TestWebhook($id: Int!) { testWebhookEndpoint(id: $id) { webhookId delivered statusCode latencyMs error responseExcerpt sentAt } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GetWebhookSecret($id: Int!) { webhookEndpointSecret(id: $id) }"): (typeof documents)["query GetWebhookSecret($id: Int!) { webhookEndpointSecret(id: $id) }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ListWebhookDeliveries($endpointId: Int, $status: String, $event: String, $page: Int!, $perPage: Int!) {\n      webhookDeliveries(endpointId: $endpointId, status: $status, event: $event, page: $page, perPage: $perPage) {\n        total page perPage items { ...WebhookDeliveryFields }\n      }\n    }"): (typeof documents)["query ListWebhookDeliveries($endpointId: Int, $status: String, $event: String, $page: Int!, $perPage: Int!) {\n      webhookDeliveries(endpointId: $endpointId, status: $status, event: $event, page: $page, perPage: $perPage) {\n        total page perPage items { ...WebhookDeliveryFields }\n      }\n    }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GetWebhookDelivery($id: String!) { webhookDelivery(id: $id) { ...WebhookDeliveryFields } }"): (typeof documents)["query GetWebhookDelivery($id: String!) { webhookDelivery(id: $id) { ...WebhookDeliveryFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RedeliverWebhook($id: String!) { redeliverWebhook(id: $id) { ...WebhookDeliveryFields } }"): (typeof documents)["mutation RedeliverWebhook($id: String!) { redeliverWebhook(id: $id) { ...WebhookDeliveryFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment GbpTotalsFields on GbpMetricTotals { impressionsTotal impressionsSearch impressionsMaps impressionsDesktop impressionsMobile callClicks websiteClicks directionRequests }"): (typeof documents)["fragment GbpTotalsFields on GbpMetricTotals { impressionsTotal impressionsSearch impressionsMaps impressionsDesktop impressionsMobile callClicks websiteClicks directionRequests }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment GbpDailyFields on GbpDailyMetrics { date impressionsTotal impressionsSearch impressionsMaps impressionsDesktop impressionsMobile callClicks websiteClicks directionRequests }"): (typeof documents)["fragment GbpDailyFields on GbpDailyMetrics { date impressionsTotal impressionsSearch impressionsMaps impressionsDesktop impressionsMobile callClicks websiteClicks directionRequests }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GbpMetrics($locationId: Int!, $from: String, $to: String, $includeDaily: Boolean!) {\n  gbpMetrics(locationId: $locationId, from: $from, to: $to, includeDaily: $includeDaily) {\n    locationId organizationId\n    period { from to }\n    totals { ...GbpTotalsFields }\n    previousPeriod { from to totals { ...GbpTotalsFields } }\n    daily { ...GbpDailyFields }\n  }\n}"): (typeof documents)["query GbpMetrics($locationId: Int!, $from: String, $to: String, $includeDaily: Boolean!) {\n  gbpMetrics(locationId: $locationId, from: $from, to: $to, includeDaily: $includeDaily) {\n    locationId organizationId\n    period { from to }\n    totals { ...GbpTotalsFields }\n    previousPeriod { from to totals { ...GbpTotalsFields } }\n    daily { ...GbpDailyFields }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query GbpSearchTerms($locationId: Int!, $year: Int, $month: Int, $page: Int!, $perPage: Int!) {\n  gbpSearchTerms(locationId: $locationId, year: $year, month: $month, page: $page, perPage: $perPage) {\n    total page perPage locationId organizationId year month\n    items { keyword year month monthLabel impressions belowThreshold locationId organizationId }\n  }\n}"): (typeof documents)["query GbpSearchTerms($locationId: Int!, $year: Int, $month: Int, $page: Int!, $perPage: Int!) {\n  gbpSearchTerms(locationId: $locationId, year: $year, month: $month, page: $page, perPage: $perPage) {\n    total page perPage locationId organizationId year month\n    items { keyword year month monthLabel impressions belowThreshold locationId organizationId }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment CustomerFields on AgencyCustomer { id name email phone language trialEndsAt createdAt updatedAt\n  customPlan { id name } organizations { id name } }"): (typeof documents)["fragment CustomerFields on AgencyCustomer { id name email phone language trialEndsAt createdAt updatedAt\n  customPlan { id name } organizations { id name } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment CustomPlanFields on CustomPlan { id billingMonthlyId billingYearlyId name isDefault isHidden isFree createdAt updatedAt }"): (typeof documents)["fragment CustomPlanFields on CustomPlan { id billingMonthlyId billingYearlyId name isDefault isHidden isFree createdAt updatedAt }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment OrderFields on NfcOrder { id orderNumber email total currency status\n  shipping { name address city country trackingUrl }\n  items { productName quantity unitPrice nfcUrls } }"): (typeof documents)["fragment OrderFields on NfcOrder { id orderNumber email total currency status\n  shipping { name address city country trackingUrl }\n  items { productName quantity unitPrice nfcUrls } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ConnectLinkFields on ConnectLink { token provider locationId connectUrl status expiresAt lastStartedAt completedOauthAt usedAt revokedAt createdAt }"): (typeof documents)["fragment ConnectLinkFields on ConnectLink { token provider locationId connectUrl status expiresAt lastStartedAt completedOauthAt usedAt revokedAt createdAt }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment AuditEventFields on AgencyAuditEvent { id action subjectType subjectId customerId actorType actorUserId actorTokenId actorLabel requestId beforeJson afterJson createdAt }"): (typeof documents)["fragment AuditEventFields on AgencyAuditEvent { id action subjectType subjectId customerId actorType actorUserId actorTokenId actorLabel requestId beforeJson afterJson createdAt }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment AiAuthorizationFields on AiAuthorization { id userId clientId clientName scopes organizationIds createdAt lastUsedAt revokedAt }"): (typeof documents)["fragment AiAuthorizationFields on AiAuthorization { id userId clientId clientName scopes organizationIds createdAt lastUsedAt revokedAt }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment LocationFields on Location { id organizationId name createdAt updatedAt }"): (typeof documents)["fragment LocationFields on Location { id organizationId name createdAt updatedAt }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment OrganizationFields on Organization { id name defaultLocationId logo createdAt updatedAt locations { ...LocationFields } }"): (typeof documents)["fragment OrganizationFields on Organization { id name defaultLocationId logo createdAt updatedAt locations { ...LocationFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment SourceFields on ReviewSource { id name url logo available canCollectReviews deepLinkingSupported }"): (typeof documents)["fragment SourceFields on ReviewSource { id name url logo available canCollectReviews deepLinkingSupported }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ReviewFields on Review { id organizationId locationId integrationId author publishedAt rating title message\n  source sourceLogo avatar reply replyDate hidden verified }"): (typeof documents)["fragment ReviewFields on Review { id organizationId locationId integrationId author publishedAt rating title message\n  source sourceLogo avatar reply replyDate hidden verified }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment WritableSourceFields on WritableSource { id name logo type organizationId locationId }"): (typeof documents)["fragment WritableSourceFields on WritableSource { id name logo type organizationId locationId }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ScanRowFields on Scan { uuid location keyword keywords gridSize isScheduled isRunning lastRunAt nextRunAt }"): (typeof documents)["fragment ScanRowFields on Scan { uuid location keyword keywords gridSize isScheduled isRunning lastRunAt nextRunAt }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment PinFields on ScanPinResult { lat lng rank keyword status snapshotAt topResults { placeId name rank } }"): (typeof documents)["fragment PinFields on ScanPinResult { lat lng rank keyword status snapshotAt topResults { placeId name rank } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ScanDetail($uuid: String!, $snapshotAt: String, $topN: Int) {\n  scan(uuid: $uuid, snapshotAt: $snapshotAt, topN: $topN) {\n    scan { uuid location keyword keywords gridSize isRunning }\n    progress { pinsDone pinsTotal }\n    summary { averageRank top3Count top4To10Count notRankingCount }\n    reportUrl availableSnapshots results { ...PinFields }\n  }\n}"): (typeof documents)["query ScanDetail($uuid: String!, $snapshotAt: String, $topN: Int) {\n  scan(uuid: $uuid, snapshotAt: $snapshotAt, topN: $topN) {\n    scan { uuid location keyword keywords gridSize isRunning }\n    progress { pinsDone pinsTotal }\n    summary { averageRank top3Count top4To10Count notRankingCount }\n    reportUrl availableSnapshots results { ...PinFields }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ScanPinChanges($uuid: String!, $keyword: String, $snapshotAt: String, $compareTo: String) {\n  scanPinChanges(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt, compareTo: $compareTo) {\n    scanUuid keyword snapshotAt previousSnapshotAt gained lost same\n    pins { lat lng rank previousRank change overtakenBy { placeId name rank } overtook { placeId name rank } }\n  }\n}"): (typeof documents)["query ScanPinChanges($uuid: String!, $keyword: String, $snapshotAt: String, $compareTo: String) {\n  scanPinChanges(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt, compareTo: $compareTo) {\n    scanUuid keyword snapshotAt previousSnapshotAt gained lost same\n    pins { lat lng rank previousRank change overtakenBy { placeId name rank } overtook { placeId name rank } }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ScanDataPoints($uuid: String!, $snapshotAt: String, $keyword: String, $topN: Int, $page: Int!, $perPage: Int!) {\n  scanDataPoints(uuid: $uuid, snapshotAt: $snapshotAt, keyword: $keyword, topN: $topN, page: $page, perPage: $perPage) {\n    total page perPage scanUuid snapshotAt keyword topN items { ...PinFields }\n  }\n}"): (typeof documents)["query ScanDataPoints($uuid: String!, $snapshotAt: String, $keyword: String, $topN: Int, $page: Int!, $perPage: Int!) {\n  scanDataPoints(uuid: $uuid, snapshotAt: $snapshotAt, keyword: $keyword, topN: $topN, page: $page, perPage: $perPage) {\n    total page perPage scanUuid snapshotAt keyword topN items { ...PinFields }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ScanSnapshotFields on ScanSnapshot {\n  snapshotAt label shortLabel monthYear avgRank changeFromPrevious top3Count top10Count belowTop10Count notRankingCount totalPins visibilityScore ranked\n}"): (typeof documents)["fragment ScanSnapshotFields on ScanSnapshot {\n  snapshotAt label shortLabel monthYear avgRank changeFromPrevious top3Count top10Count belowTop10Count notRankingCount totalPins visibilityScore ranked\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ScanSnapshots($uuid: String!, $keyword: String) { scanSnapshots(uuid: $uuid, keyword: $keyword) { ...ScanSnapshotFields } }"): (typeof documents)["query ScanSnapshots($uuid: String!, $keyword: String) { scanSnapshots(uuid: $uuid, keyword: $keyword) { ...ScanSnapshotFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query ScanInsights($uuid: String!, $keyword: String, $snapshotAt: String) {\n  scanInsights(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) {\n    scanUuid snapshotAt keyword\n    summary { avgRank visibilityScore top3 top10 notRanking totalPins }\n    trendsVsFirstSnapshot { firstSnapshotAt startAvg currentAvg change improved percentChange }\n    trendsVsPreviousSnapshot { previousSnapshotAt avgRankChange visibilityChange top3Change top10Change }\n    geographicStrength { label pins avgRank visibility coverage }\n    topCompetitors { name avgRank visibility threatScore }\n    recommendations { type icon title description }\n  }\n}"): (typeof documents)["query ScanInsights($uuid: String!, $keyword: String, $snapshotAt: String) {\n  scanInsights(uuid: $uuid, keyword: $keyword, snapshotAt: $snapshotAt) {\n    scanUuid snapshotAt keyword\n    summary { avgRank visibilityScore top3 top10 notRanking totalPins }\n    trendsVsFirstSnapshot { firstSnapshotAt startAvg currentAvg change improved percentChange }\n    trendsVsPreviousSnapshot { previousSnapshotAt avgRankChange visibilityChange top3Change top10Change }\n    geographicStrength { label pins avgRank visibility coverage }\n    topCompetitors { name avgRank visibility threatScore }\n    recommendations { type icon title description }\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment RunStartedFields on ScanRunStarted { uuid runId startedAt isRunning }"): (typeof documents)["fragment RunStartedFields on ScanRunStarted { uuid runId startedAt isRunning }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateScan($input: CreateScanInput!) { createScan(input: $input) { ...RunStartedFields } }"): (typeof documents)["mutation CreateScan($input: CreateScanInput!) { createScan(input: $input) { ...RunStartedFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RunScan($uuid: String!) { runScan(uuid: $uuid) { ...RunStartedFields } }"): (typeof documents)["mutation RunScan($uuid: String!) { runScan(uuid: $uuid) { ...RunStartedFields } }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment ScheduleFields on ScanSchedule { uuid isScheduled frequency nextRunAt scheduledFrom scheduledTo scheduledDays timezone }"): (typeof documents)["fragment ScheduleFields on ScanSchedule { uuid isScheduled frequency nextRunAt scheduledFrom scheduledTo scheduledDays timezone }"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation SetScanSchedule($uuid: String!, $input: SetScanScheduleInput!) { setScanSchedule(uuid: $uuid, input: $input) { ...ScheduleFields } }"): (typeof documents)["mutation SetScanSchedule($uuid: String!, $input: SetScanScheduleInput!) { setScanSchedule(uuid: $uuid, input: $input) { ...ScheduleFields } }"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;