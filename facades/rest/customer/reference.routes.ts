import { country, Country, currentUser, CurrentUser, source, Source } from '../../shared/presenters/reference';
import { listOf } from '../../shared/presenters/common';
import { z } from '../../shared/presenters/zod';
import { route } from '../route';
import { graphql } from '../../shared/graphql';

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
    document: graphql(`query ListSources { sources { ...SourceFields } }`),
    variables: () => ({}),
    respond: (d) => ({ body: { data: d.sources.map(source) } }),
  }),
  route({
    method: 'get',
    path: '/countries',
    operationId: 'listCountries',
    summary: 'List countries',
    tag: TAG,
    permissions: null,
    responses: { 200: { description: 'A bare array of countries.', schema: z.array(Country) } },
    document: graphql(`query ListCountries { countries { id name } }`),
    variables: () => ({}),
    respond: (d) => ({ body: d.countries.map(country) }),
  }),
  route({
    method: 'get',
    path: '/me',
    operationId: 'getCurrentUser',
    summary: 'The token\'s user',
    tag: TAG,
    permissions: null,
    responses: { 200: { description: 'The current user.', schema: CurrentUser } },
    document: graphql(`query GetCurrentUser { me { id name email } }`),
    variables: () => ({}),
    respond: (d) => ({ body: currentUser(d.me) }),
  }),
];
