import { customPlan, CustomPlan } from '../../shared/presenters/agency';
import { listOf } from '../../shared/presenters/common';
import { route } from '../route';
import { graphql } from '../../shared/graphql';

export const planRoutes = [
  route({
    method: 'get',
    path: '/custom-plans',
    operationId: 'listCustomPlans',
    summary: 'List the agency\'s plans',
    tag: 'Plans',
    permissions: null,
    responses: { 200: { description: 'Every plan of the agency.', schema: listOf(CustomPlan) } },
    document: graphql(`query ListCustomPlans { customPlans { ...CustomPlanFields } }`),
    variables: () => ({}),
    respond: (d) => ({ body: { data: d.customPlans.map(customPlan) } }),
  }),
];
