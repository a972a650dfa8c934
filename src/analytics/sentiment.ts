import { analysable, nlp } from './nlp';
import { ASPECTS, EMOJI, LANGUAGES, LEXICONS, type Aspect, type Language, type LanguageLexicon } from './lexicon';
import { libraryLexicon } from './language-packs';

/**
 * Sentiment of a review, in any of the six supported languages, read together with its star rating.
 *
 * 1. **Language**: detected per review (tinyld, on its first MAX_DETECTED_CHARS); where the detector hesitates between
 *    languages, or the text is too short to detect, the supported language whose lexicon knows most of its words. A
 *    language outside the six is recorded as detected and read with English.
 * 2. **Text score** in -1..1: the text is cut into clauses (sentences, and contrast words such as "but", "pero",
 *    "mais", "aber"); each clause is scored from the review-domain lexicon (src/analytics/lexicon.ts) and the
 *    language's general lexicon (wink-nlp for English; the @nlpjs language packs for the others), with negation
 *    bounded to the three words before a sentiment word within its clause, and in German also to a negator closing
 *    the part of the clause after it ("Ich empfehle diese Praxis nicht"); a clause after a contrast word counts
 *    1.5 times (the lean of "good food but slow service" is in what follows the "but").
 * 3. **The rating as a prior**: with no opinion words, the rating decides ((rating - 3) / 2). Otherwise text and
 *    rating agree, or the rating wins, unless the text is clearly of the other polarity (|text| >= CLEAR_TEXT: a
 *    1-star "Amazing team, thank you so much!" is positive; a 3-star review is neutral unless its text is clear).
 *    The reason is returned with the result and stored.
 * 4. **Aspects**: each aspect the review talks about (staff, price, wait time, cleanliness, quality, communication)
 *    takes the tone of the clauses that name it, or the review's when those clauses carry none.
 *
 * Thresholds (docs/decisions/analytics.md): score >= 0.05 is positive, score <= -0.05 negative, neutral between;
 * the returned score always classifies to the returned sentiment.
 */

export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

export const POSITIVE_THRESHOLD = 0.05;
export const NEGATIVE_THRESHOLD = -0.05;

/** Text at least this clear overrides a rating of the other polarity. */
export const CLEAR_TEXT = 0.6;

/**
 * Version of the analyser; a review scored by an older one is re-scored by the `rescoreSentiment` workflow after an
 * upgrade (1: wink-nlp English only; 2: languages, rating prior, aspects; 3: a text in a language outside the six,
 * read with the English lexicons, never overturns the stars; 4: German negation after the verb, and no language
 * recorded for a text without letters).
 */
export const SENTIMENT_VERSION = 4;

export const SENTIMENT_REASONS = ['text', 'rating', 'text_and_rating', 'rating_outweighs_text', 'text_outweighs_rating'] as const;
/**
 * Why a review has its sentiment: `text` (a 3-star review whose words are clear), `rating` (no opinion words: the
 * stars), `text_and_rating` (both lean the same way), `rating_outweighs_text` (the text leans the other way, not
 * clearly), `text_outweighs_rating` (the text is clearly of the other polarity).
 */
export type SentimentReason = (typeof SENTIMENT_REASONS)[number];

export { ASPECTS, LANGUAGES, type Aspect, type Language };
export type AspectSentiments = Partial<Record<Aspect, Sentiment>>;

