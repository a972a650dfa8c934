import { arr, bool, id, input, int, nullable, object, oneOf, page, pageOf, paginated, perPage, str } from '../schema';
import { scopeVariables } from '../scope';
import { defineTool, READ_ONLY } from '../tool';
import { graphql } from '../../shared/graphql';
import type { AutoRespondRuleFieldsFragment } from '../../shared/graphql/graphql';

/** Auto-respond rules (GraphQL `autoRespondRules`); rule semantics in docs/decisions/reviews.md ("Auto-respond rules"). */
const ts = (extra = {}) => str({ format: 'date-time', ...extra });

graphql(`fragment AutoRespondRuleFields on AutoRespondRule { id organizationId locationId name ratings sourceNames keywords keywordMatch useAi template paused priority createdAt updatedAt }`);

const ruleSchema = object({
  id: int(),
  organization_id: int(),
  location_id: nullable(int({ description: 'null: every location of the organisation.' })),
  name: str(),
  ratings: arr(int({ minimum: 1, maximum: 5 }), { description: 'Star ratings the rule answers.' }),
  source_names: arr(str(), { description: 'Sources it answers (empty: every source).' }),
  keywords: arr(str(), { description: 'Whole words or phrases looked for in the title and message.' }),
  keyword_match: oneOf(['any', 'none'], { description: 'any: answer when a keyword occurs; none: answer when none occurs. Ignored without keywords.' }),
  use_ai: bool({ description: 'The reply is written by the AI model (the template is its example and fallback).' }),
  template: nullable(str({ description: 'Reply text with placeholders such as {first_name} and {business_name}.' })),
  paused: bool(),
  priority: int({ minimum: 0, description: 'Lower is evaluated first; the first matching rule answers.' }),
  created_at: ts(),
  updated_at: ts(),
});

const rule = (r: AutoRespondRuleFieldsFragment) => ({
  id: r.id,
  organization_id: r.organizationId,
  location_id: r.locationId,
  name: r.name,
  ratings: r.ratings,
  source_names: r.sourceNames,
  keywords: r.keywords,
  keyword_match: r.keywordMatch,
  use_ai: r.useAi,
  template: r.template,
  paused: r.paused,
  priority: r.priority,
  created_at: r.createdAt,
  updated_at: r.updatedAt,
});

interface ListRulesArgs {
  organization_id?: number;
  location_id?: number;
  use_ai?: boolean;
  paused?: boolean;
  page: number;
  per_page: number;
}

export const listAutoRespondRules = defineTool({
  name: 'list_auto_respond_rules',
  title: 'List auto-respond rules',
  description:
    'Lists the rules that reply to new reviews automatically, in the order they are evaluated (priority, then age; the ' +
    'first matching rule answers): which ratings, sources and keywords each matches, whether the reply is a template or ' +
    'written by AI, and whether the rule is paused. With location_id, the rules that apply there (its own and the ' +
    'organisation-wide ones). Needs the auto_respond plan feature (otherwise the tool answers upgrade_required).',
  inputSchema: input({
    organization_id: id('Only rules of this organisation.'),
    location_id: id('The rules that apply at this location.'),
    use_ai: bool({ description: 'true: only AI-written replies; false: only template replies.' }),
    paused: bool(),
    page: page(),
    per_page: perPage(50, 25),
  }),
  outputSchema: paginated(ruleSchema),
  annotations: READ_ONLY,
  permission: 'reviews.auto_respond',
  document: graphql(`query McpListAutoRespondRules($checkScope: Boolean!, $organizationId: Int, $locationId: Int, $useAi: Boolean, $paused: Boolean, $page: Int!, $perPage: Int!) {
    ...AccessScope
    autoRespondRules(organizationId: $organizationId, locationId: $locationId, useAi: $useAi, paused: $paused, page: $page, perPage: $perPage) {
      total page perPage items { ...AutoRespondRuleFields }
    }
  }`),
  variables: (a: ListRulesArgs) => ({
    ...scopeVariables(a),
    useAi: a.use_ai ?? null,
    paused: a.paused ?? null,
    page: a.page,
    perPage: a.per_page,
  }),
  result: (d) => pageOf(d.autoRespondRules, rule),
});

export const autoRespondTools = [listAutoRespondRules];
