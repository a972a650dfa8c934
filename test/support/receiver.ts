import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { contractRecorder } from './contract';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A real webhook receiver on loopback. `respond` decides each answer from the number of requests so far;
 * returning null holds the request open without answering (a receiver that hangs; `release` answers those held so
 * far). A header given as a list is
 * sent once per value; a string body is sent as UTF-8. Signed deliveries are checked against the documented events.
 */
export async function startReceiver(
  respond: (n: number, req: Received) => { status: number; headers?: Record<string, string | string[]>; body?: string | Buffer } | null,
) {
  const received: Received[] = [];
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body, at: Date.now() };
      received.push(r);
      // A signed delivery's body must be an event the customer OpenAPI document shows (test/support/contract.ts).
      if (req.headers['webhook-signature']) contractRecorder.observeWebhook(body);
      const answer = respond(received.length, r);
      if (!answer) {
        held.push(res);
        return;
      }
      res.writeHead(answer.status, { 'Content-Type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    async waitFor(count: number, timeoutMs = 45_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} requests, expected ${count}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    /** Answers every request held so far with `status`. */
    release(status = 200): void {
      for (const res of held.splice(0)) res.writeHead(status, { 'Content-Type': 'text/plain' }).end('ok');
    },
    async close(): Promise<void> {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
