export const ROLES = ['tenant_owner', 'organization_owner', 'team_member'] as const;
export type Role = (typeof ROLES)[number];

export const TOKEN_KINDS = ['customer', 'agency', 'ai'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/**
 * Who is calling: resolved once per request from the bearer token and handed to every service.
 * Scope questions are answered by the helpers in `permissions.ts`, never ad hoc.
 */
export interface Principal {
  readonly tenantId: number;
  readonly userId: number;
  readonly role: Role;
  /** The customer account the user belongs to (a tenant owner's own workspace account too). */
  readonly customerId: number | null;
  readonly tokenId: number;
  readonly tokenKind: TokenKind;
  /** When the calling token expires (null: never). */
  readonly tokenExpiresAt: Date | null;
  readonly permissions: ReadonlySet<string>;
  /** Team members only: the locations assigned to them. */
  readonly assignedLocationIds: ReadonlySet<number>;
  /** Team members only: organisations holding an assigned location or granting them a permission. */
  readonly assignedOrganizationIds: ReadonlySet<number>;
  /** Team members only: per-organisation permissions such as `create-locations`. */
  readonly organizationPermissions: ReadonlyMap<number, ReadonlySet<string>>;
  /**
   * An OAuth grant to some organisations only (issue 16): visibility is then limited to `assignedOrganizationIds` and
   * `assignedLocationIds` (the grant's organisations and their locations, within what the user sees), as for a team
   * member. Absent for every other caller.
   */
  readonly grantRestricted?: boolean;
  /** The request this principal was resolved for (the `X-Request-Id` of the answer), for the audit trail. */
  readonly requestId?: string;
}
