import { Forbidden, Validation } from '../domain/errors';
import { canSeeLocation, canSeeOrganization } from '../domain/permissions';
import type { Principal } from '../domain/principal';
import { Location, Organization } from '../models';
import type { ServiceOptions } from './common';

export interface ScopeCheck {
  organizationId: number | null;
  locationId: number | null;
}

/**
 * Filters by organisation or location are either within the caller's dashboard scope or refused. The customer REST
 * API answers an out-of-scope filter with an empty list; the MCP tools (spec: "MCP errors", access denied) refuse
 * it, so a model learns that the id is not its to ask about instead of concluding there is nothing there. An id
 * that does not exist is refused the same way: the answer never tells another account's ids from unused ones.
 */
export async function assertScope(p: Principal, input: ScopeCheck, opts: ServiceOptions = {}): Promise<ScopeCheck> {
  const denied = (what: string) => new Forbidden(`The ${what} is outside what this token may see.`, 'access_denied');
  if (input.organizationId !== null) {
    const org = await Organization.findByPk(input.organizationId, { attributes: ['id', 'tenantId', 'customerId'], transaction: opts.transaction });
    if (!org || !canSeeOrganization(p, org)) throw denied('organization');
  }
  if (input.locationId !== null) {
    const location = await Location.findByPk(input.locationId, {
      attributes: ['id', 'tenantId', 'customerId', 'organizationId'],
      transaction: opts.transaction,
    });
    if (!location || !canSeeLocation(p, location)) throw denied('location');
    if (input.organizationId !== null && location.organizationId !== input.organizationId) {
      throw new Validation({ location_id: ['The location does not belong to the organization.'] });
    }
  }
  return input;
}
