import { integer, text } from '../../shared/input';
import { envelope } from '../../shared/pagination';
import { MessageBody, dataOf, pageOf } from '../../shared/presenters/common';
import { location, Location } from '../../shared/presenters/organization';
import { z } from '../../shared/presenters/zod';
import { pathId, route } from '../route';
import { graphql } from '../../shared/graphql';

/** Locations (spec: "Endpoints > Locations"). */
const TAG = 'Locations';
const id = { id: pathId('Location', 'The location id.') };

export const locationRoutes = [
  route({
    method: 'get',
    path: '/locations',
    operationId: 'listLocations',
    summary: 'List locations',
    description: 'Ordered by organisation; visibility follows the token user\'s dashboard scope.',
    tag: TAG,
    permissions: ['organizations:read'],
    query: z.object({
      organization_id: integer('organization_id').optional(),
      search: text('search').optional().openapi({ description: 'Free text over location and organisation names.' }),
      page: integer('page').optional(),
      per_page: integer('per_page').optional().openapi({ description: '1-100, default 25.' }),
    }),
    responses: { 200: { description: 'A page of locations.', schema: pageOf(Location) } },
    document: graphql(`query ListLocations($organizationId: Int, $search: String, $page: Int!, $perPage: Int!) {
      locations(organizationId: $organizationId, search: $search, page: $page, perPage: $perPage) {
        total page perPage items { ...LocationFields }
      }
    }`),
    variables: ({ query: q }) => ({ organizationId: q.organization_id, search: q.search || null, page: q.page ?? 1, perPage: q.per_page ?? 25 }),
    respond: (d, req) => ({ body: envelope(req, d.locations, location) }),
  }),
  route({
    method: 'get',
    path: '/locations/:id',
    operationId: 'getLocation',
    summary: 'Get a location',
    description: '403 `location_access_denied` for a role-bound team member outside their assigned scope.',
    tag: TAG,
    permissions: ['organizations:read'],
    params: id,
    responses: { 200: { description: 'The location.', schema: dataOf(Location) } },
    document: graphql(`query GetLocation($id: Int!) { location(id: $id) { ...LocationFields } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ body: { data: location(d.location) } }),
  }),
  route({
    method: 'post',
    path: '/locations',
    operationId: 'createLocation',
    summary: 'Create a location',
    description: '402 `upgrade_required` when the organisation owner\'s plan location limit is reached.',
    tag: TAG,
    permissions: ['organizations:create'],
    body: z.object({ organization_id: integer('organization_id'), name: text('name').openapi({ maxLength: 255 }) }),
    blankIsAbsent: true,
    errors: [402],
    responses: { 201: { description: 'The created location.', schema: dataOf(Location) } },
    document: graphql(`mutation CreateLocation($input: CreateLocationInput!) { createLocation(input: $input) { ...LocationFields } }`),
    variables: ({ body: b }) => ({ input: { organizationId: b.organization_id, name: b.name } }),
    respond: (d) => ({ status: 201, body: { data: location(d.createLocation) } }),
  }),
  route({
    method: 'put',
    path: '/locations/:id',
    operationId: 'updateLocation',
    summary: 'Rename a location',
    tag: TAG,
    permissions: ['organizations:update'],
    params: id,
    body: z.object({ name: text('name').openapi({ maxLength: 255 }) }),
    blankIsAbsent: true,
    responses: { 200: { description: 'The location after the change.', schema: dataOf(Location) } },
    document: graphql(`mutation UpdateLocation($id: Int!, $input: UpdateLocationInput!) { updateLocation(id: $id, input: $input) { ...LocationFields } }`),
    variables: ({ params, body: b }) => ({ id: params.id, input: { name: b.name } }),
    respond: (d) => ({ body: { data: location(d.updateLocation) } }),
  }),
  route({
    method: 'delete',
    path: '/locations/:id',
    operationId: 'deleteLocation',
    summary: 'Delete a location',
    description: 'Deleting an organisation\'s last location answers 422 `last_location`.',
    errors: [422],
    tag: TAG,
    permissions: ['organizations:delete'],
    params: id,
    responses: { 200: { description: '`Location deleted successfully.`', schema: MessageBody } },
    document: graphql(`mutation DeleteLocation($id: Int!) { deleteLocation(id: $id) { id message } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ body: { message: d.deleteLocation.message } }),
  }),
];
