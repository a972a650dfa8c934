import { customPlan, CustomPlan, CUSTOM_PLAN_FIELDS, type CustomPlanData } from '../../shared/presenters/agency';
import { listOf } from '../../shared/presenters/common';
import { route } from '../route';

export const planRoutes = [
  route({
    method: 'get',
    path: '/custom-plans',
    operationId: 'listCustomPlans',
    summary: 'List the agency\'s plans',
    tag: 'Plans',
    permissions: null,
    responses: { 200: { description: 'Every plan of the agency.', schema: listOf(CustomPlan) } },
    document: `query { customPlans { ${CUSTOM_PLAN_FIELDS} } }`,
    variables: () => ({}),
    respond: (d: { customPlans: CustomPlanData[] }) => ({ body: { data: d.customPlans.map(customPlan) } }),
  }),
];
