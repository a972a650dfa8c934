/**
 * The one way the product reads the body of an answer to an outbound request: never more than a given number of bytes
 * (a server may answer with an endless body, and `response.text()` / `.json()` / `.arrayBuffer()` would buffer all of
 * it, for as long as the request's timeout allows). Past the bound the body is cancelled, which closes the connection,
 * so the server's further bytes are neither read nor kept. The bound counts the bytes as the client hands them over,
 * that is after any content decoding (a gzip bomb is cut off like a plain large answer).
 *
 * Two ways to be over the bound:
 * - `cut` (an excerpt: the webhook delivery log): the first `max` bytes are kept and the rest is not read; a body that
 *   breaks off keeps what was read.
 * - `refuse` (an answer that must be read whole to be used: a provider's JSON, a logo): a declared `Content-Length` over
 *   the bound is refused before any of the body is read, and a body that grows past it is refused as it does, with
 *   `AnswerTooLarge`. Errors of the body stream (a connection that breaks, the request's timeout) are thrown as they are.
 */

/** An answer larger than its reader's bound (declared by Content-Length, or as it was read). */
export class AnswerTooLarge extends Error {
  readonly code = 'ERR_ANSWER_TOO_LARGE';
  constructor(readonly limit: number) {
    super(`The answer is larger than ${limit} bytes.`);
    this.name = 'AnswerTooLarge';
  }
}

/** `max` bytes as people read them: `64 KB`, `8 MB`, or bytes. */
export const describeBytes = (max: number): string =>
  max % (1024 * 1024) === 0 ? `${max / (1024 * 1024)} MB` : max % 1024 === 0 ? `${max / 1024} KB` : `${max} bytes`;

/** The answer's body, at most `max` bytes of it (see the module's comment for `cut` and `refuse`). */
export async function readBounded(response: Response, max: number, over: 'cut' | 'refuse' = 'refuse'): Promise<Buffer> {
  if (over === 'refuse') {
    const declared = Number(response.headers.get('content-length') ?? '');
    if (Number.isFinite(declared) && declared > max) {
      await response.body?.cancel().catch(() => undefined);
      throw new AnswerTooLarge(max);
    }
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (over === 'refuse' || size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max && over === 'refuse') throw new AnswerTooLarge(max);
      chunks.push(value);
    }
  } catch (e) {
    // An excerpt keeps what was read of a body that breaks off; a whole answer is not had.
    if (over === 'refuse') throw e;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = Buffer.concat(chunks);
  return bytes.length > max ? bytes.subarray(0, max) : bytes;
}

/**
 * The answer's body as UTF-8 text (a byte-order mark dropped, as `response.text()` does), refused past `max` bytes
 * with `AnswerTooLarge`.
 */
export async function readBoundedText(response: Response, max: number): Promise<string> {
  return new TextDecoder('utf-8').decode(await readBounded(response, max, 'refuse'));
}
