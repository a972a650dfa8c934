import { z } from 'zod';
import { bool, integer, parseInput, text } from '../../shared/input';
import { envelope, type PageResult } from '../../shared/pagination';
import { route } from '../route';

/**
 * Connect links (agency API, tenant owners): `/connect-links`. Spec: "Endpoints > Connect links";
 * decisions in docs/decisions.md, "Connect links and provider sign-in".
 */
export interface ConnectLinkData {
  token: string;
  provider: string;
  locationId: number;
  connectUrl: string;
  status: string;
  expiresAt: string;
  lastStartedAt: string | null;
  completedOauthAt: string | null;
  usedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

export const CONNECT_LINK_FIELDS =
  'token provider locationId connectUrl status expiresAt lastStartedAt completedOauthAt usedAt revokedAt createdAt';

export const connectLink = (l: ConnectLinkData) => ({
  token: l.token,
  provider: l.provider,
  location_id: l.locationId,
  connect_url: l.connectUrl,
  status: l.status,
  expires_at: l.expiresAt,
  last_started_at: l.lastStartedAt,
  completed_oauth_at: l.completedOauthAt,
  used_at: l.usedAt,
  revoked_at: l.revokedAt,
  created_at: l.createdAt,
});

export const connectLinkRoutes = [
  route<{ connectLinks: PageResult<ConnectLinkData> }>({
    method: 'get',
    path: '/connect-links',
    document: `query ($locationId: Int, $provider: String, $active: Boolean, $page: Int!, $perPage: Int!) {
      connectLinks(locationId: $locationId, provider: $provider, active: $active, page: $page, perPage: $perPage) {
        total page perPage items { ${CONNECT_LINK_FIELDS} }
      }
    }`,
    variables: (req) => {
      const q = parseInput(
        z.object({
          location_id: integer('location_id').optional(),
          provider: text('provider').optional(),
          active: bool('active').optional(),
          page: integer('page').optional(),
          per_page: integer('per_page').optional(),
        }),
        req.query,
      );
      return {
        locationId: q.location_id ?? null,
        provider: q.provider ?? null,
        active: q.active ?? null,
        page: q.page ?? 1,
        perPage: q.per_page ?? 20,
      };
    },
    respond: (d, req) => ({ body: envelope(req, d.connectLinks, connectLink) }),
  }),
  route<{ createConnectLink: ConnectLinkData }>({
    method: 'post',
    path: '/connect-links',
    document: `mutation ($input: CreateConnectLinkInput!) { createConnectLink(input: $input) { ${CONNECT_LINK_FIELDS} } }`,
    variables: (req) => {
      const b = parseInput(
        z.object({ provider: text('provider'), location_id: integer('location_id'), ttl_days: integer('ttl_days').nullish() }),
        req.body,
      );
      return { input: { provider: b.provider, locationId: b.location_id, ttlDays: b.ttl_days ?? null } };
    },
    respond: (d) => ({ status: 201, body: { data: connectLink(d.createConnectLink) } }),
  }),
  route<{ connectLink: ConnectLinkData }>({
    method: 'get',
    path: '/connect-links/:token',
    document: `query ($token: String!) { connectLink(token: $token) { ${CONNECT_LINK_FIELDS} } }`,
    variables: (req) => ({ token: req.params.token }),
    respond: (d) => ({ body: { data: connectLink(d.connectLink) } }),
  }),
  route<{ revokeConnectLink: ConnectLinkData }>({
    method: 'delete',
    path: '/connect-links/:token',
    document: `mutation ($token: String!) { revokeConnectLink(token: $token) { ${CONNECT_LINK_FIELDS} } }`,
    variables: (req) => ({ token: req.params.token }),
    respond: (d) => ({ body: { data: connectLink(d.revokeConnectLink) } }),
  }),
];
