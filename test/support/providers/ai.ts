import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

export interface ChatRequest {
  headers: Record<string, string | string[] | undefined>;
  body: { model?: string; messages?: { role: string; content: string }[]; max_tokens?: number; temperature?: number };
}

export type ChatReply = { status: number; body: unknown } | { hang: true };

/** A reply computed from the request (a test answering about what was asked). */
export type ChatResponder = (request: ChatRequest) => ChatReply;

/**
 * A local server speaking the OpenAI chat completions wire format (`POST /v1/chat/completions`): it records each
 * request and answers what the test sets, by default one assistant message.
 */
export async function startChatServer() {
  const requests: ChatRequest[] = [];
  let reply: ChatReply | ChatResponder = completion('A narrative from the model.');
  const app = express();
  app.use(express.json({ limit: '2mb' }));
  app.post('/v1/chat/completions', (req, res) => {
    const request: ChatRequest = { headers: req.headers, body: req.body };
    requests.push(request);
    const answer = typeof reply === 'function' ? reply(request) : reply;
    if ('hang' in answer) return; // never answers: the client's timeout must end it
    res.status(answer.status).json(answer.body);
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    answer(next: ChatReply | ChatResponder) {
      reply = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A successful chat completion as OpenAI sends it. */
export function completion(content: string, model = 'test-model') {
  return {
    status: 200,
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 1_764_000_000,
      model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    },
  };
}
