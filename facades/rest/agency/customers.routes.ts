import { bool, integer, text } from '../../shared/input';
import { envelope } from '../../shared/pagination';
import { customer, Customer, CustomerPageMeta } from '../../shared/presenters/agency';
import { dataOf, MessageBody, PageLinks } from '../../shared/presenters/common';
import { z } from '../../shared/presenters/zod';
import type { Operation } from '../../shared/execute';
import { pathId, route, type ExtraError } from '../route';
import { graphql } from '../../shared/graphql';

/**
 * Customer accounts of the agency (spec: Agency API). The wire is parsed here (types); every rule of the
 * fields (required, lengths, E.164, plan, tax fields) is the agency service's, checked in one pass so that a
 * 422 lists every offending field. A missing required string therefore travels as '' and is named there.
 */
const TAG = 'Customers';
const customerId = { customer: pathId('Customer', 'The customer id.') };

/** `custom_plan_id` is a string in the spec; a JSON number is taken as its digits. */
const planId = (field: string) =>
  z
    .union([z.string(), z.number().int()], {
      invalid_type_error: `The ${field.replace(/_/g, ' ')} must be a string.`,
      required_error: `The ${field.replace(/_/g, ' ')} field is required.`,
    })
    .transform(String);

const message = (d: { message: string }) => ({ body: { message: d.message } });

const createBody = z.object({
  name: text('name').nullish().openapi({ description: 'Required.', maxLength: 255 }),
  company: text('company').nullish().openapi({ description: 'Required.', maxLength: 255 }),
  email: text('email').nullish().openapi({ description: 'Required; unique.', format: 'email' }),
  password: text('password').nullish().openapi({ description: 'Required; at least 8 characters.' }),
  custom_plan_id: planId('custom_plan_id').nullish().openapi({ description: 'Required: a plan id from `GET /custom-plans`.' }),
  phone: text('phone').nullish().openapi({ description: 'E.164.' }),
  location_limit: integer('location_limit').nullish(),
  member_limit: integer('member_limit').nullish(),
  send_invite: bool('send_invite').nullish(),
  send_google_connect_link: bool('send_google_connect_link').nullish(),
  send_facebook_connect_link: bool('send_facebook_connect_link').nullish(),
  country: text('country').nullish(),
  postal_code: text('postal_code').nullish(),
  language: text('language').nullish().openapi({ description: 'ISO 639-1: en, es, fr, de, pt or it (default: the agency\'s language); 422 for another.', example: 'es' }),
});

const simple = <F extends string>(opts: {
  method: 'put' | 'delete';
  path: string;
  operationId: string;
  summary: string;
  field: F;
  document: Operation<Record<F, { message: string }>>;
  errors?: ExtraError[];
}) =>
  route({
    method: opts.method,
    path: opts.path,
    operationId: opts.operationId,
    summary: opts.summary,
    tag: TAG,
    permissions: null,
    params: customerId,
    errors: opts.errors,
    responses: { 200: { description: 'Done.', schema: MessageBody } },
    document: opts.document,
    variables: ({ params }) => ({ id: params.customer }),
    respond: (d) => message(d[opts.field]),
  });

