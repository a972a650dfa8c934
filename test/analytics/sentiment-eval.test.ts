import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ASPECTS, LANGUAGES, reviewSentiment, type Sentiment } from '../../src/analytics/sentiment';

/**
 * Issue 19: sentiment a person would agree with, in six languages. Two labelled sets written by the team
 * (test/fixtures): `sentiment-eval.json` (360 reviews, 60 per language, with hard cases: negation, mixed reviews,
 * polite complaints, wrong-star clicks, sarcasm; plus de-061..de-068, German negation after the verb) and `sentiment-holdout.json` (150 reviews of other trades, written
 * separately after the analyser was built). The bar is 85 % agreement on polarity on each; the accuracy per
 * language and the aspects' recall and agreement are printed with the run.
 */
interface Labelled {
  id: string;
  language: string;
  rating: number;
  title: string | null;
  message: string;
  polarity: Sentiment;
  aspects: Partial<Record<(typeof ASPECTS)[number], Sentiment>>;
}

const load = (file: string): Labelled[] => JSON.parse(readFileSync(path.join(__dirname, '..', 'fixtures', file), 'utf8')) as Labelled[];

const BAR = 0.85;

function evaluate(rows: Labelled[]) {
  const perLanguage = new Map<string, { right: number; total: number }>();
  let right = 0;
  let languageRight = 0;
  let aspectsLabelled = 0;
  let aspectsFound = 0;
  let aspectsAgreeing = 0;
  const misses: string[] = [];
  for (const row of rows) {
    const got = reviewSentiment(row);
    const ok = got.sentiment === row.polarity;
    right += ok ? 1 : 0;
    const lang = perLanguage.get(row.language) ?? { right: 0, total: 0 };
    lang.right += ok ? 1 : 0;
    lang.total += 1;
    perLanguage.set(row.language, lang);
    if (got.language === row.language) languageRight += 1;
    if (!ok) misses.push(`${row.id} ${row.rating}* ${row.polarity} -> ${got.sentiment} (${got.reason}): ${row.message.slice(0, 90)}`);
    for (const [aspect, polarity] of Object.entries(row.aspects)) {
      aspectsLabelled += 1;
      const found = got.aspects[aspect as (typeof ASPECTS)[number]];
      if (found) aspectsFound += 1;
      if (found === polarity) aspectsAgreeing += 1;
    }
  }
  return { right, total: rows.length, perLanguage, languageRight, aspectsLabelled, aspectsFound, aspectsAgreeing, misses };
}

const pct = (a: number, b: number): string => `${((a / b) * 100).toFixed(1)}%`;

// The evaluation set is at least 300 reviews over the six languages; the holdout is the smaller second set.
const MINIMUM: Record<string, number> = { 'sentiment-eval.json': 300, 'sentiment-holdout.json': 150 };

describe.each([['sentiment-eval.json'], ['sentiment-holdout.json']])('labelled reviews in six languages (%s)', (file) => {
  const rows = load(file);
  const result = evaluate(rows);

  it('covers the six languages evenly, each class, and names each aspect somewhere', () => {
    expect(new Set(rows.map((r) => r.language))).toEqual(new Set(LANGUAGES));
    for (const label of ['positive', 'neutral', 'negative']) expect(rows.some((r) => r.polarity === label)).toBe(true);
    expect(rows.length).toBeGreaterThanOrEqual(MINIMUM[file]);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    // No language carried by the others: each holds at least a sixth of the minimum.
    for (const language of LANGUAGES) expect({ language, enough: rows.filter((r) => r.language === language).length >= MINIMUM[file] / 6 }).toEqual({ language, enough: true });
    for (const aspect of ASPECTS) expect({ aspect, named: rows.some((r) => aspect in r.aspects) }).toEqual({ aspect, named: true });
  });

  it(`agrees with the labels on polarity at least ${BAR * 100} % of the time, overall and in each language`, () => {
    const lines = [...result.perLanguage].map(([lang, r]) => `${lang} ${pct(r.right, r.total)}`);
    console.info(
      `${file}: polarity ${pct(result.right, result.total)} of ${result.total} (${lines.join(', ')}); language detected ${pct(result.languageRight, result.total)}; ` +
        `aspects found ${pct(result.aspectsFound, result.aspectsLabelled)} of ${result.aspectsLabelled}, polarity agreeing ${pct(result.aspectsAgreeing, result.aspectsLabelled)}\n` +
        result.misses.join('\n'),
    );
    expect(result.right / result.total).toBeGreaterThanOrEqual(BAR);
    for (const [, r] of result.perLanguage) expect(r.right / r.total).toBeGreaterThanOrEqual(0.75);
  });

  it('detects the language of nearly every review', () => {
    expect(result.languageRight / result.total).toBeGreaterThanOrEqual(0.9);
  });

  it('never calls a 1- or 2-star review positive without a clear text, and says so', () => {
    for (const row of rows.filter((r) => r.rating <= 2)) {
      const got = reviewSentiment(row);
      if (got.sentiment === 'positive') expect(got.reason).toBe('text_outweighs_rating');
    }
  });
});
