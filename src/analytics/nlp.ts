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
