import { reaches } from './figures';
import type { Theme } from './themes';

/**
 * AI insights without AI: the rules that turn computed facts (totals of two periods, themes) into what changed,
 * strengths, complaints, suggested actions and a narrative. Pure functions, so every sentence is testable and the
 * same facts always give the same text. Thresholds: docs/decisions/analytics.md "Review analytics".
 */

export interface PeriodTotals {
  totalReviews: number;
  avgRating: number | null;
  responded: number;
  responseRate: number | null;
  sentimentDistribution: { positive: number; neutral: number; negative: number };
  /** Reviews talking about each aspect, by tone (any language); absent in facts that predate aspects. */
  aspects?: { aspect: string; positive: number; neutral: number; negative: number }[];
}

export interface PeriodFacts {
  from: string;
  to: string;
  totals: PeriodTotals;
  /** Negative reviews of the period without a reply. */
  unansweredNegative: number;
}

export interface ThemeFacts extends Theme {
  /** Reviews of the previous period mentioning the theme. */
  previousMentions: number;
}

export interface InsightFacts {
  /** "Main Street Dental" or "Main Street Dental (Downtown)". */
  subject: string;
  current: PeriodFacts;
  previous: PeriodFacts;
  /** Reviews whose text was analysed in each period (the newest, up to the analysis cap). */
  analysedReviews: number;
  previousAnalysedReviews: number;
  themes: ThemeFacts[];
  /** Themes of the previous period that nobody mentions any more. */
  faded: { theme: string; previousMentions: number }[];
}

export type ChangeDirection = 'up' | 'down' | 'unchanged' | 'new' | 'gone';

export interface InsightChange {
  subject: string;
  previous: number | null;
  current: number | null;
  direction: ChangeDirection;
  text: string;
}

export interface InsightTexts {
  changes: InsightChange[];
  strengths: string[];
  complaints: string[];
  suggestedActions: string[];
  narrative: string;
}

/** What customers talk about: an aspect (any language) or a theme (a term of English reviews). */
export interface Topic {
  /** "the staff", "the wait time", "the front desk". */
  name: string;
  mentions: number;
  positive: number;
  neutral: number;
  negative: number;
  /** A clause quoting it, for themes. */
  example?: string;
}

/** How an aspect is named in a sentence. */
export const ASPECT_NAMES: Record<string, string> = {
  staff: 'staff',
  price: 'prices',
  wait_time: 'wait time',
  cleanliness: 'cleanliness',
  quality: 'quality of the work',
  communication: 'communication',
};

/** Theme terms an aspect already covers (the aspect, counted in every language, speaks for them). */
const COVERED_BY_ASPECTS: ReadonlySet<string> = new Set([
  'staff', 'team', 'price', 'prices', 'cost', 'wait', 'wait time', 'waiting time', 'cleanliness', 'quality', 'communication',
]);

/** Aspects (mentioned in at least MIN_TOPIC_MENTIONS reviews) and the themes they do not cover, most mentioned first. */
export function topicsOf(f: InsightFacts): Topic[] {
  const aspects: Topic[] = (f.current.totals.aspects ?? [])
    .map((a) => ({ name: ASPECT_NAMES[a.aspect] ?? a.aspect, mentions: a.positive + a.neutral + a.negative, positive: a.positive, neutral: a.neutral, negative: a.negative }))
    .filter((a) => a.mentions >= MIN_TOPIC_MENTIONS);
  const themes: Topic[] = f.themes
    .filter((t) => !COVERED_BY_ASPECTS.has(t.theme) || aspects.length === 0)
    .map((t) => ({ name: t.theme, mentions: t.mentions, positive: t.positive, neutral: t.neutral, negative: t.negative, example: t.example }));
  // Stable: aspects before themes at equal mentions.
  return [...aspects, ...themes].sort((a, b) => b.mentions - a.mentions);
}

/** Reviews a topic needs before it is named. */
export const MIN_TOPIC_MENTIONS = 2;

