import { graphql } from '../shared/graphql';

/**
 * The scope check of the list tools. A list narrowed to an organisation or location also selects `accessScope`, so
 * an id outside what the token may see is refused (-32001 access_denied; `run` in facades/mcp/index.ts lets that
 * error outrank the query's) instead of answering an empty page. The document declares `$checkScope: Boolean!`,
 * `$organizationId: Int` (and `$locationId: Int`) and spreads `...AccessScope` (or `...OrganizationScope`); its variables
 * start from scopeVariables (or organizationScopeVariables).
 */
graphql(`fragment AccessScope on Query {
  accessScope(organizationId: $organizationId, locationId: $locationId) @include(if: $checkScope) { organizationId }
}`);
graphql(`fragment OrganizationScope on Query { accessScope(organizationId: $organizationId) @include(if: $checkScope) { organizationId } }`);

/** The check alone, which `run` executes before a document whose variables ask for it (`checkScope: true`). */
export const SCOPE_CHECK = graphql(`query ScopeCheck($organizationId: Int, $locationId: Int) {
  accessScope(organizationId: $organizationId, locationId: $locationId) { organizationId }
}`);

export const scopeVariables = (a: { organization_id?: number; location_id?: number }) => ({
  checkScope: a.organization_id !== undefined || a.location_id !== undefined,
  organizationId: a.organization_id ?? null,
  locationId: a.location_id ?? null,
});

export const organizationScopeVariables = (a: { organization_id?: number }) => ({
  checkScope: a.organization_id !== undefined,
  organizationId: a.organization_id ?? null,
});
