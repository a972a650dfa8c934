import { detectLanguage, MAX_DETECTED_CHARS, readText, reviewSentiment, type Detection } from '../../src/analytics/sentiment';
import { analysable, MAX_ANALYSED_CHARS } from '../../src/analytics/nlp';

// The detector as it is, with its calls recorded: what the analyser hands it is the work it asks of it.
jest.mock('tinyld', () => {
  const actual = jest.requireActual<typeof import('tinyld')>('tinyld');
  return { ...actual, detectAll: jest.fn((text: string) => actual.detectAll(text)) };
});
// eslint-disable-next-line @typescript-eslint/no-require-imports
const detectAll = (require('tinyld') as { detectAll: jest.Mock }).detectAll;

/** English review sentences, repeated to `chars` characters or more. */
const english = (chars: number): string => {
  const sentences = [
    'The dentist was friendly and explained every step of the treatment.',
    'Booking was easy and the reception staff were helpful.',
    'The waiting room was clean and the wait was short.',
    'Prices are fair for the quality of the work.',
  ];
  let text = '';
  for (let i = 0; text.length < chars; i += 1) text += `${sentences[i % sentences.length]} `;
  return text;
};

/** German words without punctuation: one long chunk the detector would weigh most, and opinion words in German. */
const germanRunOn = (words: number): string =>
  Array.from({ length: words }, (_, i) => ['sehr', 'unfreundlich', 'und', 'teuer', 'ich', 'empfehle', 'diese', 'Praxis', 'nicht', 'weiter'][i % 10]).join(' ');