/** A theme is a strength when at least 60% of its mentions are positive (and more positive than negative). */
export const STRENGTH_SHARE = 0.6;
/** A theme is a complaint when at least 40% of its mentions are negative. */
export const COMPLAINT_SHARE = 0.4;
/** A theme's mention share must move by at least 10 percentage points to count as a change. */
export const THEME_SHIFT_POINTS = 10;
/** Response rate below which replying is suggested. */
export const RESPONSE_RATE_TARGET = 90;

const pct = (part: number, whole: number): number => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);
/**
 * The percentages of `parts` in `whole`, 1 decimal, rounded by the largest-remainder method so that shown shares add
 * up to what the parts make together (100 when they are the whole): each share is cut to its tenth, and the tenths
 * still missing go to the largest remainders, the earlier part first on a tie. Three thirds read 33.4, 33.3 and 33.3
 * rather than 33.3 three times, which a reader adds up to 99.9.
 */
export function sharesOf(parts: readonly number[], whole: number): number[] {
  if (whole === 0) return parts.map(() => 0);
  const exact = parts.map((part) => (part * 1000) / whole);
  const tenths = exact.map(Math.floor);
  const missing = Math.round((parts.reduce((sum, part) => sum + part, 0) * 1000) / whole) - tenths.reduce((sum, t) => sum + t, 0);
  const byRemainder = exact.map((x, i) => ({ i, remainder: x - tenths[i] })).sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of byRemainder.slice(0, Math.max(0, missing))) tenths[i] += 1;
  return tenths.map((t) => t / 10);
}
const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(n * 10 === Math.round(n * 10) ? 1 : 2));
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

type Counted = Pick<Theme, 'mentions' | 'positive' | 'negative'>;
export const isStrength = (t: Counted): boolean => t.positive / t.mentions >= STRENGTH_SHARE && t.positive > t.negative;
export const isComplaint = (t: Counted): boolean => t.negative / t.mentions >= COMPLAINT_SHARE;

const quoted = (t: Topic): string => (t.example ? ` ("${t.example}")` : '');

function metricChange(subject: string, previous: number | null, current: number | null, unit = ''): InsightChange {
  const direction: ChangeDirection =
    previous === null || current === null ? 'unchanged' : current > previous ? 'up' : current < previous ? 'down' : 'unchanged';
  const show = (n: number | null) => (n === null ? 'n/a' : `${fmt(n)}${unit}`);
  const verb = direction === 'up' ? 'rose' : direction === 'down' ? 'fell' : 'held';
  const text =
    direction === 'unchanged' && previous !== null && current !== null
      ? `${subject} held at ${show(current)}.`
      : previous === null || current === null
        ? `${subject}: ${show(current)} (previous period ${show(previous)}).`
        : `${subject} ${verb} from ${show(previous)} to ${show(current)}.`;
  return { subject, previous, current, direction, text };
}

/** What changed against the previous period: the four headline metrics, then shifts in what customers discuss. */
export function changesOf(f: InsightFacts): InsightChange[] {
  const cur = f.current.totals;
  const prev = f.previous.totals;
  const negativeShare = (t: PeriodTotals) => (t.totalReviews === 0 ? null : pct(t.sentimentDistribution.negative, t.totalReviews));
  const changes = [
    metricChange('Reviews', prev.totalReviews, cur.totalReviews),
    metricChange('Average rating', prev.avgRating, cur.avgRating, ' stars'),
    metricChange('Response rate', prev.responseRate, cur.responseRate, '%'),
    metricChange('Negative reviews', negativeShare(prev), negativeShare(cur), '%'),
  ];
  for (const t of f.themes) {
    if (t.previousMentions === 0) {
      changes.push({
        subject: t.theme,
        previous: 0,
        current: t.mentions,
        direction: 'new',
        text: `New theme: ${t.theme} (${plural(t.mentions, 'review')}, not mentioned in the previous period).`,
      });
      continue;
    }
    const before = pct(t.previousMentions, f.previousAnalysedReviews);
    const now = pct(t.mentions, f.analysedReviews);
    if (reaches(Math.abs(now - before), THEME_SHIFT_POINTS)) {
      changes.push({
        subject: t.theme,
        previous: before,
        current: now,
        direction: now > before ? 'up' : 'down',
        text: `Mentions of ${t.theme} ${now > before ? 'rose' : 'fell'} from ${fmt(before)}% to ${fmt(now)}% of reviews.`,
      });
    }
  }
  for (const g of f.faded) {
    changes.push({
      subject: g.theme,
      previous: g.previousMentions,
      current: 0,
      direction: 'gone',
      text: `${g.theme} is no longer mentioned (${plural(g.previousMentions, 'review')} in the previous period).`,
    });
  }
  return changes;
}

