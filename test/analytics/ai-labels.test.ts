import { labelBatch, labelMessages, outcomesFromAnswer, type LabelReview } from '../../src/analytics/ai-labels';
import { reviewSentiment } from '../../src/analytics/sentiment';
import { completion, startChatServer } from '../support/providers/ai';

/**
 * Issue 19, item 1: "with the AI provider configured (AI_API_URL), the model's labels, falling back to the local
 * ones". The labels of a batch come from one chat call; each review's label is taken only when it is valid and does
 * not contradict the stars without the text's reason; otherwise the review keeps its local reading.
 */
const REVIEWS: LabelReview[] = [
  { id: 11, rating: 5, title: null, message: 'The staff were friendly and the wait was short.' },
  { id: 12, rating: 3, title: null, message: 'Servizio nella media, prezzi normali.' },
  { id: 13, rating: 1, title: null, message: 'The wait time was terrible, over an hour.' },
  { id: 14, rating: 1, title: null, message: 'Une équipe formidable, merci infiniment pour tout ! Je recommande vivement.' },
];

const label = (id: number, polarity: string, language: string | null, aspects: Record<string, string> = {}) => ({ id, polarity, language, aspects });
const answer = (labels: unknown[]) => JSON.stringify({ labels });

describe('AI sentiment labels (src/analytics/ai-labels.ts)', () => {
  describe('deciding each review from the answer', () => {
    it('takes valid labels: polarity, language and aspects, with a score and reason that agree', () => {
      const { failed, outcomes } = outcomesFromAnswer(REVIEWS.slice(0, 2), answer([
        label(11, 'positive', 'en', { staff: 'positive', wait_time: 'positive' }),
        label(12, 'negative', 'it', { price: 'negative' }),
      ]));
      expect(failed).toBeNull();
      const local11 = reviewSentiment(REVIEWS[0]);
      // Same polarity as the analyser: its score and reason stay; the aspects are the model's.
      expect(outcomes[0]).toEqual({
        id: 11,
        source: 'ai',
        result: { ...local11, language: 'en', aspects: { staff: 'positive', wait_time: 'positive' } },
      });
      // A 3-star review the model reads as negative: negative, score in the band, reason `text`.
      expect(reviewSentiment(REVIEWS[1]).sentiment).toBe('neutral');
      expect(outcomes[1]).toEqual({
        id: 12,
        source: 'ai',
        result: { sentiment: 'negative', score: -0.5, language: 'it', reason: 'text', aspects: { price: 'negative' } },
      });
    });

    it('keeps a 1-star complaint negative when the model calls it positive, and takes a clearly warm 1-star text', () => {
      const { outcomes } = outcomesFromAnswer(REVIEWS.slice(2), answer([label(13, 'positive', 'en', { wait_time: 'positive' }), label(14, 'positive', 'fr', { staff: 'positive' })]));
      expect(outcomes[0]).toEqual({ id: 13, source: 'local', result: reviewSentiment(REVIEWS[2]), refused: 'contradicts_rating' });
      expect(outcomes[0].result.sentiment).toBe('negative');
      // The analyser reads this one as clearly positive too (text_outweighs_rating): the model may say so.
      expect(outcomes[1]).toMatchObject({ id: 14, source: 'ai', result: { sentiment: 'positive', reason: 'text_outweighs_rating', language: 'fr', aspects: { staff: 'positive' } } });
    });

    it('falls back for the whole batch on an answer that is not the labels JSON', () => {
      for (const garbled of ['Sure! Here are the labels.', '{"labels": "none"}', '[1, 2]', '{"labels": [']) {
        const { failed, outcomes } = outcomesFromAnswer(REVIEWS, garbled);
        expect(failed?.kind).toBe('bad_json');
        expect(outcomes.map((o) => o.source)).toEqual(['local', 'local', 'local', 'local']);
        expect(outcomes.map((o) => o.result)).toEqual(REVIEWS.map((r) => reviewSentiment(r)));
      }
    });

    it('falls back per review on an unknown id, a missing, invalid or duplicated label', () => {
      const { failed, outcomes } = outcomesFromAnswer(REVIEWS, answer([
        label(999, 'negative', 'en'), // not in the batch: ignored
        label(11, 'great', 'en'), // not a polarity
        label(12, 'negative', 'italian'), // not ISO 639-1
        { ...label(12, 'negative', 'it'), confidence: 0.9 }, // an extra key, and a second label for 12
        label(14, 'positive', 'fr', { parking: 'negative' }), // not an aspect
      ]));
      expect(failed).toBeNull();
      expect(outcomes.map((o) => (o.source === 'local' ? o.refused : 'ai'))).toEqual(['invalid', 'duplicate', 'missing', 'invalid']);
      expect(outcomes.map((o) => o.result)).toEqual(REVIEWS.map((r) => reviewSentiment(r)));
    });

    it('reads an answer in a code fence, string ids and null aspects', () => {
      const fenced = '```json\n' + answer([{ id: '11', polarity: 'neutral', language: 'EN', aspects: { staff: null, wait_time: 'neutral' } }]) + '\n```';
      const { outcomes } = outcomesFromAnswer([REVIEWS[0]], fenced);
      // Five stars, a text the model reads as neutral: neutral, and the text decided.
      expect(outcomes[0]).toEqual({ id: 11, source: 'ai', result: { sentiment: 'neutral', score: 0, language: 'en', reason: 'text_outweighs_rating', aspects: { wait_time: 'neutral' } } });
    });
  });

  describe('one chat call per batch (a local server speaking the chat completions wire format)', () => {
    let server: Awaited<ReturnType<typeof startChatServer>>;
    const saved = process.env.AI_API_URL;
    beforeAll(async () => {
      server = await startChatServer();
      process.env.AI_API_URL = server.url;
    });
    afterAll(async () => {
      if (saved === undefined) delete process.env.AI_API_URL;
      else process.env.AI_API_URL = saved;
      await server.close();
    });

    it('sends every review of the batch (id, rating, text) and asks for JSON only', async () => {
      server.requests.length = 0;
      server.answer(completion(answer([label(11, 'positive', 'en'), label(13, 'negative', 'en', { wait_time: 'negative' })])));
      const { failed, outcomes } = await labelBatch([REVIEWS[0], REVIEWS[2]]);
      expect(failed).toBeNull();
      expect(outcomes.map((o) => o.source)).toEqual(['ai', 'ai']);
      expect(server.requests).toHaveLength(1);
      const [system, user] = server.requests[0].body.messages!;
      expect(system.content).toMatch(/one JSON object and nothing else/);
      expect(JSON.parse(user.content)).toEqual({
        reviews: [
          { id: 11, rating: 5, text: REVIEWS[0].message },
          { id: 13, rating: 1, text: REVIEWS[2].message },
        ],
      });
      expect(server.requests[0].body.temperature).toBe(0);
      expect(labelMessages([REVIEWS[0]])[1].content).toBe(JSON.stringify({ reviews: [{ id: 11, rating: 5, text: REVIEWS[0].message }] }));
    });

    it('falls back to the local labels when the call fails', async () => {
      server.answer({ status: 503, body: { error: { message: 'overloaded' } } });
      const { failed, outcomes } = await labelBatch(REVIEWS);
      expect(failed).toMatchObject({ kind: 'http' });
      expect(outcomes.every((o) => o.source === 'local')).toBe(true);
      expect(outcomes.map((o) => o.result)).toEqual(REVIEWS.map((r) => reviewSentiment(r)));
    });
  });
});
