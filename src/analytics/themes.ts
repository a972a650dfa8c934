import type { ItemSentence, ItemToken, ItsFunction } from 'wink-nlp';
import { analysable, nlp } from './nlp';
import { classify, textScore, type Sentiment } from './sentiment';

/**
 * Deterministic theme extraction: what customers talk about, how often and in what tone. Terms are the nouns of
 * the review text (lemmas, so "rooms" and "room" count together) and two-noun compounds ("front desk", "wait
 * time"), minus stop words (wink-nlp's English list, the generic review words below, and the business's own
 * name). Compounds are a noun or an opinion-free adjective before a noun ("front desk", "cold food"; not
 * "friendly staff", whose adjective is the tone, not the topic). A term's mentions are the number of reviews using it; each mention takes the tone of its clause (the
 * part of the sentence between contrast words like "but"), or, when the clause has no opinion words, the lean of
 * the review's stars ((rating - 3) / 2).
 */

/** Words that appear in reviews of any business and say nothing about this one. */
export const REVIEW_STOP_WORDS: ReadonlySet<string> = new Set([
  'thing', 'lot', 'place', 'time', 'day', 'experience', 'review', 'star', 'everything', 'anything', 'something',
  'nothing', 'way', 'bit', 'kind', 'year', 'week', 'month', 'today', 'yesterday', 'tonight', 'business', 'company',
  'visit', 'job', 'work', 'love', 'thanks', 'thank', 'recommend', 'recommendation', 'anyone', 'someone', 'everyone',
  'people', 'guy', 'lady', 'stuff', 'overall', 'use', 'need', 'option', 'part', 'reason', 'sort', 'type', 'point',
  'fact', 'case', 'minute', 'hour', 'second', 'couple', 'first', 'last', 'next', 'other', 'sure', 'top', 'yes', 'no',
]);

/** Contrast words that end a clause: "the parking is bad but the doctor is great" is two opinions. */
const CLAUSE_BREAKS: ReadonlySet<string> = new Set(['but', 'yet', 'although', 'though', 'however', 'whereas', 'while', 'except', ';']);

const WORD = /^[a-z][a-z'-]{2,}$/;

/** Adjectives on wink-nlp's stop list that still name a kind of thing ("front desk", "back office", "side door"). */
const CLASSIFYING_STOP_WORDS: ReadonlySet<string> = new Set(['front', 'back', 'side']);

export interface ThemeReview {
  title?: string | null;
  message: string;
  rating: number;
}

export interface TermStats {
  term: string;
  /** Reviews mentioning the term. */
  mentions: number;
  positive: number;
  neutral: number;
  negative: number;
  /** Mean tone of the mentions, -1..1. */
  scoreSum: number;
  /** The first clause that mentioned it (from the first review given, so pass reviews newest first). */
  example: string;
}

export interface TermIndex {
  /** Reviews with any text analysed. */
  reviews: number;
  terms: Map<string, TermStats>;
}

/** Lower-case words of names (business, location) that should never become themes. */
export function nameStopWords(names: (string | null | undefined)[]): Set<string> {
  const out = new Set<string>();
  for (const name of names) for (const w of (name ?? '').toLowerCase().split(/[^\p{L}]+/u)) if (w.length >= 3) out.add(w);
  return out;
}

interface Token {
  text: string;
  pos: string;
  lemma: string;
  stop: boolean;
  /** Offsets in the analysed text, to quote the original (not lower-cased) words. */
  start: number;
  end: number;
}

function clausesOf(sentence: Token[]): Token[][] {
  const out: Token[][] = [[]];
  for (const t of sentence) {
    if (CLAUSE_BREAKS.has(t.text)) {
      if (out[out.length - 1].length) out.push([]);
      continue;
    }
    out[out.length - 1].push(t);
  }
  return out.filter((c) => c.length > 0);
}

/** The clause as written: the original text between its first and last token, whitespace collapsed. */
const quote = (original: string, tokens: Token[]): string =>
  original
    .slice(tokens[0].start, tokens[tokens.length - 1].end)
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.;:!?-]+|[\s,;:-]+$/g, '')
    .trim();

/** Terms (nouns and noun-noun compounds) of one clause. */
function termsOf(clause: Token[], stop: ReadonlySet<string>): string[] {
  const terms: string[] = [];
  const noun = (t: Token | undefined, word: string) => t !== undefined && t.pos === 'NOUN' && WORD.test(word) && !stop.has(word);
  // A modifier: a noun ("customer service"; even a stop-listed one), or an adjective that classifies rather than
  // judges: no opinion of its own ("front desk", "cold food"; not "friendly staff") and not a function word.
  const modifier = (t: Token) =>
    WORD.test(t.text) &&
    !REVIEW_STOP_WORDS.has(t.text) &&
    !stop.has(t.text) &&
    (t.pos === 'NOUN' || (t.pos === 'ADJ' && (!t.stop || CLASSIFYING_STOP_WORDS.has(t.text)) && textScore(t.text) === 0));
  for (let i = 0; i < clause.length; i++) {
    const t = clause[i];
    if (noun(t, t.lemma) && !t.stop && !REVIEW_STOP_WORDS.has(t.lemma)) terms.push(t.lemma);
    const next = clause[i + 1];
    // Compounds keep the modifier as written; a generic head is fine after a specific modifier ("wait time").
    if (next && modifier(t) && noun(next, next.lemma) && !next.stop) terms.push(`${t.text} ${next.lemma}`);
  }
  return terms;
}

