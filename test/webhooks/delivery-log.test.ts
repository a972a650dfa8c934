import {
  decodeFirstBytes,
  EXCERPT_BYTES,
  firstBytes,
  loggedHeaders,
  MAX_HEADER_NAME_CHARS,
  MAX_HEADER_VALUE_CHARS,
  MAX_LOGGED_HEADERS,
  readExcerpt,
} from '../../src/webhooks/delivery-log';

/** The bounds of what the delivery log keeps of an attempt (docs/decisions/webhooks.md, "Delivery log: headers and the first KB"). */
describe('webhook delivery log bounds', () => {
  describe('loggedHeaders', () => {
    it('lower-cases names and joins a repeated header with ", "', () => {
      expect(loggedHeaders([['Content-Type', 'text/plain'], ['set-cookie', 'a=1'], ['Set-Cookie', 'b=2']])).toEqual({ 'content-type': 'text/plain', 'set-cookie': 'a=1, b=2' });
    });

    it(`keeps the first ${MAX_LOGGED_HEADERS} names, names cut to ${MAX_HEADER_NAME_CHARS} and values to ${MAX_HEADER_VALUE_CHARS} characters`, () => {
      const many = Array.from({ length: 70 }, (_, i) => [`x-${String(i).padStart(2, '0')}`, 'v'] as const);
      const kept = loggedHeaders([...many, ['x-00', 'again'], ['n'.repeat(300), 'w'.repeat(2000)]]);
      expect(Object.keys(kept)).toEqual(many.slice(0, MAX_LOGGED_HEADERS).map(([n]) => n));
      expect(kept['x-00']).toBe('v, again'); // a name already kept still gathers its repeats
      expect(loggedHeaders([['n'.repeat(300), 'w'.repeat(2000)]])).toEqual({ ['n'.repeat(MAX_HEADER_NAME_CHARS)]: 'w'.repeat(MAX_HEADER_VALUE_CHARS) });
    });

    it('keeps a header named __proto__ as a header', () => {
      const kept = loggedHeaders([['__proto__', 'x']]);
      expect(Object.keys(kept)).toEqual(['__proto__']);
      expect(JSON.parse(JSON.stringify(kept))).toEqual(kept);
    });
  });

  describe('the first KB', () => {
    it('cuts at 1024 bytes of UTF-8, never inside a character', () => {
      expect(firstBytes('x'.repeat(5000))).toBe('x'.repeat(EXCERPT_BYTES));
      expect(firstBytes(`a${'€'.repeat(400)}`)).toBe(`a${'€'.repeat(341)}`); // 1 + 341 x 3 = 1024 exactly
      expect(firstBytes(`ab${'€'.repeat(400)}`)).toBe(`ab${'€'.repeat(340)}`); // the 342nd euro would end at byte 1025
      expect(firstBytes(`abc${'😀'.repeat(300)}`)).toBe(`abc${'😀'.repeat(255)}`); // 3 + 255 x 4 = 1023
      expect(firstBytes('short é')).toBe('short é');
    });

    it('shows bytes that are not UTF-8 as U+FFFD, within the 1024 bytes read', () => {
      const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.alloc(2000, 0x41)]);
      expect(decodeFirstBytes(bytes)).toBe(`\uFFFD\uFFFD${'A'.repeat(EXCERPT_BYTES - 2)}`);
    });

    it('reads no more than it keeps from an answer that never ends', async () => {
      let pulled = 0;
      const endless = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          controller.enqueue(new TextEncoder().encode('ü'.repeat(100))); // 200 bytes a chunk
        },
      });
      const excerpt = await readExcerpt(new Response(endless));
      expect(excerpt).toBe('ü'.repeat(512));
      expect(pulled).toBeLessThan(10);
    });
  });
});
