import { integer, text } from '../../shared/input';
import { envelope } from '../../shared/pagination';
import { MessageBody, pageOf } from '../../shared/presenters/common';
import { organization, Organization } from '../../shared/presenters/organization';
import { z } from '../../shared/presenters/zod';
import { pathId, route } from '../route';
import { graphql } from '../../shared/graphql';

/** Organisations (spec: "Endpoints > Organisations"): answered unwrapped, each with its locations. */
const TAG = 'Organizations';
const id = { id: pathId('Organization', 'The organisation id.') };
const nameBody = (required: boolean) =>
  z.object({ name: (required ? text('name') : text('name').optional()).openapi({ maxLength: 255, description: 'Unique in the account.' }) });

export const organizationRoutes = [
  route({
    method: 'get',
    path: '/organizations',
    operationId: 'listOrganizations',
    summary: 'List organisations',
    tag: TAG,
    permissions: ['organizations:read'],
    query: z.object({ page: integer('page').optional(), per_page: integer('per_page').optional() }),
    responses: { 200: { description: 'A page of organisations, each with its locations.', schema: pageOf(Organization) } },
    document: graphql(`query ListOrganizations($page: Int!, $perPage: Int!) {
      organizations(page: $page, perPage: $perPage) { total page perPage items { ...OrganizationFields } }
    }`),
    variables: ({ query: q }) => ({ page: q.page ?? 1, perPage: q.per_page ?? 10 }),
    respond: (d, req) => ({ body: envelope(req, d.organizations, organization) }),
  }),
  route({
    method: 'post',
    path: '/organizations',
    operationId: 'createOrganization',
    summary: 'Create an organisation',
    description: 'Creates the organisation with its default location. Multipart (with a `logo` file) or JSON.',
    tag: TAG,
    permissions: ['organizations:create'],
    body: nameBody(true),
    files: ['logo'],
    blankIsAbsent: true,
    errors: [402],
    responses: { 201: { description: 'The organisation (unwrapped), with its default location.', schema: Organization } },
    document: graphql(`mutation CreateOrganization($input: CreateOrganizationInput!) { createOrganization(input: $input) { ...OrganizationFields } }`),
    variables: ({ body: b, files }) => ({ input: { name: b.name, logo: files.logo ?? null } }),
    respond: (d) => ({ status: 201, body: organization(d.createOrganization) }),
  }),
  route({
    method: 'get',
    path: '/organizations/:id',
    operationId: 'getOrganization',
    summary: 'Get an organisation',
    tag: TAG,
    permissions: ['organizations:read'],
    params: id,
    responses: { 200: { description: 'The organisation (unwrapped).', schema: Organization } },
    document: graphql(`query GetOrganization($id: Int!) { organization(id: $id) { ...OrganizationFields } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ body: organization(d.organization) }),
  }),
  route({
    method: 'put',
    path: '/organizations/:id',
    operationId: 'updateOrganization',
    summary: 'Update an organisation',
    description: 'Only sent fields change. Multipart (with a `logo` file) or JSON.',
    tag: TAG,
    permissions: ['organizations:update'],
    params: id,
    body: nameBody(false),
    files: ['logo'],
    blankIsAbsent: true,
    responses: { 200: { description: 'The organisation after the change (unwrapped).', schema: Organization } },
    document: graphql(`mutation UpdateOrganization($id: Int!, $input: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $input) { ...OrganizationFields } }`),
    variables: ({ params, body: b, files }) => {
      const input: Record<string, unknown> = {};
      if (b.name !== undefined) input.name = b.name;
      if (files.logo) input.logo = files.logo;
      return { id: params.id, input };
    },
    respond: (d) => ({ body: organization(d.updateOrganization) }),
  }),
  route({
    method: 'delete',
    path: '/organizations/:id',
    operationId: 'deleteOrganization',
    summary: 'Delete an organisation',
    description: 'At least one organisation must remain (422 `last_organization`).',
    errors: [422],
    tag: TAG,
    permissions: ['organizations:delete'],
    params: id,
    responses: { 200: { description: '`Organization deleted successfully.`', schema: MessageBody } },
    document: graphql(`mutation DeleteOrganization($id: Int!) { deleteOrganization(id: $id) { id message } }`),
    variables: ({ params }) => ({ id: params.id }),
    respond: (d) => ({ body: { message: d.deleteOrganization.message } }),
  }),
];
