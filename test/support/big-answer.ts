import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How one answer of a BigAnswerServer ended: bytes handed to the connection, and whether all of them were. */
export interface AnswerEnd {
  sent: number;
  /** The whole body was written and the answer ended (false: the client closed the connection first). */
  finished: boolean;
}

export interface BigAnswerServer {
  url: string;
  /** Bytes each answer is to send. */
  total: number;
  /** How the latest answer ended, once its connection has closed. */
  lastEnd(): Promise<AnswerEnd>;
  /** What the answer is like from now on. */
  set(opts: BigAnswerOptions): void;
  close(): Promise<void>;
}

export interface BigAnswerOptions {
  status?: number;
  /** Sends `Content-Length` (the whole size) before the body. */
  declareLength?: boolean;
  /** Bytes of the body (default 64 MB: far more than any socket buffer between the two ends holds). */
  total?: number;
}

/**
 * A loopback HTTP server whose every answer is a huge body of `a`s, written in 1 MB chunks as fast as the client takes
 * them: a client that reads answers whole takes all of it (the answer ends `finished`); a bounded reader closes the
 * connection long before (`finished: false`, `sent` well under `total`).
 */
export async function startBigAnswerServer(initial: BigAnswerOptions = {}): Promise<BigAnswerServer> {
  let opts = initial;
  let last: Promise<AnswerEnd> = Promise.reject(new Error('no request yet'));
  last.catch(() => undefined);
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  const server = http.createServer((req, res) => {
    req.resume();
    const total = opts.total ?? 64 * 1024 * 1024;
    let sent = 0;
    last = new Promise<AnswerEnd>((resolve) => res.once('close', () => resolve({ sent, finished: res.writableFinished })));
    res.writeHead(opts.status ?? 200, { 'Content-Type': 'application/json', ...(opts.declareLength ? { 'Content-Length': String(total) } : {}) });
    const push = () => {
      while (sent < total && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', push);
      }
      res.end();
    };
    push();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get total() {
      return opts.total ?? 64 * 1024 * 1024;
    },
    lastEnd: () => last,
    set: (next) => void (opts = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
