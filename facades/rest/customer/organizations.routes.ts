import { z } from 'zod';
import { integer, parseInput, presentOnly, text } from '../../shared/input';
import { envelope, type PageResult } from '../../shared/pagination';
import { route } from '../route';
import { idParam, organization, ORGANIZATION_FIELDS, type OrganizationData } from './mappers';

const nameBody = (required: boolean) => z.object({ name: required ? text('name') : text('name').optional() });

export const organizationRoutes = [
  route<{ organizations: PageResult<OrganizationData> }>({
    method: 'get',
    path: '/organizations',
    document: `query ($page: Int!, $perPage: Int!) {
      organizations(page: $page, perPage: $perPage) { total page perPage items { ${ORGANIZATION_FIELDS} } }
    }`,
    variables: (req) => {
      const q = parseInput(z.object({ page: integer('page').optional(), per_page: integer('per_page').optional() }), req.query);
      return { page: q.page ?? 1, perPage: q.per_page ?? 10 };
    },
    respond: (d, req) => ({ body: envelope(req, d.organizations, organization) }),
  }),
  route<{ createOrganization: OrganizationData }>({
    method: 'post',
    path: '/organizations',
    files: ['logo'],
    document: `mutation ($input: CreateOrganizationInput!) { createOrganization(input: $input) { ${ORGANIZATION_FIELDS} } }`,
    variables: (req) => {
      const b = parseInput(nameBody(true), presentOnly(req.body));
      return { input: { name: b.name, logo: req.files.logo ?? null } };
    },
    respond: (d) => ({ status: 201, body: organization(d.createOrganization) }),
  }),
  route<{ organization: OrganizationData }>({
    method: 'get',
    path: '/organizations/:id',
    document: `query ($id: Int!) { organization(id: $id) { ${ORGANIZATION_FIELDS} } }`,
    variables: (req) => ({ id: idParam(req.params.id, 'Organization') }),
    respond: (d) => ({ body: organization(d.organization) }),
  }),
  route<{ updateOrganization: OrganizationData }>({
    method: 'put',
    path: '/organizations/:id',
    files: ['logo'],
    document: `mutation ($id: Int!, $input: UpdateOrganizationInput!) { updateOrganization(id: $id, input: $input) { ${ORGANIZATION_FIELDS} } }`,
    variables: (req) => {
      const id = idParam(req.params.id, 'Organization');
      const b = parseInput(nameBody(false), presentOnly(req.body));
      const input: Record<string, unknown> = {};
      if (b.name !== undefined) input.name = b.name;
      if (req.files.logo) input.logo = req.files.logo;
      return { id, input };
    },
    respond: (d) => ({ body: organization(d.updateOrganization) }),
  }),
  route<{ deleteOrganization: { message: string } }>({
    method: 'delete',
    path: '/organizations/:id',
    document: `mutation ($id: Int!) { deleteOrganization(id: $id) { id message } }`,
    variables: (req) => ({ id: idParam(req.params.id, 'Organization') }),
    respond: (d) => ({ body: { message: d.deleteOrganization.message } }),
  }),
];
