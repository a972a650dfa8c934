import type { AnyTool } from '../tool';
import { analyticsTools } from './analytics';
import { autoRespondTools } from './auto-respond';
import { campaignTools, contactTools } from './campaigns';
import { draftTools } from './drafts';
import { feedbackTools } from './feedback';
import { gbpTools } from './gbp';
import { organizationTools } from './organizations';
import { reviewTools } from './reviews';
import { scanTools } from './scans';
import { tagTools } from './tags';

/**
 * The catalogue, in the order `tools/list` shows it (the spec's tables: read tools, PII tools, business profile, Local
 * Search Grid, write tools). A new tool is a file in this folder (see ../tool.ts) and an entry here.
 */
const [getMetrics, getAiInsights, getReport] = analyticsTools;
export const TOOLS: readonly AnyTool[] = [
  ...reviewTools,
  ...organizationTools,
  getMetrics,
  ...campaignTools,
  getAiInsights,
  getReport,
  ...feedbackTools,
  ...contactTools,
  ...autoRespondTools,
  ...gbpTools,
  ...scanTools,
  ...draftTools,
  ...tagTools,
];
