import { reaches } from '../analytics/figures';
import { ASPECTS, type Aspect } from '../analytics/lexicon';
import type { AspectDistribution } from '../services/review-analytics.service';
import type { ReportFigures, ReportMonthAspect } from './types';

/**
 * The aspects over the report's twelve months: each month's net sentiment per aspect (what the aspect trend chart
 * draws), and the rule of the "what changed" sentence about an aspect whose net sentiment moved clearly
 * (docs/decisions/analytics.md, "Monthly reports and scan reports").
 */

/** Months in each of the two windows compared: the report's month and the two before, against the three before those. */
export const TREND_WINDOW = 3;
/** Reviews naming the aspect that each window needs before it is compared (fewer is chance). */
export const TREND_MIN_MENTIONS = 3;
/** Points (of -100..100) the net sentiment must move between the windows to be a sentence. */
export const TREND_MIN_MOVE = 30;
/** At most this many aspect sentences, the largest moves first. */
export const TREND_MAX_SENTENCES = 2;

/** (positive - negative) / mentions x 100, 1 decimal; null without a mention. */
export function netSentiment(positive: number, negative: number, mentions: number): number | null {
  return mentions ? Math.round(((positive - negative) / mentions) * 1000) / 10 : null;
}

/** One month's distribution of an aspect, with its mentions and net sentiment. */
export function monthAspect(a: AspectDistribution): ReportMonthAspect {
  const mentions = a.positive + a.neutral + a.negative;
  return { ...a, mentions, netSentiment: netSentiment(a.positive, a.negative, mentions) };
}

/** The twelve months as the renderers read them (the service's, or GraphQL's answer). */
type Months = ReportFigures['months'];

/** The aspects named at least once in the twelve months, in ASPECTS order (none: the chart is "no data"). */
export function mentionedAspects(months: Months): Aspect[] {
  return ASPECTS.filter((aspect) => months.some((m) => m.aspects.some((a) => a.aspect === aspect && a.mentions > 0)));
}

export interface AspectWindow {
  /** `YYYY-MM` of the window's first and last months. */
  from: string;
  to: string;
  mentions: number;
  positive: number;
  negative: number;
  /** Net sentiment over the window's summed mentions (not a mean of the months'), 1 decimal. */
  net: number;
}

export interface AspectMove {
  aspect: Aspect;
  before: AspectWindow;
  now: AspectWindow;
}

function windowOf(months: Months, aspect: Aspect): AspectWindow | null {
  let mentions = 0;
  let positive = 0;
  let negative = 0;
  for (const m of months) {
    const a = m.aspects.find((x) => x.aspect === aspect);
    mentions += a?.mentions ?? 0;
    positive += a?.positive ?? 0;
    negative += a?.negative ?? 0;
  }
  if (mentions < TREND_MIN_MENTIONS) return null;
  return { from: months[0].month, to: months[months.length - 1].month, mentions, positive, negative, net: netSentiment(positive, negative, mentions)! };
}

/**
 * The aspects whose net sentiment moved by at least TREND_MIN_MOVE points from the three months before the last
 * three to the last three (the report's month included), each window with at least TREND_MIN_MENTIONS mentions;
 * the largest moves first (ties in ASPECTS order), at most TREND_MAX_SENTENCES.
 */
export function aspectMoves(months: Months): AspectMove[] {
  if (months.length < 2 * TREND_WINDOW) return [];
  const now = months.slice(-TREND_WINDOW);
  const before = months.slice(-2 * TREND_WINDOW, -TREND_WINDOW);
  const moves: AspectMove[] = [];
  for (const aspect of ASPECTS) {
    const [b, n] = [windowOf(before, aspect), windowOf(now, aspect)];
    if (b && n && reaches(Math.abs(n.net - b.net), TREND_MIN_MOVE)) moves.push({ aspect, before: b, now: n });
  }
  return moves.sort((x, y) => Math.abs(y.now.net - y.before.net) - Math.abs(x.now.net - x.before.net)).slice(0, TREND_MAX_SENTENCES);
}