export const customerRoutes = [
  route({
    method: 'get',
    path: '/customers',
    operationId: 'listCustomers',
    summary: 'List customer accounts',
    tag: TAG,
    permissions: null,
    query: z.object({ search: text('search').optional(), page: integer('page').optional(), per_page: integer('per_page').optional() }),
    responses: {
      200: { description: 'A page of customers (the spec\'s short meta).', schema: z.object({ data: z.array(Customer), links: PageLinks, meta: CustomerPageMeta }) },
    },
    document: graphql(`query ListCustomers($search: String, $page: Int!, $perPage: Int!) {
      agencyCustomers(search: $search, page: $page, perPage: $perPage) { total page perPage items { ...CustomerFields } }
    }`),
    variables: ({ query: q }) => ({ search: q.search || null, page: q.page ?? 1, perPage: q.per_page ?? 10 }),
    // The spec's meta for this list is the short one: current_page, from, per_page, to.
    respond: (d, req) => {
      const { data, links, meta } = envelope(req, d.agencyCustomers, customer);
      return { body: { data, links, meta: { current_page: meta.current_page, from: meta.from, per_page: meta.per_page, to: meta.to } } };
    },
  }),
  route({
    method: 'post',
    path: '/customers',
    operationId: 'createCustomer',
    summary: 'Create a customer account',
    description: 'Every rule is checked in one pass: a 422 lists every offending field.',
    tag: TAG,
    permissions: null,
    body: createBody,
    responses: { 201: { description: 'The created customer.', schema: dataOf(Customer) } },
    document: graphql(`mutation CreateCustomer($input: CreateCustomerInput!) { createCustomer(input: $input) { ...CustomerFields } }`),
    variables: ({ body: b }) => ({
      input: {
        name: b.name ?? '',
        company: b.company ?? '',
        email: b.email ?? '',
        password: b.password ?? '',
        customPlanId: b.custom_plan_id ?? '',
        phone: b.phone ?? null,
        locationLimit: b.location_limit ?? null,
        memberLimit: b.member_limit ?? null,
        sendInvite: b.send_invite ?? false,
        sendGoogleConnectLink: b.send_google_connect_link ?? false,
        sendFacebookConnectLink: b.send_facebook_connect_link ?? false,
        country: b.country ?? null,
        postalCode: b.postal_code ?? null,
        language: b.language ?? null,
      },
    }),
    respond: (d) => ({ status: 201, body: { data: customer(d.createCustomer) } }),
  }),
  route({
    method: 'put',
    path: '/customers/:customer',
    operationId: 'changeCustomerPlan',
    summary: 'Change a customer\'s plan',
    tag: TAG,
    permissions: null,
    params: customerId,
    body: z.object({
      custom_plan_id: planId('custom_plan_id').refine((v) => v !== '', 'The custom plan id field is required.'),
      language: text('language').nullish().openapi({ description: 'Additive: ISO 639-1 (en, es, fr, de, pt or it); 422 for another.', example: 'fr' }),
    }),
    prepare: { body: (b) => ({ custom_plan_id: b.custom_plan_id ?? undefined, language: b.language }) },
    responses: { 200: { description: 'The customer after the change.', schema: dataOf(Customer) } },
    document: graphql(`mutation ChangeCustomerPlan($id: Int!, $customPlanId: String!, $language: String) {
      changeCustomerPlan(id: $id, customPlanId: $customPlanId, language: $language) { ...CustomerFields }
    }`),
    variables: ({ params, body }) => ({ id: params.customer, customPlanId: body.custom_plan_id, language: body.language ?? null }),
    respond: (d) => ({ body: { data: customer(d.changeCustomerPlan) } }),
  }),
  route({
    method: 'put',
    path: '/customers/:customer/location-limit',
    operationId: 'setCustomerLocationLimit',
    summary: 'Set a customer\'s location limit',
    tag: TAG,
    permissions: null,
    params: customerId,
    body: z.object({ location_limit: integer('location_limit') }),
    responses: { 200: { description: 'Done.', schema: MessageBody } },
    document: graphql(`mutation SetCustomerLocationLimit($id: Int!, $limit: Int!) { setCustomerLocationLimit(id: $id, locationLimit: $limit) { message } }`),
    variables: ({ params, body }) => ({ id: params.customer, limit: body.location_limit }),
    respond: (d) => message(d.setCustomerLocationLimit),
  }),
  route({
    method: 'put',
    path: '/customers/:customer/member-limit',
    operationId: 'setCustomerMemberLimit',
    summary: 'Set a customer\'s team-member limit',
    tag: TAG,
    permissions: null,
    params: customerId,
    body: z.object({ member_limit: integer('member_limit') }),
    responses: { 200: { description: 'Done.', schema: MessageBody } },
    document: graphql(`mutation SetCustomerMemberLimit($id: Int!, $limit: Int!) { setCustomerMemberLimit(id: $id, memberLimit: $limit) { message } }`),
    variables: ({ params, body }) => ({ id: params.customer, limit: body.member_limit }),
    respond: (d) => message(d.setCustomerMemberLimit),
  }),
  route({
    method: 'post',
    path: '/customers/:customer/add-credits',
    operationId: 'addCustomerCredits',
    summary: 'Grant credits to a customer',
    tag: TAG,
    permissions: null,
    params: customerId,
    body: z.object({
      type: text('type'),
      credits: integer('credits'),
      expires_at: text('expires_at').nullish().openapi({ format: 'date' }),
      notes: text('notes').nullish(),
    }),
    responses: { 200: { description: 'Done, with the new balance.', schema: z.object({ message: z.string(), balance: z.number().int() }) } },
    document: graphql(`mutation AddCustomerCredits($id: Int!, $input: AddCreditsInput!) { addCustomerCredits(id: $id, input: $input) { message balance } }`),
    variables: ({ params, body: b }) => ({ id: params.customer, input: { type: b.type, credits: b.credits, expiresAt: b.expires_at ?? null, notes: b.notes ?? null } }),
    respond: (d) => ({
      body: { message: d.addCustomerCredits.message, balance: d.addCustomerCredits.balance },
    }),
  }),
  simple({ method: 'put', path: '/customers/:customer/pause', operationId: 'pauseCustomer', summary: 'Pause a customer account', field: 'pauseCustomer', document: graphql(`mutation PauseCustomer($id: Int!) { pauseCustomer(id: $id) { message } }`), errors: [409, 422] }),
  simple({ method: 'put', path: '/customers/:customer/resume', operationId: 'resumeCustomer', summary: 'Resume a customer account', field: 'resumeCustomer', document: graphql(`mutation ResumeCustomer($id: Int!) { resumeCustomer(id: $id) { message } }`), errors: [409, 422] }),
  simple({ method: 'delete', path: '/customers/:customer', operationId: 'deleteCustomer', summary: 'Delete a customer account', field: 'deleteCustomer', document: graphql(`mutation DeleteCustomer($id: Int!) { deleteCustomer(id: $id) { message } }`) }),
];
