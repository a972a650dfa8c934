import { route } from '../route';
import { customPlan, CUSTOM_PLAN_FIELDS, type CustomPlanData } from './mappers';

export const planRoutes = [
  route<{ customPlans: CustomPlanData[] }>({
    method: 'get',
    path: '/custom-plans',
    document: `query { customPlans { ${CUSTOM_PLAN_FIELDS} } }`,
    variables: () => ({}),
    respond: (d) => ({ body: { data: d.customPlans.map(customPlan) } }),
  }),
];
