import { country, Country, currentUser, CurrentUser, source, Source, SOURCE_FIELDS, type SourceData } from '../../shared/presenters/reference';
import { listOf } from '../../shared/presenters/common';
import { z } from '../../shared/presenters/zod';
import { route } from '../route';

/** Reference data and identity (spec: "Endpoints > Reference data and identity"): any valid token. */
const TAG = 'Reference data';

export const referenceRoutes = [
  route({
    method: 'get',
    path: '/sources',
    operationId: 'listSources',
    summary: 'List review sources',
    tag: TAG,
    permissions: null,
    responses: { 200: { description: 'Every review source the platform knows.', schema: listOf(Source) } },
    document: `{ sources { ${SOURCE_FIELDS} } }`,
    variables: () => ({}),
    respond: (d: { sources: SourceData[] }) => ({ body: { data: d.sources.map(source) } }),
  }),
  route({
    method: 'get',
    path: '/countries',
    operationId: 'listCountries',
    summary: 'List countries',
    tag: TAG,
    permissions: null,
    responses: { 200: { description: 'A bare array of countries.', schema: z.array(Country) } },
    document: `{ countries { id name } }`,
    variables: () => ({}),
    respond: (d: { countries: { id: string; name: string }[] }) => ({ body: d.countries.map(country) }),
  }),
  route({
    method: 'get',
    path: '/me',
    operationId: 'getCurrentUser',
    summary: 'The token\'s user',
    tag: TAG,
    permissions: null,
    responses: { 200: { description: 'The current user.', schema: CurrentUser } },
    document: `{ me { id name email } }`,
    variables: () => ({}),
    respond: (d: { me: { id: number; name: string; email: string } }) => ({ body: currentUser(d.me) }),
  }),
];
