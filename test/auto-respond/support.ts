import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { Customer, Plan } from '../../src/models';
import type { TestApp } from '../support/app';

/** Gives (or takes away) the `auto_respond` plan feature of the account's plan. */
export async function setAutoRespondFeature(customerId: number, enabled: boolean): Promise<void> {
  const customer = await Customer.findByPk(customerId, { include: [Plan] });
  if (!customer?.plan) throw new Error('account has no plan');
  const others = customer.plan.features.filter((f) => f !== 'auto_respond');
  await customer.plan.update({ features: enabled ? [...others, 'auto_respond'] : others });
}

export interface GqlResult {
  status: number;
  data: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any
  errors: { message: string; extensions: { code: string; reason?: string; fields?: Record<string, string[]> } }[] | undefined;
}

export function graphql(t: TestApp) {
  return async (token: string, query: string, variables: Record<string, unknown> = {}): Promise<GqlResult> => {
    const res = await t.http().post('/graphql').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send({ query, variables });
    return { status: res.status, data: res.body.data ?? null, errors: res.body.errors };
  };
}

/** The first error's code and reason (`extensions`), for one-line assertions. */
export const errorOf = (r: GqlResult) => ({ code: r.errors?.[0]?.extensions.code, reason: r.errors?.[0]?.extensions.reason });

export interface ChatServer {
  url: string;
  requests: { messages: { role: string; content: string }[]; model: string }[];
  reply: (text: string | null, status?: number) => void;
  close(): Promise<void>;
}

/** A local server speaking the OpenAI-compatible `POST /chat/completions` wire format. */
export async function startChatServer(): Promise<ChatServer> {
  let answer: { text: string | null; status: number } = { text: 'Thanks a lot!', status: 200 };
  const requests: ChatServer['requests'] = [];
  const app = express();
  app.use(express.json());
  app.post('/v1/chat/completions', (req, res) => {
    requests.push(req.body);
    if (answer.status !== 200) {
      res.status(answer.status).json({ error: { message: 'model overloaded', type: 'server_error' } });
      return;
    }
    res.json({
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1_790_000_000,
      model: req.body.model,
      choices: [{ index: 0, message: { role: 'assistant', content: answer.text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (text, status = 200) => {
      answer = { text, status };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
