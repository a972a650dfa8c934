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
  return inAccount(p, org) && (!isTeamMember(p) || p.assignedOrganizationIds.has(org.id));
}

export function canSeeLocation(p: Principal, location: Owned & { id: number }): boolean {
  return canSeeLocated(p, { tenantId: location.tenantId, customerId: location.customerId, locationId: location.id });
}

/** A record that sits at a location (review, integration): visible when its location is. */
export function canSeeLocated(p: Principal, row: Owned & { locationId: number }): boolean {
  return inAccount(p, row) && (!isTeamMember(p) || p.assignedLocationIds.has(row.locationId));
}

/** Renaming, re-logoing or deleting an organisation is for its owners, not team members. */
export function canManageOrganization(p: Principal, org: Owned): boolean {
  return inAccount(p, org) && !isTeamMember(p);
}

export function hasOrganizationPermission(p: Principal, organizationId: number, permission: OrganizationPermission): boolean {
  if (!isTeamMember(p)) return true;
  return p.organizationPermissions.get(organizationId)?.has(permission) ?? false;
}
