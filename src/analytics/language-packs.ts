import type { Language } from './lexicon';

/**
 * The general sentiment lexicons of the @nlpjs language packs (Spanish and German SentiCon, French and Italian
 * Pattern, Portuguese AFINN), with each pack's stemmer: the words a review shares with any other text. Loaded on
 * first use per language. The packs ship no type declarations; the part used here is typed below.
 */

interface Stemmer {
  stemWord(word: string): string;
}

interface SentimentPack {
  senticon?: Record<string, number>;
  pattern?: Record<string, number>;
  afinn?: Record<string, number>;
  stemmed?: boolean;
}

interface LanguagePack {
  stemmer: new () => Stemmer;
  sentiment: SentimentPack;
}

/* eslint-disable @typescript-eslint/no-require-imports */
const PACKS: Record<Exclude<Language, 'en'>, () => LanguagePack> = {
  es: () => {
    const m = require('@nlpjs/lang-es') as { StemmerEs: new () => Stemmer; SentimentEs: SentimentPack };
    return { stemmer: m.StemmerEs, sentiment: m.SentimentEs };
  },
  fr: () => {
    const m = require('@nlpjs/lang-fr') as { StemmerFr: new () => Stemmer; SentimentFr: SentimentPack };
    return { stemmer: m.StemmerFr, sentiment: m.SentimentFr };
  },
  de: () => {
    const m = require('@nlpjs/lang-de') as { StemmerDe: new () => Stemmer; SentimentDe: SentimentPack };
    return { stemmer: m.StemmerDe, sentiment: m.SentimentDe };
  },
  pt: () => {
    const m = require('@nlpjs/lang-pt') as { StemmerPt: new () => Stemmer; SentimentPt: SentimentPack };
    return { stemmer: m.StemmerPt, sentiment: m.SentimentPt };
  },
  it: () => {
    const m = require('@nlpjs/lang-it') as { StemmerIt: new () => Stemmer; SentimentIt: SentimentPack };
    return { stemmer: m.StemmerIt, sentiment: m.SentimentIt };
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */

export interface LibraryLexicon {
  /** The word's valence in -1..1 (0 when the lexicon does not know it). */
  valueOf(word: string): number;
}

const loaded = new Map<Language, LibraryLexicon>();

/** The library lexicon of a language other than English (English is read by wink-nlp). */
export function libraryLexicon(language: Exclude<Language, 'en'>): LibraryLexicon {
  let lex = loaded.get(language);
  if (!lex) {
    const pack = PACKS[language]();
    const { sentiment } = pack;
    // AFINN is in -5..5; SentiCon and Pattern in -1..1.
    const [dictionary, scale] = sentiment.senticon
      ? [sentiment.senticon, 1]
      : sentiment.pattern
        ? [sentiment.pattern, 1]
        : [sentiment.afinn ?? {}, 5];
    const stemmer = new pack.stemmer();
    const stemmed = sentiment.stemmed !== false;
    const cache = new Map<string, number>();
    lex = {
      valueOf(word: string): number {
        let v = cache.get(word);
        if (v === undefined) {
          const key = stemmed ? stemmer.stemWord(word) : word;
          v = (dictionary[key] ?? 0) / scale;
          if (cache.size < 50_000) cache.set(word, v);
        }
        return v;
      },
    };
    loaded.set(language, lex);
  }
  return lex;
}
