import { EventEmitter } from 'node:events';
import { ListenStreams, MAX_LISTEN_STREAM_MS, MAX_LISTEN_STREAMS_PER_TOKEN } from '../../facades/mcp/limits';
import { McpError } from '../../facades/mcp/protocol';
import type { Principal } from '../../src/domain/principal';
import { makeTenant, tokenFor } from '../support/factories';
import { AI_READ, rpc, useMcpApp } from './support';

/**
 * `subscriptions/listen` streams (2026-07-28): a token holds at most MAX_LISTEN_STREAMS_PER_TOKEN open at once in a
 * process (the SDK's own cap is per process, 1024, and past it refuses everyone with -32603), each freed when its
 * response closes and ended at MAX_LISTEN_STREAM_MS.
 */
describe('MCP subscriptions/listen streams per token', () => {
  const token = (tokenId: number) => ({ tokenId }) as Principal;
  /** A response as ListenStreams sees it: something that closes. */
  const response = () => new EventEmitter();
  const refusal = (take: () => void): McpError => {
    try {
      take();
    } catch (e) {
      if (e instanceof McpError) return e;
      throw e;
    }
    throw new Error('not refused');
  };

  it('holds two streams per token and 1 hour per stream', () => {
    expect([MAX_LISTEN_STREAMS_PER_TOKEN, MAX_LISTEN_STREAM_MS]).toEqual([2, 3_600_000]);
  });

  it('refuses a third concurrent stream of a token with -32002 rate_limited, 429 and Retry-After; a closed one frees its slot; other tokens are unaffected', () => {
    const streams = new ListenStreams();
    const first = response();
    streams.take(token(1), first, () => {});
    streams.take(token(1), response(), () => {});
    const refused = refusal(() => streams.take(token(1), response(), () => {}));
    expect([refused.code, refused.status, refused.data]).toEqual([-32002, 429, { reason: 'rate_limited', retry_after: 3600 }]);
    expect(refused.headers).toEqual({ 'Retry-After': '3600' });
    expect(refused.message).toContain('subscriptions/listen');

    // Another token has its own two.
    streams.take(token(2), response(), () => {});
    streams.take(token(2), response(), () => {});

    first.emit('close');
    streams.take(token(1), response(), () => {});
    expect(refusal(() => streams.take(token(1), response(), () => {})).code).toBe(-32002);
  });

  it('ends a stream at its lifetime (then its close frees the slot), and not once it has closed', () => {
    jest.useFakeTimers();
    try {
      const streams = new ListenStreams(2, 1_000);
      const ends: string[] = [];
      const old = response();
      streams.take(token(3), old, () => ends.push('old'));
      jest.advanceTimersByTime(400);
      const closed = response();
      streams.take(token(3), closed, () => ends.push('closed'));
      // Retry-After: until the oldest stream's end.
      expect(refusal(() => streams.take(token(3), response(), () => {})).headers).toEqual({ 'Retry-After': '1' });
      closed.emit('close');
      jest.advanceTimersByTime(600);
      expect(ends).toEqual(['old']);
      old.emit('close');
      jest.advanceTimersByTime(5_000);
      expect(ends).toEqual(['old']);
      streams.take(token(3), response(), () => {});
      streams.take(token(3), response(), () => {});
    } finally {
      jest.useRealTimers();
    }
  });

  describe('through the endpoint', () => {
    const app = useMcpApp();
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
    const listen = (bearer: string, id: number) =>
      fetch(app.url(), {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
        body: JSON.stringify(rpc('subscriptions/listen', { notifications: { toolsListChanged: true }, _meta: meta }, id)),
      });

    it('frees the slot of every stream that ended: a token opens more than two, one after another', async () => {
      const { owner } = await makeTenant();
      const bearer = await tokenFor(owner, AI_READ, 'ai');
      for (let id = 1; id <= MAX_LISTEN_STREAMS_PER_TOKEN + 2; id++) {
        const res = await listen(bearer, id);
        expect([id, res.status, res.headers.get('content-type')]).toEqual([id, 200, 'text/event-stream']);
        // No list of this server ever changes: the SDK acknowledges an empty filter and ends the stream with its result.
        const text = await res.text();
        expect(text).toContain('"method":"notifications/subscriptions/acknowledged","params":{"notifications":{}');
        expect(text).toContain(`"id":${id},"result":{"resultType":"complete"`);
      }
    });
  });
});
