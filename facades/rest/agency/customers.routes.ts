import { z } from 'zod';
import { bool, integer, parseInput, text } from '../../shared/input';
import { envelope, type PageResult } from '../../shared/pagination';
import { idParam } from '../customer/mappers';
import { route } from '../route';
import { customer, CUSTOMER_FIELDS, type CustomerData } from './mappers';

/**
 * Customer accounts of the agency (spec: Agency API). The wire is parsed here (types); every rule of the
 * fields (required, lengths, E.164, plan, tax fields) is the agency service's, checked in one pass so that a
 * 422 lists every offending field. A missing required string therefore travels as '' and is named there.
 */

/** `custom_plan_id` is a string in the spec; a JSON number is taken as its digits. */
const planId = (field: string) =>
  z.union([z.string(), z.number().int()], { invalid_type_error: `The ${field.replace(/_/g, ' ')} must be a string.` }).transform(String);

const message = (d: { message: string }) => ({ body: { message: d.message } });

export const customerRoutes = [
  route<{ agencyCustomers: PageResult<CustomerData> }>({
    method: 'get',
    path: '/customers',
    document: `query ($search: String, $page: Int!, $perPage: Int!) {
      agencyCustomers(search: $search, page: $page, perPage: $perPage) { total page perPage items { ${CUSTOMER_FIELDS} } }
    }`,
    variables: (req) => {
      const q = parseInput(
        z.object({ search: text('search').optional(), page: integer('page').optional(), per_page: integer('per_page').optional() }),
        req.query,
      );
      return { search: q.search || null, page: q.page ?? 1, perPage: q.per_page ?? 10 };
    },
    // The spec's meta for this list is the short one: current_page, from, per_page, to.
    respond: (d, req) => {
      const { data, links, meta } = envelope(req, d.agencyCustomers, customer);
      return { body: { data, links, meta: { current_page: meta.current_page, from: meta.from, per_page: meta.per_page, to: meta.to } } };
    },
  }),
  route<{ createCustomer: CustomerData }>({
    method: 'post',
    path: '/customers',
    document: `mutation ($input: CreateCustomerInput!) { createCustomer(input: $input) { ${CUSTOMER_FIELDS} } }`,
    variables: (req) => {
      const b = parseInput(
        z.object({
          name: text('name').nullish(),
          company: text('company').nullish(),
          email: text('email').nullish(),
          password: text('password').nullish(),
          custom_plan_id: planId('custom_plan_id').nullish(),
          phone: text('phone').nullish(),
          location_limit: integer('location_limit').nullish(),
          member_limit: integer('member_limit').nullish(),
          send_invite: bool('send_invite').nullish(),
          send_google_connect_link: bool('send_google_connect_link').nullish(),
          send_facebook_connect_link: bool('send_facebook_connect_link').nullish(),
          country: text('country').nullish(),
          postal_code: text('postal_code').nullish(),
        }),
        req.body,
      );
      return {
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
        },
      };
    },
    respond: (d) => ({ status: 201, body: { data: customer(d.createCustomer) } }),
  }),
  route<{ changeCustomerPlan: CustomerData }>({
    method: 'put',
    path: '/customers/:customer',
    document: `mutation ($id: Int!, $customPlanId: String!) { changeCustomerPlan(id: $id, customPlanId: $customPlanId) { ${CUSTOMER_FIELDS} } }`,
    variables: (req) => {
      const id = idParam(req.params.customer, 'Customer');
      const b = parseInput(z.object({ custom_plan_id: planId('custom_plan_id').refine((v) => v !== '', 'The custom plan id field is required.') }), {
        custom_plan_id: req.body.custom_plan_id ?? undefined,
      });
      return { id, customPlanId: b.custom_plan_id };
    },
    respond: (d) => ({ body: { data: customer(d.changeCustomerPlan) } }),
  }),
  route<{ setCustomerLocationLimit: { message: string } }>({
    method: 'put',
    path: '/customers/:customer/location-limit',
    document: `mutation ($id: Int!, $limit: Int!) { setCustomerLocationLimit(id: $id, locationLimit: $limit) { message } }`,
    variables: (req) => {
      const id = idParam(req.params.customer, 'Customer');
      const b = parseInput(z.object({ location_limit: integer('location_limit') }), req.body);
      return { id, limit: b.location_limit };
    },
    respond: (d) => message(d.setCustomerLocationLimit),
  }),
  route<{ setCustomerMemberLimit: { message: string } }>({
    method: 'put',
    path: '/customers/:customer/member-limit',
    document: `mutation ($id: Int!, $limit: Int!) { setCustomerMemberLimit(id: $id, memberLimit: $limit) { message } }`,
    variables: (req) => {
      const id = idParam(req.params.customer, 'Customer');
      const b = parseInput(z.object({ member_limit: integer('member_limit') }), req.body);
      return { id, limit: b.member_limit };
    },
    respond: (d) => message(d.setCustomerMemberLimit),
  }),
  route<{ addCustomerCredits: { message: string; balance: number } }>({
    method: 'post',
    path: '/customers/:customer/add-credits',
    document: `mutation ($id: Int!, $input: AddCreditsInput!) { addCustomerCredits(id: $id, input: $input) { message balance } }`,
    variables: (req) => {
      const id = idParam(req.params.customer, 'Customer');
      const b = parseInput(
        z.object({
          type: text('type'),
          credits: integer('credits'),
          expires_at: text('expires_at').nullish(),
          notes: text('notes').nullish(),
        }),
        req.body,
      );
      return { id, input: { type: b.type, credits: b.credits, expiresAt: b.expires_at ?? null, notes: b.notes ?? null } };
    },
    respond: (d) => ({ body: { message: d.addCustomerCredits.message, balance: d.addCustomerCredits.balance } }),
  }),
  route<{ pauseCustomer: { message: string } }>({
    method: 'put',
    path: '/customers/:customer/pause',
    document: `mutation ($id: Int!) { pauseCustomer(id: $id) { message } }`,
    variables: (req) => ({ id: idParam(req.params.customer, 'Customer') }),
    respond: (d) => message(d.pauseCustomer),
  }),
  route<{ resumeCustomer: { message: string } }>({
    method: 'put',
    path: '/customers/:customer/resume',
    document: `mutation ($id: Int!) { resumeCustomer(id: $id) { message } }`,
    variables: (req) => ({ id: idParam(req.params.customer, 'Customer') }),
    respond: (d) => message(d.resumeCustomer),
  }),
  route<{ deleteCustomer: { message: string } }>({
    method: 'delete',
    path: '/customers/:customer',
    document: `mutation ($id: Int!) { deleteCustomer(id: $id) { message } }`,
    variables: (req) => ({ id: idParam(req.params.customer, 'Customer') }),
    respond: (d) => message(d.deleteCustomer),
  }),
];
