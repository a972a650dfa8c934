import type { Principal } from '../../src/domain/principal';

/**
 * The spec names MCP tool permissions in dotted form (`reviews.view`, ...). They are not a second permission
 * system: each one is a set of the token permissions the customer API already has, which an AI token carries next
 * to its abilities (`mcp:access`, `mcp:writes`, `reviews:pii`). The GraphQL operation each tool runs checks the
 * same token permissions again, so this table decides what `tools/list` shows and the error a call gets, and the
 * schema stays the authority.
 */
export const TOOL_PERMISSIONS = {
  'reviews.view': ['reviews:read'],
  'locations.view': ['organizations:read'],
  'campaigns.view': ['request:read'],
  'contacts.view': ['request:read'],
  'reviews.auto_respond': ['reviews:read', 'reviews:update'],
  'reviews.respond': ['reviews:read', 'reviews:update'],
  'reviews.edit': ['reviews:read', 'reviews:update'],
} as const satisfies Record<string, readonly string[]>;

export type ToolPermission = keyof typeof TOOL_PERMISSIONS;

export const MCP_ACCESS = 'mcp:access';
export const MCP_WRITES = 'mcp:writes';
export const REVIEWS_PII = 'reviews:pii';

export interface ToolGate {
  name: string;
  permission: ToolPermission | null;
  writes: boolean;
  tenantOwnerOnly: boolean;
}

/** Why the caller may not use a tool, or null when they may. */
export function refusal(p: Principal, tool: ToolGate): { reason: string; message: string } | null {
  if (tool.tenantOwnerOnly && p.role !== 'tenant_owner') {
    return { reason: 'tenant_owner_required', message: `The ${tool.name} tool is part of the Local Search Grid, which only the agency (tenant owner) can use.` };
  }
  if (tool.writes && !p.permissions.has(MCP_WRITES)) {
    return { reason: 'missing_permission', message: `The ${tool.name} tool changes data: the token needs the mcp:writes ability.` };
  }
  if (tool.permission) {
    const missing = TOOL_PERMISSIONS[tool.permission].filter((x) => !p.permissions.has(x));
    if (missing.length) {
      return { reason: 'missing_permission', message: `The ${tool.name} tool needs ${tool.permission} (token permission ${missing.join(', ')}).` };
    }
  }
  return null;
}