// Issue 14 and the review-write DoS (bounded work per request): a review message may be a megabyte (the body limit);
// the analysis of any text reads a bounded part of it, in time linear in that part.
describe('sentiment analysis of long texts', () => {
  beforeEach(() => detectAll.mockClear());

  it('hands the language detector at most MAX_DETECTED_CHARS (2,000) of a text: the start of its analysable part, whole words', () => {
    const messages = ['a '.repeat(10_000), 'ab'.repeat(500_000), english(100_000), `${english(1_990)}${'x'.repeat(60)} ${english(5_000)}`];
    for (const message of messages) {
      reviewSentiment({ message, rating: 4 });
      const read = analysable(message);
      for (const [text] of detectAll.mock.calls as [string][]) {
        expect(text.length).toBeLessThanOrEqual(2_000);
        expect(read.startsWith(text)).toBe(true);
        // Ends at a whole word: the analysable part goes on with a space, or ends there.
        expect(read.length === text.length || /\s/.test(read[text.length]) || /\s$/.test(text)).toBe(true);
      }
      detectAll.mockClear();
    }
    expect(MAX_DETECTED_CHARS).toBe(2_000);
  });

  it('detects the language from the first MAX_DETECTED_CHARS: a long tail in another language changes nothing', () => {
    const head = english(MAX_DETECTED_CHARS);
    const tail = germanRunOn(2_000);
    expect((head + tail).length).toBeLessThan(MAX_ANALYSED_CHARS);
    expect(detectLanguage(head + tail)).toEqual(detectLanguage(head));
    expect(detectLanguage(head + tail).guesses[0]).toBe('en');
    expect(reviewSentiment({ message: head + tail, rating: 5 }).language).toBe('en');
  });

  it('reads a review the same whatever follows its analysable part', () => {
    const head = english(MAX_ANALYSED_CHARS);
    const cut = head.slice(0, MAX_ANALYSED_CHARS);
    for (const rating of [1, 3, 5]) {
      const expected = reviewSentiment({ message: cut, rating });
      expect(expected.language).toBe('en');
      for (const tail of [germanRunOn(50_000), 'a '.repeat(10_000), 'ab'.repeat(500_000), ' Terrible, rude, never again! 👎'.repeat(1_000)]) {
        expect(reviewSentiment({ message: head + tail, rating })).toEqual(expected);
        expect(reviewSentiment({ title: 'Great practice', message: head + tail, rating })).toEqual(
          reviewSentiment({ title: 'Great practice', message: cut, rating }),
        );
      }
    }
    // The reviewer's DoS messages: no opinion word in their analysable part, so the stars decide.
    expect(reviewSentiment({ message: 'a '.repeat(10_000), rating: 2 })).toEqual(reviewSentiment({ message: 'a '.repeat(MAX_ANALYSED_CHARS / 2), rating: 2 }));
    expect(reviewSentiment({ message: 'a '.repeat(10_000), rating: 2 })).toMatchObject({ sentiment: 'negative', reason: 'rating', language: null });
    expect(reviewSentiment({ message: 'ab'.repeat(500_000), rating: 4 })).toEqual(reviewSentiment({ message: analysable('ab'.repeat(500_000)), rating: 4 }));
  });

  it('cuts clauses at contrast words as before', () => {
    const clauses = (text: string, language: string) =>
      readText(text, { guesses: [language], confident: true }).clauses.map(({ clause }) => [clause.text, clause.weight]);
    expect(clauses('Good food but slow service.', 'en')).toEqual([['Good food', 1], ['but slow service', 1.5]]);
    // A contrast word opening the sentence cuts nothing; a later one does.
    expect(clauses('But the staff were lovely, however the wait was long.', 'en')).toEqual([
      ['But the staff were lovely,', 1],
      ['however the wait was long', 1.5],
    ]);
    // A word without letters before a contrast word (it is matched with the words after it); each sentence anew.
    expect(clauses('Nice staff 😀 but slow. Clean rooms, though pricey!', 'en')).toEqual([
      ['Nice staff', 1],
      ['😀', 1.5],
      ['but slow', 1.5],
      ['Clean rooms,', 1],
      ['though pricey', 1.5],
    ]);
    expect(clauses('Good, but', 'en')).toEqual([['Good,', 1], ['but', 1.5]]);
    // Contrast words of two words.
    expect(clauses('La comida muy buena, sin embargo el servicio lento.', 'es')).toEqual([['La comida muy buena,', 1], ['sin embargo el servicio lento', 1.5]]);
    expect(clauses('Personnel aimable, par contre attente longue. Bien que cher, je reviendrai.', 'fr')).toEqual([
      ['Personnel aimable,', 1],
      ['par contre attente longue', 1.5],
      ['Bien que cher, je reviendrai', 1],
    ]);
    expect(clauses('Atendimento bom, so que demorado.', 'pt')).toEqual([['Atendimento bom,', 1], ['so que demorado', 1.5]]);
    expect(clauses('Sehr nett, aber leider teuer.', 'de')).toEqual([['Sehr nett,', 1], ['aber', 1.5], ['leider teuer', 1.5]]);
  });

  it('finds the contrast words of a long sentence without copying the rest of the sentence at each word', () => {
    // Work counted, not timed: the tokens the clause cutter flattens. Copying the rest of the sentence at each word
    // flattened words * words / 2 of them (10,000 words: 50 million, 14 s).
    const words = 3_000;
    const sentence = 'good food but slow service '.repeat(words / 5);
    expect(sentence.length).toBeLessThan(MAX_ANALYSED_CHARS);
    const en: Detection = { guesses: ['en'], confident: true };
    const realFlat = Array.prototype.flat;
    let flattened = 0;
    const spy = jest.spyOn(Array.prototype, 'flat').mockImplementation(function (this: unknown[], ...args: unknown[]) {
      flattened += this.length;
      return realFlat.apply(this, args as [number?]);
    });
    let reading;
    try {
      reading = readText(sentence, en);
    } finally {
      spy.mockRestore();
    }
    // A clause before the first "but" and one from each "but".
    expect(reading.clauses).toHaveLength(words / 5 + 1);
    expect(reading.clauses.slice(0, 3).map(({ clause }) => [clause.text, clause.weight])).toEqual([
      ['good food', 1],
      ['but slow service good food', 1.5],
      ['but slow service good food', 1.5],
    ]);
    expect(flattened).toBeLessThanOrEqual(3 * words);
  });
});
