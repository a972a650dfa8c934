import { analysable, nlp } from './nlp';

/**
 * Sentiment of a review's text (title and message), by wink-nlp's lexicon-based analyser (AFINN-style word
 * valences with negation, intensifiers, emoticons and emoji; a document score in -1..1).
 *
 * Thresholds (docs/decisions.md, "Review analytics"): score >= 0.05 is positive, score <= -0.05 negative,
 * anything between neutral (the usual cut-off of lexicon analysers such as VADER). A review without words (no
 * letters, and no emoji or emoticon that scores) takes its score from the star rating instead: (rating - 3) / 2, so 5 stars = 1, 3 = 0, 1 = -1.
 */

export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

export const POSITIVE_THRESHOLD = 0.05;
export const NEGATIVE_THRESHOLD = -0.05;

export interface SentimentResult {
  sentiment: Sentiment;
  /** -1..1, three decimals (the stored precision). */
  score: number;
}

export function classify(score: number): Sentiment {
  if (score >= POSITIVE_THRESHOLD) return 'positive';
  if (score <= NEGATIVE_THRESHOLD) return 'negative';
  return 'neutral';
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;
const clamp = (n: number): number => Math.max(-1, Math.min(1, n));

/** The text a review's sentiment is read from: its title, then its message. */
export function reviewText(title: string | null | undefined, message: string | null | undefined): string {
  return [title, message]
    .map((s) => (s ?? '').trim())
    .filter(Boolean)
    .join('. ');
}

/** Score of any text in -1..1 (0 for text without sentiment-bearing words). */
export function textScore(text: string): number {
  if (!text.trim()) return 0;
  const score = nlp().readDoc(analysable(text)).out(nlp().its.sentiment) as unknown as number;
  return Number.isFinite(score) ? clamp(score) : 0;
}

/** Sentiment of one review; `rating` only counts when the review has no words. */
export function reviewSentiment(review: { title?: string | null; message?: string | null; rating: number }): SentimentResult {
  const text = reviewText(review.title, review.message);
  const fromText = textScore(text);
  // Text without letters ("", "...") says nothing; emoji alone still do (they score).
  const score = round3(fromText === 0 && !/\p{L}/u.test(text) ? clamp((review.rating - 3) / 2) : fromText);
  return { sentiment: classify(score), score };
}