export function strengthsOf(f: InsightFacts): string[] {
  return topicsOf(f)
    .filter(isStrength)
    .map((t) => `Customers praise the ${t.name}: ${t.positive} of ${plural(t.mentions, 'review')} mentioning it are positive${quoted(t)}.`);
}

export function complaintsOf(f: InsightFacts): string[] {
  return topicsOf(f)
    .filter(isComplaint)
    .map((t) => `Customers complain about the ${t.name}: ${t.negative} of ${plural(t.mentions, 'review')} mentioning it are negative${quoted(t)}.`);
}

/** Suggested actions, most urgent first. */
export function actionsOf(f: InsightFacts): string[] {
  const cur = f.current.totals;
  const prev = f.previous.totals;
  const actions: string[] = [];
  if (f.current.unansweredNegative > 0) {
    actions.push(`Reply to the ${plural(f.current.unansweredNegative, 'negative review')} still without a response: a calm, specific answer is what later readers judge.`);
  }
  const topics = topicsOf(f);
  for (const t of topics.filter(isComplaint).slice(0, 3)) {
    actions.push(`Look into the ${t.name}: ${t.negative} of ${plural(t.mentions, 'review')} mentioning it are negative.`);
  }
  if (cur.responseRate !== null && cur.responseRate < RESPONSE_RATE_TARGET) {
    const unanswered = cur.totalReviews - cur.responded;
    actions.push(`Raise the response rate (${fmt(cur.responseRate)}%) to at least ${RESPONSE_RATE_TARGET}%: ${plural(unanswered, 'review')} of the period have no reply.`);
  }
  if (cur.avgRating !== null && prev.avgRating !== null && reaches(prev.avgRating - cur.avgRating, 0.2)) {
    actions.push(`The average rating fell from ${fmt(prev.avgRating)} to ${fmt(cur.avgRating)} stars: read the period's low-rated reviews for a common cause.`);
  }
  if (cur.totalReviews < 5 || (prev.totalReviews > 0 && cur.totalReviews < prev.totalReviews * 0.8)) {
    actions.push(`Ask more customers for reviews (a review-request campaign): ${plural(cur.totalReviews, 'review')} this period against ${prev.totalReviews} before.`);
  }
  const strengths = topics.filter(isStrength).slice(0, 3);
  if (strengths.length) {
    actions.push(`Feature what customers value (${list(strengths.map((t) => t.name))}) in replies, on the website and in marketing.`);
  }
  if (actions.length === 0) actions.push('Keep replying to every review and asking happy customers for reviews.');
  return actions;
}

/**
 * The narrative as plain sentences from the facts (also the fallback when the chat API fails). Every sentence quotes
 * the figures it rests on, so a reader can check each against the totals and the breakdown beside it.
 */
