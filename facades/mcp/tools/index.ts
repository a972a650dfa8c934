import type { AnyTool } from '../tool';
import { organizationTools } from './organizations';
import { reviewTools } from './reviews';
import { scanTools } from './scans';

/**
 * The catalogue, in the order `tools/list` shows it. A new tool is a file in this folder (see ../tool.ts) and an
 * entry here. Still to come, once their GraphQL operations exist: get_metrics, list_campaigns, get_ai_insights,
 * list_private_feedback, list_contacts, get_contact_activity, list_auto_respond_rules, list_gbp_metrics,
 * list_gbp_search_terms, draft_review_response, tag_reviews.
 */
export const TOOLS: readonly AnyTool[] = [...reviewTools, ...organizationTools, ...scanTools];
