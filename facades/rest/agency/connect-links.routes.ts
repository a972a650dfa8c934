import { bool, integer, text } from '../../shared/input';
import { envelope } from '../../shared/pagination';
import { connectLink, ConnectLink } from '../../shared/presenters/agency';
import { dataOf, pageOf } from '../../shared/presenters/common';
import { z } from '../../shared/presenters/zod';
import { pathString, route } from '../route';
import { graphql } from '../../shared/graphql';

/**
 * Connect links (agency API, tenant owners): `/connect-links`. Spec: "Endpoints > Connect links";
 * decisions in docs/decisions/review-platforms.md, "Connect links and provider sign-in".
 */
const TAG = 'Connect links';
const token = { token: pathString('Connect link', 'The link\'s token.') };

export const connectLinkRoutes = [
  route({
    method: 'get',
    path: '/connect-links',
    operationId: 'listConnectLinks',
    summary: 'List connect links',
    tag: TAG,
    permissions: null,
    query: z.object({
      location_id: integer('location_id').optional(),
      provider: text('provider').optional().openapi({ enum: ['google', 'facebook'] }),
      active: bool('active').optional(),
      page: integer('page').optional(),
      per_page: integer('per_page').optional(),
    }),
    responses: { 200: { description: 'A page of connect links.', schema: pageOf(ConnectLink) } },
    document: graphql(`query ListConnectLinks($locationId: Int, $provider: String, $active: Boolean, $page: Int!, $perPage: Int!) {
      connectLinks(locationId: $locationId, provider: $provider, active: $active, page: $page, perPage: $perPage) {
        total page perPage items { ...ConnectLinkFields }
      }
    }`),
    variables: ({ query: q }) => ({
      locationId: q.location_id ?? null,
      provider: q.provider ?? null,
      active: q.active ?? null,
      page: q.page ?? 1,
      perPage: q.per_page ?? 20,
    }),
    respond: (d, req) => ({ body: envelope(req, d.connectLinks, connectLink) }),
  }),
  route({
    method: 'post',
    path: '/connect-links',
    operationId: 'createConnectLink',
    summary: 'Create a connect link',
    description: 'A single-use, location-scoped link a customer opens to connect Google or Facebook.',
    tag: TAG,
    permissions: null,
    body: z.object({
      provider: text('provider').openapi({ enum: ['google', 'facebook'] }),
      location_id: integer('location_id'),
      ttl_days: integer('ttl_days').nullish().openapi({ minimum: 1, maximum: 30, description: 'Default 7.' }),
    }),
    responses: { 201: { description: 'The created link.', schema: dataOf(ConnectLink) } },
    document: graphql(`mutation CreateConnectLink($input: CreateConnectLinkInput!) { createConnectLink(input: $input) { ...ConnectLinkFields } }`),
    variables: ({ body: b }) => ({ input: { provider: b.provider, locationId: b.location_id, ttlDays: b.ttl_days ?? null } }),
    respond: (d) => ({ status: 201, body: { data: connectLink(d.createConnectLink) } }),
  }),
  route({
    method: 'get',
    path: '/connect-links/:token',
    operationId: 'getConnectLink',
    summary: 'Get a connect link',
    tag: TAG,
    permissions: null,
    params: token,
    responses: { 200: { description: 'The link.', schema: dataOf(ConnectLink) } },
    document: graphql(`query GetConnectLink($token: String!) { connectLink(token: $token) { ...ConnectLinkFields } }`),
    variables: ({ params }) => ({ token: params.token }),
    respond: (d) => ({ body: { data: connectLink(d.connectLink) } }),
  }),
  route({
    method: 'delete',
    path: '/connect-links/:token',
    operationId: 'revokeConnectLink',
    summary: 'Revoke a connect link',
    tag: TAG,
    permissions: null,
    params: token,
    responses: { 200: { description: 'The revoked link.', schema: dataOf(ConnectLink) } },
    document: graphql(`mutation RevokeConnectLink($token: String!) { revokeConnectLink(token: $token) { ...ConnectLinkFields } }`),
    variables: ({ params }) => ({ token: params.token }),
    respond: (d) => ({ body: { data: connectLink(d.revokeConnectLink) } }),
  }),
];