export function narrativeOf(f: InsightFacts): string {
  const cur = f.current.totals;
  const prev = f.previous.totals;
  if (cur.totalReviews === 0) {
    return `${f.subject} received no reviews between ${f.current.from} and ${f.current.to} (${plural(prev.totalReviews, 'review')} in the previous period). Ask recent customers for a review to keep the profile current.`;
  }
  const parts: string[] = [];
  const rating = cur.avgRating === null ? '' : ` with an average rating of ${fmt(cur.avgRating)} stars${prev.avgRating === null ? '' : ` (${fmt(prev.avgRating)} before)`}`;
  parts.push(`Between ${f.current.from} and ${f.current.to}, ${f.subject} received ${plural(cur.totalReviews, 'review')} (${prev.totalReviews} in the previous period)${rating}.`);
  const s = cur.sentimentDistribution;
  const [positive, neutral, negative] = sharesOf([s.positive, s.neutral, s.negative], cur.totalReviews);
  parts.push(`${fmt(positive)}% were positive, ${fmt(neutral)}% neutral and ${fmt(negative)}% negative.`);
  const topics = topicsOf(f);
  if (topics.length) parts.push(`Customers talk most about ${list(topics.slice(0, 3).map((t) => `the ${t.name} (${plural(t.mentions, 'review')})`))}.`);
  const praised = topics.filter(isStrength).slice(0, 3).map((t) => `the ${t.name} (${t.positive} of ${t.mentions} positive)`);
  const criticised = topics.filter(isComplaint).slice(0, 3).map((t) => `the ${t.name} (${t.negative} of ${t.mentions} negative)`);
  if (praised.length) parts.push(`They praise ${list(praised)}.`);
  if (criticised.length) parts.push(`Complaints centre on ${list(criticised)}.`);
  if (cur.responseRate !== null) parts.push(`${fmt(cur.responseRate)}% of the reviews have a reply.`);
  return parts.join(' ');
}

/** Numbers a text quotes ("4.5", "60%", "2026-10-01" gives 2026, 10 and 1). */
export function figuresOf(text: string): number[] {
  return quotedFigures(text).map((f) => f.value);
}

/** The figures of a text as written: their value and how many decimals they were given with. */
function quotedFigures(text: string): Array<{ value: number; decimals: number }> {
  return [...text.matchAll(/\d+(?:[.,]\d+)?/g)].map((m) => ({ value: Number(m[0].replace(',', '.')), decimals: m[0].split(/[.,]/)[1]?.length ?? 0 }));
}

/** Every number value of the facts (names, dates and example texts are strings: their digits are not figures). */
function factValues(value: unknown, into: Set<number>): void {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) into.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) factValues(v, into);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) factValues(v, into);
  }
}

/**
 * Whether a narrative (the chat API's) quotes only figures of the facts: every number in it must be one the facts or
 * the rules' texts state, or a rounding of one to the precision it is quoted with (a share of 33.3% may read "33%",
 * an average of 4.67 "4.7"; a count of 5 is not "4.9"). Names (the business, its location, the themes) are not
 * figures, nor are the review excerpts quoted as examples: their digits count neither as facts nor as quotes. A narrative inventing a count, a rate or a share is
 * refused, and the rules' narrative is used instead.
 */
export function quotesOnlyFacts(narrative: string, facts: InsightFacts, texts: InsightTexts): boolean {
  // Names and the reviews' own words quoted as examples: their digits are not figures.
  const names = [facts.subject, ...facts.themes.flatMap((th) => [th.theme, th.example ?? '']), ...facts.faded.map((th) => th.theme)]
    .filter(Boolean)
    .sort((a, b) => b.length - a.length);
  const withoutNames = (text: string) => names.reduce((t, name) => t.split(name).join(' '), text);
  const known = new Set<number>();
  factValues(facts, known);
  for (const text of [texts.narrative, ...texts.changes.map((c) => c.text), ...texts.strengths, ...texts.complaints, ...texts.suggestedActions]) {
    for (const n of figuresOf(withoutNames(text))) known.add(n);
  }
  for (const totals of [facts.current.totals, facts.previous.totals]) {
    const t = totals.totalReviews;
    const { positive, neutral, negative } = totals.sentimentDistribution;
    for (const part of [positive, neutral, negative, totals.responded]) known.add(pct(part, t));
    for (const share of sharesOf([positive, neutral, negative], t)) known.add(share);
  }
  const values = [...known];
  const roundings = (k: number, decimals: number) => {
    const scale = 10 ** decimals;
    return [Math.round(k * scale) / scale, Math.floor(k * scale) / scale];
  };
  return quotedFigures(withoutNames(narrative)).every(({ value, decimals }) => values.some((k) => k === value || roundings(k, decimals).includes(value)));
}

export function insightTexts(f: InsightFacts): InsightTexts {
  return {
    changes: changesOf(f),
    strengths: strengthsOf(f),
    complaints: complaintsOf(f),
    suggestedActions: actionsOf(f),
    narrative: narrativeOf(f),
  };
}
