import { integer, text } from '../../shared/input';
import { envelope, type PageResult } from '../../shared/pagination';
import { MessageBody, pageOf } from '../../shared/presenters/common';
import { organization, Organization, ORGANIZATION_FIELDS, type OrganizationData } from '../../shared/presenters/organization';
import { z } from '../../shared/presenters/zod';
import { pathId, route } from '../route';

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
    document: `query ($page: Int!, $perPage: Int!) {
      organizations(page: $page, perPage: $perPage) { total page perPage items { ${ORGANIZATION_FIELDS} } }
    }`,
    variables: ({ query: q }) => ({ page: q.page ?? 1, perPage: q.per_page ?? 10 }),
    respond: (d: { organizations: PageResult<OrganizationData> }, req) => ({ body: envelope(req, d.organizations, organization) }),
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
    document: `mutation ($input: CreateOrganizationInput!) { createOrganization(input: $input) { ${ORGANIZATION_FIELDS} } }`,
    variables: ({ body: b, files }) => ({ input: { name: b.name, logo: files.logo ?? null } }),
    respond: (d: { createOrganization: OrganizationData }) => ({ status: 201, body: organization(d.createOrganization) }),
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
    document: `query ($id: Int!) { organization(id: $id) { ${ORGANIZATION_FIELDS} } }`,
    variables: ({ params }) => ({ id: params.id }),
    respond: (d: { organization: OrganizationData }) => ({ body: organization(d.organization) }),
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
    document: `mutation ($id: Int!, $input: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $input) { ${ORGANIZATION_FIELDS} } }`,
    variables: ({ params, body: b, files }) => {
      const input: Record<string, unknown> = {};
      if (b.name !== undefined) input.name = b.name;
      if (files.logo) input.logo = files.logo;
      return { id: params.id, input };
    },
    respond: (d: { updateOrganization: OrganizationData }) => ({ body: organization(d.updateOrganization) }),
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
    document: `mutation ($id: Int!) { deleteOrganization(id: $id) { id message } }`,
    variables: ({ params }) => ({ id: params.id }),
    respond: (d: { deleteOrganization: { message: string } }) => ({ body: { message: d.deleteOrganization.message } }),
  }),
];
