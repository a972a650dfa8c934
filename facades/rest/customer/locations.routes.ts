import { z } from 'zod';
import { integer, parseInput, presentOnly, text } from '../../shared/input';
import { envelope, type PageResult } from '../../shared/pagination';
import { route } from '../route';
import { idParam, location, LOCATION_FIELDS, type LocationData } from './mappers';

export const locationRoutes = [
  route<{ locations: PageResult<LocationData> }>({
    method: 'get',
    path: '/locations',
    document: `query ($organizationId: Int, $search: String, $page: Int!, $perPage: Int!) {
      locations(organizationId: $organizationId, search: $search, page: $page, perPage: $perPage) {
        total page perPage items { ${LOCATION_FIELDS} }
      }
    }`,
    variables: (req) => {
      const q = parseInput(
        z.object({
          organization_id: integer('organization_id').optional(),
          search: text('search').optional(),
          page: integer('page').optional(),
          per_page: integer('per_page').optional(),
        }),
        req.query,
      );
      return { organizationId: q.organization_id, search: q.search || null, page: q.page ?? 1, perPage: q.per_page ?? 25 };
    },
    respond: (d, req) => ({ body: envelope(req, d.locations, location) }),
  }),
  route<{ location: LocationData }>({
    method: 'get',
    path: '/locations/:id',
    document: `query ($id: Int!) { location(id: $id) { ${LOCATION_FIELDS} } }`,
    variables: (req) => ({ id: idParam(req.params.id, 'Location') }),
    respond: (d) => ({ body: { data: location(d.location) } }),
  }),
  route<{ createLocation: LocationData }>({
    method: 'post',
    path: '/locations',
    document: `mutation ($input: CreateLocationInput!) { createLocation(input: $input) { ${LOCATION_FIELDS} } }`,
    variables: (req) => {
      const b = parseInput(z.object({ organization_id: integer('organization_id'), name: text('name') }), presentOnly(req.body));
      return { input: { organizationId: b.organization_id, name: b.name } };
    },
    respond: (d) => ({ status: 201, body: { data: location(d.createLocation) } }),
  }),
  route<{ updateLocation: LocationData }>({
    method: 'put',
    path: '/locations/:id',
    document: `mutation ($id: Int!, $input: UpdateLocationInput!) { updateLocation(id: $id, input: $input) { ${LOCATION_FIELDS} } }`,
    variables: (req) => {
      const id = idParam(req.params.id, 'Location');
      const b = parseInput(z.object({ name: text('name') }), presentOnly(req.body));
      return { id, input: { name: b.name } };
    },
    respond: (d) => ({ body: { data: location(d.updateLocation) } }),
  }),
  route<{ deleteLocation: { message: string } }>({
    method: 'delete',
    path: '/locations/:id',
    document: `mutation ($id: Int!) { deleteLocation(id: $id) { id message } }`,
    variables: (req) => ({ id: idParam(req.params.id, 'Location') }),
    respond: (d) => ({ body: { message: d.deleteLocation.message } }),
  }),
];