export interface SentimentResult {
  sentiment: Sentiment;
  /** -1..1, three decimals (the stored precision). */
  score: number;
  /** ISO 639-1 code of the text's language as detected, or null when the review has no words to tell it by. */
  language: string | null;
  reason: SentimentReason;
  aspects: AspectSentiments;
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

/** Lower case, accents removed, ß as ss: the form lexicon entries are written in. */
export function normalise(text: string): string {
  return text.toLowerCase().replace(/ß/g, 'ss').normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

const SUPPORTED: ReadonlySet<string> = new Set(LANGUAGES);
const isLanguage = (code: string): code is Language => SUPPORTED.has(code);

/** Letters a text needs before its detected language is trusted. */
const MIN_DETECTABLE_LETTERS = 12;

/**
 * tinyld's detector, required on first use: its model is about 20 MB of heap, which a process that never reads a
 * review (the CLI, a test file without reviews) should not pay.
 */
let detector: typeof import('tinyld') | null = null;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const detectAll = (text: string) => (detector ??= require('tinyld') as typeof import('tinyld')).detectAll(text);

/** The detector's accuracy from which its guess is taken as it is (clear texts score 0.8 to 1; short ones hundredths). */
const CONFIDENT_DETECTION = 0.5;

/** How close behind the best guess another language must be for a clear guess to count as ambiguous. */
const CLOSE_CANDIDATE = 0.4;

/**
 * Characters of a text the detector reads: the start of its analysable part (src/analytics/nlp.ts), cut after the
 * last whole word. tinyld takes tens of microseconds per word it finds no language-specific n-gram in ("a a a ...":
 * 20,000 characters 0.5 s), and a review's first 2,000 characters tell its language as well as the rest would.
 */
export const MAX_DETECTED_CHARS = 2_000;

/** The part of a text the detector reads (MAX_DETECTED_CHARS of its analysable part, ending at a whole word). */
export function detectable(text: string): string {
  const read = analysable(text);
  if (read.length <= MAX_DETECTED_CHARS) return read;
  const head = read.slice(0, MAX_DETECTED_CHARS);
  // A word cut in two at the limit is left out (the analysable part has no run of more than 64 non-spaces).
  return /\s/u.test(read[MAX_DETECTED_CHARS]) ? head : head.replace(/\S+$/u, '');
}

/** What the detector says of a text: its first three guesses, and whether the first is clear. */
export interface Detection {
  guesses: string[];
  confident: boolean;
}

/**
 * What tinyld says of a text's language. A clear detection keeps the guesses within CLOSE_CANDIDATE of the best; a
 * hesitant one ("Great results, fair price." reads as Irish at 0.08) keeps its first three in order, for the lexicons
 * to weigh; a text too short to tell ("Ottimo!") has none. Reads the text's first MAX_DETECTED_CHARS (`detectable`).
 */
export function detectLanguage(text: string): Detection {
  const read = detectable(text);
  const letters = read.replace(/[^\p{L}]/gu, '').length;
  if (letters < MIN_DETECTABLE_LETTERS) return { guesses: [], confident: false };
  const guesses = detectAll(read).slice(0, 3).filter((g) => g.lang);
  const best = guesses[0];
  if (!best) return { guesses: [], confident: false };
  const confident = best.accuracy >= CONFIDENT_DETECTION;
  return {
    guesses: (confident ? guesses.filter((g) => g.accuracy >= CLOSE_CANDIDATE * best.accuracy) : guesses).map((g) => g.lang.slice(0, 2)),
    confident,
  };
}

// ---- Matching the lexicon ----------------------------------------------------------------------------------------

interface Entry {
  words: string[];
  weight: number;
}

/**
 * Entries in their order of precedence, by first word: `first(tokens, at)` answers what
 * `entries.find((e) => matchesAt(e, tokens, at))` would, trying only the entries whose first word is the token at
 * `at` or (a word ending in `*`) a prefix of it, so a text's tokens are matched in time independent of the lexicon's
 * size.
 */
interface EntryIndex {
  entries: Entry[];
  first(tokens: string[], at: number): Entry | undefined;
}

/** Entries of one language, longest first (so "no lo recomiendo" wins over "recomiendo"). */
interface CompiledLexicon {
  entries: EntryIndex;
  negators: Set<string>;
  contrasts: Entry[];
  aspects: [Aspect, EntryIndex][];
  notNegating: Entry[];
  trailing: { negators: Set<string>; stops: Set<string>; notAfter: Set<string>; subjects: Set<string>; finiteVerbs: string[]; tail: Set<string> } | null;
}

const split = (phrase: string): string[] => normalise(phrase).split(/\s+/).filter(Boolean);

const compiled = new Map<Language, CompiledLexicon>();

function compile(language: Language): CompiledLexicon {
  let c = compiled.get(language);
  if (!c) {
    const lex: LanguageLexicon = LEXICONS[language];
    const entries = Object.entries(lex.phrases)
      .map(([phrase, weight]) => ({ words: split(phrase), weight }))
      .sort((a, b) => b.words.length - a.words.length);
    c = {
      entries: indexed(entries),
      negators: new Set(lex.negators.map(normalise)),
      contrasts: lex.contrasts.map((w) => ({ words: split(w), weight: 0 })).sort((a, b) => b.words.length - a.words.length),
      aspects: ASPECTS.map((a) => [a, indexed(lex.aspects[a].map((w) => ({ words: split(w), weight: 0 })))]),
      notNegating: (lex.notNegating ?? []).map((w) => ({ words: split(w), weight: 0 })).sort((a, b) => b.words.length - a.words.length),
      trailing: lex.trailingNegation
        ? {
            negators: new Set(lex.trailingNegation.negators.map(normalise)),
            // Contrast words start a clause of their own, but one may stand inside it ("leider nicht"): a stop too.
            stops: new Set([...lex.trailingNegation.stops, ...lex.contrasts.filter((w) => !/\s/.test(w.trim()))].map(normalise)),
            notAfter: new Set(lex.trailingNegation.notAfter.map(normalise)),
            subjects: new Set(lex.trailingNegation.subjects.map(normalise)),
            finiteVerbs: lex.trailingNegation.finiteVerbs.map(normalise),
            tail: new Set(lex.trailingNegation.tail.map(normalise)),
          }
        : null,
    };
    compiled.set(language, c);
  }
  return c;
}

const wordMatches = (pattern: string, word: string): boolean =>
  pattern.endsWith('*') ? word.startsWith(pattern.slice(0, -1)) : word === pattern;

/** Whether `entry` matches the tokens at `at`. */
function matchesAt(entry: Entry, tokens: string[], at: number): boolean {
  if (at + entry.words.length > tokens.length) return false;
  for (let k = 0; k < entry.words.length; k += 1) if (!wordMatches(entry.words[k], tokens[at + k])) return false;
  return true;
}

/** The lowest of `candidates` (ascending indexes of `entries`) below `below` whose entry matches at `at`; else `below`. */
function earliestMatch(candidates: number[] | undefined, entries: Entry[], tokens: string[], at: number, below: number): number {
  if (candidates) {
    for (const k of candidates) {
      if (k >= below) break;
      if (matchesAt(entries[k], tokens, at)) return k;
    }
  }
  return below;
}

function indexed(entries: Entry[]): EntryIndex {
  const exact = new Map<string, number[]>();
  const prefixed = new Map<string, number[]>();
  const always: number[] = [];
  const add = (map: Map<string, number[]>, key: string, k: number) => {
    const list = map.get(key);
    if (list) list.push(k);
    else map.set(key, [k]);
  };
  entries.forEach((e, k) => {
    const head = e.words[0];
    if (head === undefined) always.push(k);
    else if (head.endsWith('*')) add(prefixed, head.slice(0, -1), k);
    else add(exact, head, k);
  });
  const prefixLengths = [...new Set([...prefixed.keys()].map((p) => p.length))];
  return {
    entries,
    first(tokens, at) {
      let best = earliestMatch(always, entries, tokens, at, entries.length);
      const token = tokens[at];
      if (token !== undefined) {
        best = earliestMatch(exact.get(token), entries, tokens, at, best);
        for (const n of prefixLengths) if (token.length >= n) best = earliestMatch(prefixed.get(token.slice(0, n)), entries, tokens, at, best);
      }
      return entries[best];
    },
  };
}

const tokensOf = (text: string): string[] => normalise(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The first character of each emoji and emoticon: a text without any of them has none (most texts; checked first). */
const EMOJI_START = new RegExp(
  `[${[...new Set(Object.keys(EMOJI).map((symbol) => [...symbol][0]))].map((c) => c.replace(/[\\\]^-]/g, '\\$&')).join('')}]`,
  'u',
);

/** Emoji and emoticons of the text, summed. */
function emojiScore(text: string): number {
  if (!EMOJI_START.test(text)) return 0;
  let sum = 0;
  for (const [symbol, weight] of Object.entries(EMOJI)) {
    let from = text.indexOf(symbol);
    while (from !== -1) {
      sum += weight;
      from = text.indexOf(symbol, from + symbol.length);
    }
  }
  return sum;
}

// ---- Clauses ---------------------------------------------------------------------------------------------------

interface Clause {
  text: string;
  tokens: string[];
  /** Token indexes with a comma, colon, bracket or quote before them: where negation after a word stops reaching back. */
  breaks: Set<number>;
  /** 1.5 after a contrast word, 1 otherwise. */
  weight: number;
}

/** Punctuation inside a clause that ends a part of it. */
const OPENS_PART = /^[("„“«[]/u;
const ENDS_PART = /[,:)"“”»\]]$/u;

/**
 * Sentences, then cut before each contrast word. Linear in the text: the contrast words are matched in place on the
 * sentence's tokens from each word on, never on a copy of the rest of the sentence (that was quadratic in its words).
 */
function clausesOf(text: string, lex: CompiledLexicon): Clause[] {
  const out: Clause[] = [];
  for (const sentence of text.split(/[.!?;\n]+|\s[-–—]\s/u)) {
    const words = sentence.split(/\s+/).filter(Boolean);
    const norm = words.map((w) => tokensOf(w));
    // The sentence's tokens, and the index of each word's first token among them.
    const tokens = norm.flat();
    const firstToken: number[] = [];
    for (let w = 0, at = 0; w < words.length; w += 1) {
      firstToken.push(at);
      at += norm[w].length;
    }
    let start = 0;
    let weight = 1;
    const flat = (from: number, to: number): string[] => norm.slice(from, to).flat();
    const clause = (from: number, to: number): Clause => {
      const breaks = new Set<number>();
      let at = 0;
      for (let w = from; w < to; w += 1) {
        if (OPENS_PART.test(words[w])) breaks.add(at);
        at += norm[w].length;
        if (ENDS_PART.test(words[w])) breaks.add(at);
      }
      return { text: words.slice(from, to).join(' '), tokens: flat(from, to), breaks, weight };
    };
    for (let i = 1; i < words.length; i += 1) {
      if (lex.contrasts.some((c) => matchesAt(c, tokens, firstToken[i]))) {
        out.push(clause(start, i));
        start = i;
        weight = 1.5;
      }
    }
    if (start < words.length) out.push(clause(start, words.length));
  }
  return out.filter((c) => c.tokens.length > 0 || emojiScore(c.text) !== 0);
}

/** How far back a negator reaches: "not very friendly", "pas du tout satisfait". */
const NEGATION_SCOPE = 3;
/** A negated opinion is weaker than its opposite ("not bad" is less than "good"). */
const NEGATED = -0.75;
/** How far back a negator after the opinion word reaches: words between them ("Ich empfehle Ihnen diese Praxis wirklich nicht"). */
const TRAILING_SCOPE = 5;
/** Words a negator after the opinion word may have after it in its part of the clause (a verb particle or infinitive: "nicht weiter", "nicht mehr empfehlen"). */
const TRAILING_TAIL = 2;

/** An opinion word or phrase found in a clause: tokens start..end (inclusive). */
interface Hit {
  start: number;
  end: number;
  weight: number;
  /** The phrase holds its own negator ("nicht empfehlenswert"): nothing turns it around again. */
  fixed: boolean;
  negated: boolean;
}

interface ClauseScore {
  /** tanh of the summed weights: -1..1. */
  score: number;
  /** Opinion words found. */
  hits: number;
}

/** Score of one clause in one language. */
function scoreClause(clause: Clause, language: Language): ClauseScore {
  const lex = compile(language);
  const { tokens } = clause;
  const consumed = new Array<boolean>(tokens.length).fill(false);
  // A negator of an idiom that negates nothing ("nicht nur") is no negator.
  for (let i = 0; i < tokens.length; i += 1) {
    const idiom = lex.notNegating.find((e) => matchesAt(e, tokens, i));
    if (idiom) for (let k = 0; k < idiom.words.length; k += 1) consumed[i + k] = true;
  }
  const negatorAt = (k: number): boolean => !consumed[k] && lex.negators.has(tokens[k]);
  const negatedAt = (at: number): boolean => {
    for (let k = Math.max(0, at - NEGATION_SCOPE); k < at; k += 1) if (negatorAt(k)) return true;
    return false;
  };
  const hits: Hit[] = [];
  let sum = 0;
  let found = 0;
  // The domain's phrases first (they may contain a negator: "no lo recomiendo").
  for (let i = 0; i < tokens.length; i += 1) {
    if (consumed[i]) continue;
    const entry = lex.entries.first(tokens, i);
    if (!entry) continue;
    const fixed = entry.words.some((w) => lex.negators.has(w));
    hits.push({ start: i, end: i + entry.words.length - 1, weight: entry.weight, fixed, negated: !fixed && negatedAt(i) });
    for (let k = 0; k < entry.words.length; k += 1) consumed[i + k] = true;
  }
  // Then the language's general lexicon on the words left.
  if (language === 'en') {
    const rest = tokens.filter((_, i) => !consumed[i]).join(' ');
    if (rest) {
      const wink = nlp().readDoc(analysable(rest)).out(nlp().its.sentiment) as unknown as number;
      if (Number.isFinite(wink) && wink !== 0) {
        sum += 1.5 * wink;
        found += 1;
      }
    }
  } else {
    const library = libraryLexicon(language);
    for (let i = 0; i < tokens.length; i += 1) {
      if (consumed[i] || lex.negators.has(tokens[i])) continue;
      const value = library.valueOf(tokens[i]);
      if (value === 0) continue;
      hits.push({ start: i, end: i, weight: value, fixed: false, negated: negatedAt(i) });
    }
  }
  if (lex.trailing) negateBackwards(clause, lex.trailing, hits, negatorAt);
  for (const hit of hits) sum += hit.negated ? NEGATED * hit.weight : hit.weight;
  found += hits.length;
  const emoji = emojiScore(clause.text);
  if (emoji !== 0) {
    sum += emoji;
    found += 1;
  }
  return { score: Math.tanh(sum), hits: found };
}

/**
 * Negation after the opinion word (German: "Ich empfehle diese Praxis nicht", "Empfehlenswert ist das nicht"): a
 * trailing negator that negates nothing after it and ends its part of the clause (followed, before a comma, "und",
 * "aber", "sondern", ... or the clause's end, by at most TRAILING_TAIL words of the lexicon's `tail`: "nicht weiter")
 * turns around the nearest opinion word before
 * it in that part, at most TRAILING_SCOPE words back, unless that one is negated already or holds its own negator, or
 * a subject pronoun between them starts a new clause (not after a finite verb: "Sehr freundlich ich musste nicht warten").
 */
function negateBackwards(clause: Clause, rules: NonNullable<CompiledLexicon['trailing']>, hits: Hit[], negatorAt: (k: number) => boolean): void {
  const { tokens, breaks } = clause;
  const part: number[] = [];
  let n = 0;
  for (let i = 0; i < tokens.length; i += 1) {
    const stop = rules.stops.has(tokens[i]);
    // A stop word is a part of its own: neither the words before it nor itself ("leider") are what follows negates.
    if (breaks.has(i) || stop) n += 1;
    part.push(n);
    if (stop) n += 1;
  }
  // Each negator looks at a few tokens around it only: the hits are found by where they start and end, not searched.
  const starts = new Set(hits.map((h) => h.start));
  const endingAt = new Map<number, Hit[]>();
  for (const h of hits) {
    const list = endingAt.get(h.end);
    if (list) list.push(h);
    else endingAt.set(h.end, [h]);
  }
  for (let k = 0; k < tokens.length; k += 1) {
    if (!negatorAt(k) || !rules.negators.has(tokens[k])) continue;
    if (k > 0 && rules.notAfter.has(tokens[k - 1])) continue;
    // A negator with an opinion word within reach after it negates that one ("nicht gut", "nicht zu empfehlen").
    let opinionAfter = false;
    for (let j = k + 1; j <= k + NEGATION_SCOPE && !opinionAfter; j += 1) opinionAfter = starts.has(j);
    if (opinionAfter) continue;
    let tail = 0;
    let ends = true;
    for (let j = k + 1; j < tokens.length && part[j] === part[k] && tail <= TRAILING_TAIL; j += 1) {
      tail += 1;
      if (!rules.tail.has(tokens[j])) ends = false;
    }
    if (tail > TRAILING_TAIL || !ends) continue;
    // The opinion word ending nearest before the negator in its part, at most TRAILING_SCOPE words between them.
    let nearest: Hit | null = null;
    for (let end = k - 1; end >= k - 1 - TRAILING_SCOPE && end >= 0 && !nearest; end -= 1) {
      nearest = endingAt.get(end)?.find((h) => part[h.start] === part[k]) ?? null;
    }
    if (!nearest || nearest.negated || nearest.fixed) continue;
    const runOn = (j: number): boolean => rules.subjects.has(tokens[j]) && !rules.finiteVerbs.some((v) => wordMatches(v, tokens[j - 1]));
    let newClause = false;
    for (let j = nearest.end + 1; j < k && !newClause; j += 1) newClause = runOn(j);
    if (!newClause) nearest.negated = true;
  }
}

/** Opinion words of a text in one language: how a short text's language is guessed. */
function hitsIn(text: string, language: Language): number {
  const lex = compile(language);
  return clausesOf(text, lex).reduce((n, c) => n + scoreClause(c, language).hits, 0);
}

/** Weight of the detector's first, second and third guess when it hesitates... */
const GUESS_WEIGHT = [2, 1, 0.5];
/** ...against each phrase of a language's review-domain lexicon found in the text (general lexicons share too many stems across languages to tell them apart). */
const PHRASE_WEIGHT = 1.5;

/** Phrases of the language's review-domain lexicon in a text. */
function phrasesIn(text: string, language: Language): number {
  const lex = compile(language);
  const tokens = tokensOf(text);
  let n = 0;
  for (let i = 0; i < tokens.length; i += 1) {
    const entry = lex.entries.first(tokens, i);
    if (entry) {
      n += 1;
      i += entry.words.length - 1;
    }
  }
  return n;
}

/**
 * The supported language a text is read in. A clear detection decides (between close guesses, the lexicon that
 * knows most of the words; a language outside the six is read in English). When the detector hesitates or the text
 * is too short, each of the six scores the phrases of its review-domain lexicon in the text plus the weight of the
 * detector's guess for it.
 */
function readingLanguage(text: string, detection: Detection): Language {
  if (detection.confident) {
    const pool = detection.guesses.filter(isLanguage);
    if (pool.length <= 1) return pool[0] ?? 'en';
    let best: Language = pool[0];
    let most = 0;
    for (const language of pool) {
      const hits = hitsIn(text, language);
      if (hits > most) [best, most] = [language, hits];
    }
    return best;
  }
  let best: Language = 'en';
  let top = 0;
  for (const language of LANGUAGES) {
    const rank = detection.guesses.indexOf(language);
    const score = PHRASE_WEIGHT * phrasesIn(text, language) + (rank === -1 ? 0 : GUESS_WEIGHT[rank]);
    if (score > top) [best, top] = [language, score];
  }
  return best;
}

export interface TextReading {
  /** -1..1; 0 for text without opinion words. */
  score: number;
  hits: number;
  language: Language;
  clauses: { clause: Clause; score: ClauseScore }[];
}

/** Reads a text: its language, its clauses and their scores, and the text's score. */
export function readText(text: string, detection: Detection = detectLanguage(text)): TextReading {
  const read = analysable(text);
  const language = readingLanguage(read, detection);
  const clauses = clausesOf(read, compile(language)).map((clause) => ({ clause, score: scoreClause(clause, language) }));
  let weighted = 0;
  let weights = 0;
  let hits = 0;
  for (const { clause, score } of clauses) {
    if (score.hits === 0) continue;
    weighted += clause.weight * score.score;
    weights += clause.weight;
    hits += score.hits;
  }
  return { score: weights ? clamp(weighted / weights) : 0, hits, language, clauses };
}

/** Score of any text in -1..1 (0 for text without opinion words). */
export function textScore(text: string): number {
  return text.trim() ? readText(text).score : 0;
}

/**
 * Combines the text's score with the rating's prior: the sentiment, its score and the reason. `canOutweigh` false (a
 * text in a language outside the six, read with the English lexicons) never lets the text decide against the stars:
 * a foreign word that happens to be an English one ("twee" in Dutch) is no clear reading.
 */
export function withRating(text: { score: number; hits: number }, rating: number, canOutweigh = true): { score: number; reason: SentimentReason } {
  const prior = clamp((rating - 3) / 2);
  if (text.hits === 0) return { score: prior, reason: 'rating' };
  const textSide = classify(text.score);
  const priorSide = classify(prior);
  const clear = canOutweigh && Math.abs(text.score) >= CLEAR_TEXT;
  if (prior === 0) {
    // Three stars lean nowhere: a clear text decides, a lukewarm one stays neutral (kept inside the neutral band).
    return clear ? { score: text.score, reason: 'text' } : { score: text.score / 25, reason: 'rating_outweighs_text' };
  }
  if (textSide === priorSide || textSide === 'neutral') {
    // Both lean the same way (or the text does not lean): the mean, kept on the rating's side.
    const mean = (prior + text.score) / 2;
    return { score: classify(mean) === priorSide ? mean : prior / 2, reason: 'text_and_rating' };
  }
  if (clear) return { score: text.score, reason: 'text_outweighs_rating' };
  return { score: prior / 2 + text.score / 4, reason: 'rating_outweighs_text' };
}

/** An amount of money names the price in any language: "$380", "22€", "R$ 250", "£45". */
const MONEY = /[$€£]\s?\d|\d\s?[$€£]|\b\d+\s?(?:eur|euros?|dollars?|reais)\b/iu;

function aspectsOf(reading: TextReading, overall: Sentiment): AspectSentiments {
  const lex = compile(reading.language);
  const sums = new Map<Aspect, number>();
  for (const { clause, score } of reading.clauses) {
    for (const [aspect, words] of lex.aspects) {
      const named =
        (aspect === 'price' && MONEY.test(clause.text)) || clause.tokens.some((_, i) => words.first(clause.tokens, i) !== undefined);
      if (named) sums.set(aspect, (sums.get(aspect) ?? 0) + (score.hits ? score.score : 0));
    }
  }
  const out: AspectSentiments = {};
  for (const aspect of ASPECTS) {
    const sum = sums.get(aspect);
    if (sum === undefined) continue;
    out[aspect] = sum === 0 ? overall : classify(sum);
  }
  return out;
}

/**
 * The language stored with a review: the one it was read in when the detector guessed it or the lexicons knew its
 * words; else the detector's best guess (a language outside the six, read in English); null without words to tell.
 */
function recordedLanguage(detection: Detection, reading: { hits: number; language: Language }): string | null {
  if (detection.guesses.includes(reading.language) && (detection.confident || detection.guesses[0] === reading.language || reading.hits > 0)) {
    return reading.language;
  }
  if (!detection.confident && reading.hits > 0) return reading.language;
  return detection.guesses[0] ?? null;
}

/** Sentiment of one review: language, text, rating as a prior, aspects. */
export function reviewSentiment(review: { title?: string | null; message?: string | null; rating: number }): SentimentResult {
  // Everything below reads the analysable part only: a message of any length costs the same bounded work.
  const text = analysable(reviewText(review.title, review.message));
  // Text without letters ("", "...") says nothing; emoji alone still do (they score).
  const hasWords = /\p{L}/u.test(text);
  const detection: Detection = hasWords ? detectLanguage(text) : { guesses: [], confident: false };
  const reading = text ? readText(text, detection) : { score: 0, hits: 0, language: 'en' as Language, clauses: [] };
  // Emoji are read (with the English lexicons' rules), but a text without letters has no language to record.
  const language = hasWords ? recordedLanguage(detection, reading) : null;
  // A language outside the six is read with the English lexicons (the fallback): their hits may be chance, so the
  // stars stay the prior the text cannot overturn.
  const { score, reason } = withRating(reading, review.rating, language === null || isLanguage(language));
  const rounded = round3(score);
  const sentiment = classify(rounded);
  return {
    sentiment,
    score: rounded,
    language,
    reason,
    aspects: aspectsOf(reading, sentiment),
  };
}
