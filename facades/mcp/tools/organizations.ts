import { Location, location, Organization, organization } from '../../shared/presenters/organization';
import { z } from '../../shared/presenters/zod';
import { bool, fromZod, id, input, page, pageOf, paginated, perPage, str } from '../schema';
import { organizationScopeVariables } from '../scope';
import { defineTool, READ_ONLY } from '../tool';
import { graphql } from '../../shared/graphql';
import type { OrganizationFieldsFragment, OrganizationStatsFieldFragment } from '../../shared/graphql/graphql';

/** The REST Location and Organization (facades/shared/presenters/organization.ts); organisations here add review stats. */
export const locationSchema = fromZod(Location);

const Stats = z
  .object({
    review_count: z.number().int().min(0),
    average_rating: z.number().min(1).max(5).nullable(),
    star_distribution: z.object({ 5: z.number().int(), 4: z.number().int(), 3: z.number().int(), 2: z.number().int(), 1: z.number().int() }),
  })
  .nullable()
  .openapi({ description: 'Review totals over the reviews this token may see; null when include_stats is false or the token lacks reviews.view.' });

const organizationSchema = fromZod(Organization.extend({ stats: Stats }));

type OrgWithStats = OrganizationFieldsFragment & OrganizationStatsFieldFragment;

const withStats = (o: OrgWithStats) => {
  const s = o.stats ?? null;
  return {
    ...organization(o),
    stats: s && {
      review_count: s.reviewCount,
      average_rating: s.averageRating,
      star_distribution: { 5: s.starDistribution.five, 4: s.starDistribution.four, 3: s.starDistribution.three, 2: s.starDistribution.two, 1: s.starDistribution.one },
    },
  };
};

graphql(`fragment OrganizationStatsField on Organization { stats @include(if: $includeStats) { reviewCount averageRating starDistribution { five four three two one } } }`);

interface ListOrganizationsArgs {
  organization_id?: number;
  include_stats: boolean;
  search?: string;
  page: number;
  per_page: number;
}

export const listOrganizations = defineTool({
  name: 'list_organizations',
  title: 'List organisations',
  description:
    'Lists the organisations (businesses) this token may see, each with its locations and, by default, review totals ' +
    '(review_count, average_rating, star_distribution). Pass organization_id for that one organisation in full (pagination is ' +
    'then ignored), or search to match names. Use the ids with list_reviews, list_locations and the other tools.',
  inputSchema: input({
    organization_id: id('Only this organisation, in full detail; pagination is ignored.'),
    include_stats: bool({ default: true, description: 'Include review totals per organisation.' }),
    search: str({ minLength: 1, maxLength: 255, description: 'Part of the organisation name.' }),
    page: page(),
    per_page: perPage(50, 25),
  }),
  outputSchema: paginated(organizationSchema),
  annotations: READ_ONLY,
  permission: 'locations.view',
  document: graphql(`query McpListOrganizations($one: Boolean!, $id: Int!, $checkScope: Boolean!, $organizationId: Int, $includeStats: Boolean!, $search: String, $page: Int!, $perPage: Int!) {
    ...OrganizationScope
    organization(id: $id) @include(if: $one) { ...OrganizationFields ...OrganizationStatsField }
    organizations(search: $search, page: $page, perPage: $perPage) @skip(if: $one) {
      total page perPage items { ...OrganizationFields ...OrganizationStatsField }
    }
  }`),
  variables: (a: ListOrganizationsArgs) => ({
    one: a.organization_id !== undefined,
    id: a.organization_id ?? 0,
    ...organizationScopeVariables(a),
    includeStats: a.include_stats,
    search: a.search ?? null,
    page: a.page,
    perPage: a.per_page,
  }),
  result: (d) => {
    if (d.organization) return pageOf({ items: [d.organization], total: 1, page: 1, perPage: 1 }, withStats);
    return pageOf(d.organizations!, withStats);
  },
});

export const listLocations = defineTool({
  name: 'list_locations',
  title: 'List locations',
  description:
    'Lists the locations (branches, stores, offices) this token may see, ordered by organisation, optionally of one ' +
    'organisation. Each location belongs to an organisation; reviews, business-profile metrics and invites are per location.',
  inputSchema: input({
    organization_id: id('Only locations of this organisation.'),
    page: page(),
    per_page: perPage(50, 25),
  }),
  outputSchema: paginated(locationSchema),
  annotations: READ_ONLY,
  permission: 'locations.view',
  document: graphql(`query McpListLocations($checkScope: Boolean!, $organizationId: Int, $page: Int!, $perPage: Int!) {
    ...OrganizationScope
    locations(organizationId: $organizationId, page: $page, perPage: $perPage) { total page perPage items { ...LocationFields } }
  }`),
  variables: (a: { organization_id?: number; page: number; per_page: number }) => ({ ...organizationScopeVariables(a), page: a.page, perPage: a.per_page }),
  result: (d) => pageOf(d.locations, location),
});

export const organizationTools = [listOrganizations, listLocations];
