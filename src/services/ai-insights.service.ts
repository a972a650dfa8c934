import type { Sequelize } from 'sequelize-typescript';
import { chatComplete, chatConfigured, type ChatMessage } from '../providers/ai/chat.client';
import { insightTexts, quotesOnlyFacts, type InsightChange, type InsightFacts, type PeriodFacts, type ThemeFacts } from '../analytics/insights';
import { dayAt, previousPeriod, resolvePeriod, type Period } from '../analytics/periods';
import { indexTerms, nameStopWords, topThemes, type ThemeReview } from '../analytics/themes';
import { readRows } from '../db/read';
import type { Principal } from '../domain/principal';
import { Location, Organization, Review } from '../models';
import { clockOf, type ServiceOptions } from './common';
import { metricsWhere, resolveScope, totalsFor, type MetricsScope, type MetricsTotals } from './review-analytics.service';

/**
 * AI insights of an organisation (optionally one location) over a period (the capability behind the MCP tool
 * `get_ai_insights`): themes, what changed against the previous equal-length period, strengths, complaints and
 * suggested actions, all computed deterministically; the narrative is written by the chat API when one is
 * configured, from those facts only, and by the same rules as the rest when it is not or when it fails.
 */

/** Default period: the last 90 days, today included (enough text for themes at a small business). */
export const DEFAULT_INSIGHT_DAYS = 90;
/** Reviews whose text is analysed per period: the newest this many (totals always count every review). */
export const MAX_ANALYSED_REVIEWS = 1000;

export interface InsightsInput {
  organizationId: number;
  locationId?: number | null;
  periodStart?: string | null;
  periodEnd?: string | null;
}

export interface AiInsights {
  organizationId: number;
  locationId: number | null;
  period: { from: string; to: string };
  previousPeriod: { from: string; to: string };
  totals: MetricsTotals;
  previousTotals: MetricsTotals;
  analysedReviews: number;
  themes: ThemeFacts[];
  changes: InsightChange[];
  strengths: string[];
  complaints: string[];
  suggestedActions: string[];
  narrative: string;
  /** `ai` when the chat API wrote the narrative, else `deterministic`. */
  narrativeSource: 'ai' | 'deterministic';
}

async function textsOf(p: Principal, scope: MetricsScope, period: Period, opts: ServiceOptions): Promise<ThemeReview[]> {
  const values: unknown[] = [];
  const where = metricsWhere(p, scope, period, values);
  values.push(String(MAX_ANALYSED_REVIEWS));
  return readRows<ThemeReview>(
    Review.sequelize as Sequelize,
    // Themes are terms of text read in English (the tagger's language): reviews detected as English, or whose
    // language was not recorded. Those in the five other supported languages count through their aspects; a language
    // outside the six is not read for themes (the English tagger takes its words for nouns: Dutch "vriendelijk").
    `SELECT r.title, r.message, r.rating FROM reviews r WHERE ${where} AND (r.message <> '' OR r.title IS NOT NULL)
       AND (r.language IS NULL OR r.language = 'en')
     ORDER BY r.published_at DESC, r.id DESC LIMIT ?`,
    values,
    opts.transaction,
  );
}

async function unansweredNegative(p: Principal, scope: MetricsScope, period: Period, opts: ServiceOptions): Promise<number> {
  const values: unknown[] = [];
  const where = metricsWhere(p, scope, period, values);
  const [row] = await readRows<{ n: number | string | null }>(
    Review.sequelize as Sequelize,
    `SELECT COUNT(*) AS n FROM reviews r WHERE ${where} AND r.sentiment = 'negative' AND (r.reply IS NULL OR r.reply = '')`,
    values,
    opts.transaction,
  );
  return Number(row?.n ?? 0);
}

const SYSTEM_PROMPT = [
  'You write the review-insights summary that the owner of a local business reads in a dashboard.',
  'Use only the facts in the JSON you are given: do not invent numbers, names, quotes or causes.',
  'Quote the figures each sentence rests on, exactly as given (counts, percentages, ratings); a text with any other number is discarded.',
  'Write one paragraph of plain text (no markdown, no lists, no greeting), at most 120 words: how the period went,',
  'what changed against the previous period, what customers praise and complain about, and the most useful next step.',
].join(' ');

