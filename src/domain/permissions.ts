import type { Principal } from './principal';

/** Token permissions of the customer REST API (spec: Authentication > REST). */
export const CUSTOMER_PERMISSIONS = [
  'reviews:read',
  'reviews:create',
  'reviews:update',
  'reviews:delete',
  'request:read',
  'request:create',
  'organizations:read',
  'organizations:create',
  'organizations:update',
  'organizations:delete',
] as const;

/** Abilities of AI (MCP) tokens; the MCP issue gives them meaning. */
export const AI_ABILITIES = ['mcp:access', 'mcp:writes', 'reviews:pii'] as const;

export const ALL_PERMISSIONS: readonly string[] = [...CUSTOMER_PERMISSIONS, ...AI_ABILITIES];

/** Per-organisation permissions a team member can be granted. Organisation owners hold them all. */
export const ORGANIZATION_PERMISSIONS = ['create-locations', 'update-locations', 'delete-locations'] as const;
export type OrganizationPermission = (typeof ORGANIZATION_PERMISSIONS)[number];

export function hasPermissions(principal: Principal, required: readonly string[]): boolean {
  return required.every((p) => principal.permissions.has(p));
}

export const isTenantOwner = (p: Principal): boolean => p.role === 'tenant_owner';
export const isTeamMember = (p: Principal): boolean => p.role === 'team_member';

/** Sees only listed locations and organisations: team members (their assignments), and OAuth grants to some organisations. */
export const isRestricted = (p: Principal): boolean => p.role === 'team_member' || p.grantRestricted === true;

/**
 * The SQL list of the locations a restricted caller sees: a team member's assignments as a subquery (so the statement
 * text is the same for every member), a grant's locations as literal ids. `v` turns an integer into SQL (inline or bound).
 */
export function restrictedLocationsSql(p: Principal, v: (n: number) => string): string {
  if (p.grantRestricted) return `(${[...p.assignedLocationIds, -1].map((n) => v(n)).join(', ')})`;
  return `(SELECT lu.location_id FROM location_user lu WHERE lu.tenant_id = ${v(p.tenantId)} AND lu.user_id = ${v(p.userId)})`;
}

interface Owned {
  tenantId: number;
  customerId: number;
}

/** The record belongs to the caller's account (any account of the tenant, for a tenant owner). */
export function inAccount(p: Principal, row: Owned): boolean {
  if (row.tenantId !== p.tenantId) return false;
  return isTenantOwner(p) || row.customerId === p.customerId;
}

/** Dashboard visibility of an organisation: team members see those they were given a part of. */
export function canSeeOrganization(p: Principal, org: Owned & { id: number }): boolean {
  return inAccount(p, org) && (!isRestricted(p) || p.assignedOrganizationIds.has(org.id));
}

export function canSeeLocation(p: Principal, location: Owned & { id: number }): boolean {
  return canSeeLocated(p, { tenantId: location.tenantId, customerId: location.customerId, locationId: location.id });
}

/** A record that sits at a location (review, integration): visible when its location is. */
export function canSeeLocated(p: Principal, row: Owned & { locationId: number }): boolean {
  return inAccount(p, row) && (!isRestricted(p) || p.assignedLocationIds.has(row.locationId));
}

/** Renaming, re-logoing or deleting an organisation is for its owners, not team members. */
export function canManageOrganization(p: Principal, org: Owned): boolean {
  return inAccount(p, org) && !isTeamMember(p);
}

export function hasOrganizationPermission(p: Principal, organizationId: number, permission: OrganizationPermission): boolean {
  if (!isTeamMember(p)) return true;
  return p.organizationPermissions.get(organizationId)?.has(permission) ?? false;
}
