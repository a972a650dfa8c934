import express, { type Router } from 'express';
import { mountRoutes, type AnyRoute, type MountOptions } from '../route';
import { auditRoutes } from './audit.routes';
import { connectLinkRoutes } from './connect-links.routes';
import { customerRoutes } from './customers.routes';
import { orderRoutes } from './orders.routes';
import { planRoutes } from './plans.routes';
import { scanRoutes } from './scans.routes';

/** Every route of the agency API; a new group is one more spread line. */
export const AGENCY_ROUTES = [
  ...customerRoutes,
  ...planRoutes,
  ...orderRoutes,
  ...connectLinkRoutes,
  ...scanRoutes,
  ...auditRoutes,
] as readonly AnyRoute[];

/** The agency REST API, mounted at `/api/agency/v1` (agency tokens of tenant owners only). */
export function agencyApi(opts: MountOptions): Router {
  return mountRoutes(express.Router(), AGENCY_ROUTES, opts);
}
