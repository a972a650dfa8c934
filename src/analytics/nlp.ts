import type { Model } from 'wink-nlp';
import winkNLP from 'wink-nlp';

/**
 * The one English NLP pipeline (wink-nlp with its light web model: tokens, sentences, part of speech, lemmas,
 * stop words, negation and sentiment). The model is required on first use, not on import: loading it takes about
 * 0.1 s, and every process that imports the Review model would pay it otherwise.
 */
let instance: ReturnType<typeof winkNLP> | null = null;

export function nlp(): ReturnType<typeof winkNLP> {
  if (!instance) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const model = require('wink-eng-lite-web-model') as Model;
    instance = winkNLP(model);
  }
  return instance;
}

/** Characters of one text the pipeline reads: a review's words are in its first few thousand characters. */
export const MAX_ANALYSED_CHARS = 20_000;
/** Longest run without a space the pipeline reads whole (longer runs are no word, and cost it quadratic time). */
export const MAX_WORD_CHARS = 64;

/**
 * The part of a text the pipeline may read: at most MAX_ANALYSED_CHARS, and no run of more than MAX_WORD_CHARS
 * characters without whitespace (cut to its first MAX_WORD_CHARS). wink-nlp's tokenizer takes time quadratic in the
 * length of one such run (measured: 40,000 characters 1.2 s, 160,000 characters 20 s), and a review message of a
 * million characters without a space is accepted by the API, so every text goes through here before `readDoc`.
 */
export function analysable(text: string): string {
  const head = text.length > MAX_ANALYSED_CHARS ? text.slice(0, MAX_ANALYSED_CHARS) : text;
  return head.replace(new RegExp(`\\S{${MAX_WORD_CHARS + 1},}`, 'gu'), (run) => run.slice(0, MAX_WORD_CHARS));
}