/** The messages sent to the chat API: the computed facts as JSON, nothing from outside them. */
export function chatMessagesFor(facts: InsightFacts, texts: ReturnType<typeof insightTexts>): ChatMessage[] {
  const payload = {
    business: facts.subject,
    period: { from: facts.current.from, to: facts.current.to, ...facts.current.totals, unanswered_negative: facts.current.unansweredNegative },
    previous_period: { from: facts.previous.from, to: facts.previous.to, ...facts.previous.totals },
    aspects: facts.current.totals.aspects ?? [],
    themes: facts.themes.map((t) => ({
      theme: t.theme,
      mentions: t.mentions,
      positive: t.positive,
      neutral: t.neutral,
      negative: t.negative,
      previous_mentions: t.previousMentions,
      example: t.example,
    })),
    changes: texts.changes.map((c) => c.text),
    strengths: texts.strengths,
    complaints: texts.complaints,
    suggested_actions: texts.suggestedActions,
  };
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: `Facts:\n${JSON.stringify(payload)}` },
  ];
}

export async function insights(p: Principal, input: InsightsInput, opts: ServiceOptions = {}): Promise<AiInsights> {
  const today = dayAt(clockOf(opts).now());
  const period = resolvePeriod(
    { from: input.periodStart, to: input.periodEnd },
    { today, defaultDays: DEFAULT_INSIGHT_DAYS, fields: { from: 'period_start', to: 'period_end' } },
  );
  const previous = previousPeriod(period);
  const scope = await resolveScope(p, { organizationId: input.organizationId, locationId: input.locationId ?? null }, opts);
  const [org, location] = await Promise.all([
    Organization.findByPk(input.organizationId, { attributes: ['id', 'name'], transaction: opts.transaction }),
    scope.locationId === null ? null : Location.findByPk(scope.locationId, { attributes: ['id', 'name'], transaction: opts.transaction }),
  ]);
  const [totals, previousTotals, texts, previousTexts, negativeOpen, previousNegativeOpen] = await Promise.all([
    totalsFor(p, scope, period, opts),
    totalsFor(p, scope, previous, opts),
    textsOf(p, scope, period, opts),
    textsOf(p, scope, previous, opts),
    unansweredNegative(p, scope, period, opts),
    unansweredNegative(p, scope, previous, opts),
  ]);

  // The business's own name is no theme ("Main Street Dental was great").
  const stop = nameStopWords([org?.name, location?.name]);
  const current = indexTerms(texts, stop);
  const before = indexTerms(previousTexts, stop);
  const themes = topThemes(current).map((t) => ({ ...t, previousMentions: before.terms.get(t.theme)?.mentions ?? 0 }));
  const faded = topThemes(before)
    .filter((t) => !current.terms.has(t.theme) && t.mentions >= 3)
    .map((t) => ({ theme: t.theme, previousMentions: t.mentions }));

  const facts: InsightFacts = {
    subject: location && location.name !== org?.name ? `${org?.name} (${location.name})` : (org?.name ?? 'The business'),
    current: { from: period.from, to: period.to, totals, unansweredNegative: negativeOpen } satisfies PeriodFacts,
    previous: { from: previous.from, to: previous.to, totals: previousTotals, unansweredNegative: previousNegativeOpen },
    analysedReviews: current.reviews,
    previousAnalysedReviews: before.reviews,
    themes,
    faded,
  };
  const text = insightTexts(facts);

  let narrative = text.narrative;
  let narrativeSource: AiInsights['narrativeSource'] = 'deterministic';
  // Nothing to narrate without reviews; otherwise the chat API writes it, and any failure keeps the rules' text.
  if (totals.totalReviews > 0 && chatConfigured()) {
    try {
      const written = await chatComplete(chatMessagesFor(facts, text), { maxTokens: 400, temperature: 0.2 });
      // A narrative quoting a figure the facts do not hold is not shown: the rules' text is.
      if (quotesOnlyFacts(written, facts, text)) {
        narrative = written;
        narrativeSource = 'ai';
      }
    } catch {
      narrative = text.narrative;
    }
  }

  return {
    organizationId: input.organizationId,
    locationId: scope.locationId,
    period: { from: period.from, to: period.to },
    previousPeriod: { from: previous.from, to: previous.to },
    totals,
    previousTotals,
    analysedReviews: current.reviews,
    themes,
    changes: text.changes,
    strengths: text.strengths,
    complaints: text.complaints,
    suggestedActions: text.suggestedActions,
    narrative,
    narrativeSource,
  };
}
