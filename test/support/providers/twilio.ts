import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { TwilioSimulator, TWILIO_SIMULATOR_PATH, type SimulatedMessage, type TwilioRefusal } from '../../../src/providers/twilio/simulator';

/**
 * A local HTTP server speaking the Twilio Messages wire format (the simulator's router on a loopback port):
 * `url` is the API origin to put in an account's SMS settings (`base_url`); the same simulator also answers under
 * `/simulators/twilio`, so pointing PUBLIC_URL at `url` makes it the embedded default too. `refuseNext` makes it
 * answer the next messages with a Twilio error.
 */
export interface TwilioSink {
  url: string;
  messages: SimulatedMessage[];
  /** Every request it received (method, path, Authorization, form body). */
  requests: Array<{ method: string; path: string; authorization: string | undefined; body: Record<string, string> }>;
  to(number: string): SimulatedMessage[];
  refuseNext(refusal: TwilioRefusal, times?: number): void;
  waitFor(n: number, timeoutMs?: number): Promise<SimulatedMessage[]>;
  close(): Promise<void>;
}

export async function startTwilioServer(): Promise<TwilioSink> {
  const refusals: TwilioRefusal[] = [];
  const simulator = new TwilioSimulator({ refuse: () => refusals.shift() ?? null });
  const requests: TwilioSink['requests'] = [];
  const app = express();
  app.use(express.urlencoded({ extended: false }), (req, _res, next) => {
    requests.push({ method: req.method, path: req.path, authorization: req.headers.authorization, body: { ...(req.body as Record<string, string>) } });
    next();
  });
  app.use(simulator.router);
  app.use(TWILIO_SIMULATOR_PATH, simulator.router);
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    messages: simulator.messages,
    requests,
    to: (number) => simulator.to(number),
    refuseNext(refusal, times = 1) {
      for (let i = 0; i < times; i++) refusals.push(refusal);
    },
    async waitFor(n, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (simulator.messages.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} SMS, got ${simulator.messages.length} within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return [...simulator.messages];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
