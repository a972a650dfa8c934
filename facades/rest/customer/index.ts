import express, { type Router } from 'express';
import { mountRoutes, type AnyRoute, type MountOptions } from '../route';
import { aiAuthorizationRoutes } from './ai-authorizations.routes';
import { campaignRoutes } from './campaigns.routes';
import { gbpRoutes } from './gbp.routes';
import { locationRoutes } from './locations.routes';
import { organizationRoutes } from './organizations.routes';
import { referenceRoutes } from './reference.routes';
import { reportRoutes } from './reports.routes';
import { reviewRoutes } from './reviews.routes';
import { webhookRoutes } from './webhooks.routes';

export const CUSTOMER_ROUTES = [
  ...reviewRoutes,
  ...reportRoutes,
  ...organizationRoutes,
  ...locationRoutes,
  ...referenceRoutes,
  ...webhookRoutes,
  ...campaignRoutes,
  ...gbpRoutes,
  ...aiAuthorizationRoutes,
] as readonly AnyRoute[];

/**
 * POSTs whose spec accepts no `Idempotency-Key` (the invite's rule 9): derived from the routes that say so, matched as
 * Express matches them (letter case ignored, a trailing slash allowed), so no spelling that reaches the route escapes.
 */
export const NO_IDEMPOTENCY_KEY: readonly RegExp[] = CUSTOMER_ROUTES.filter((r) => r.method === 'post' && r.idempotencyKey === false).map(
  (r) => new RegExp(`^${r.path.replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`, 'i'),
);

/** The customer REST API, mounted at `/api/v1`. */
export function customerApi(opts: MountOptions): Router {
  return mountRoutes(express.Router(), CUSTOMER_ROUTES, opts);
}