/**
 * Indexes the terms of the reviews. The text is lower-cased first: the tagger otherwise reads a capitalised first
 * word ("Great service") as a proper noun.
 */
export function indexTerms(reviews: ThemeReview[], extraStopWords: ReadonlySet<string> = new Set()): TermIndex {
  const n = nlp();
  const its = n.its;
  // wink-nlp's type declarations give `its.lemma` the wrong shape; at run time it is an ordinary token helper.
  const lemma = its.lemma as unknown as ItsFunction<string>;
  const terms = new Map<string, TermStats>();
  let analysed = 0;
  for (const review of reviews) {
    // Bounded before anything reads it (src/analytics/nlp.ts): quotes and offsets come from this same text.
    const text = analysable(
      [review.title, review.message]
        .map((s) => (s ?? '').trim())
        .filter(Boolean)
        .join('. '),
    );
    if (!/\p{L}/u.test(text)) continue;
    analysed++;
    const starLean = Math.max(-1, Math.min(1, (review.rating - 3) / 2));
    const lowered = text.toLowerCase();
    // Quotes come from the original when lower-casing kept every offset (it does for almost every text).
    const original = lowered.length === text.length ? text : lowered;
    const doc = n.readDoc(lowered);
    const all: Token[] = [];
    let at = 0;
    doc.tokens().each((t: ItemToken) => {
      const value = t.out();
      const start = at + String(t.out(its.precedingSpaces)).length;
      all.push({ text: value, pos: t.out(its.pos), lemma: t.out(lemma), stop: Boolean(t.out(its.stopWordFlag)), start, end: start + value.length });
      at = start + value.length;
    });
    // Per review: the tone of each term's first mention.
    const seen = new Map<string, { score: number; clause: string }>();
    doc.sentences().each((sentence: ItemSentence) => {
      const tokens: Token[] = [];
      sentence.tokens().each((t: ItemToken) => {
        tokens.push(all[t.index()]);
      });
      for (const clause of clausesOf(tokens)) {
        const found = termsOf(clause, extraStopWords);
        if (found.length === 0) continue;
        const clauseText = quote(original, clause);
        const clauseScore = textScore(clauseText);
        // A clause without opinion words takes the review's star lean, not the sentence's: in "the parking is a
        // nightmare but the doctor is excellent" the sentence's praise belongs to the doctor.
        const score = clauseScore !== 0 ? clauseScore : starLean;
        for (const term of found) if (!seen.has(term)) seen.set(term, { score, clause: clauseText });
      }
    });
    for (const [term, { score, clause }] of seen) {
      let stats = terms.get(term);
      if (!stats) {
        stats = { term, mentions: 0, positive: 0, neutral: 0, negative: 0, scoreSum: 0, example: clause };
        terms.set(term, stats);
      }
      stats.mentions++;
      stats.scoreSum += score;
      stats[classify(score) as Sentiment]++;
    }
  }
  return { reviews: analysed, terms };
}

export interface Theme {
  theme: string;
  mentions: number;
  positive: number;
  neutral: number;
  negative: number;
  /** Mean tone of the mentions, -1..1, 3 decimals. */
  score: number;
  sentiment: Sentiment;
  example: string;
}

export const MIN_THEME_MENTIONS = 2;
export const MAX_THEMES = 10;

/**
 * The themes of an index: terms mentioned in at least 2 reviews, most mentioned first (ties alphabetically), at
 * most 10. A single noun is dropped when a compound holding it covers at least 60% of its mentions ("desk" goes
 * when "front desk" says the same).
 */
export function topThemes(index: TermIndex, max = MAX_THEMES): Theme[] {
  const candidates = [...index.terms.values()].filter((t) => t.mentions >= MIN_THEME_MENTIONS);
  const compounds = candidates.filter((t) => t.term.includes(' '));
  const kept = candidates.filter(
    (t) => t.term.includes(' ') || !compounds.some((c) => c.term.split(' ').includes(t.term) && c.mentions >= 0.6 * t.mentions),
  );
  return kept
    .sort((a, b) => b.mentions - a.mentions || a.term.localeCompare(b.term))
    .slice(0, max)
    .map((t) => {
      const score = Math.round((t.scoreSum / t.mentions) * 1000) / 1000;
      return {
        theme: t.term,
        mentions: t.mentions,
        positive: t.positive,
        neutral: t.neutral,
        negative: t.negative,
        score,
        sentiment: classify(score),
        example: t.example.length > 160 ? `${t.example.slice(0, 157)}...` : t.example,
      };
    });
}
