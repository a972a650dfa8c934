import { ChatError, chatComplete, chatConfigured } from '../../src/providers/ai/chat.client';
import { completion, startChatServer } from '../support/providers/ai';

describe('src/providers/ai/chat.client.ts (OpenAI-compatible chat completions)', () => {
  let server: Awaited<ReturnType<typeof startChatServer>>;
  const saved = { ...process.env };

  beforeAll(async () => {
    server = await startChatServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    process.env.AI_API_URL = server.url;
    process.env.AI_API_KEY = 'sk-test-key';
    process.env.AI_MODEL = 'gpt-test';
    server.requests.length = 0;
    server.answer(completion('  Hello from the model.  '));
  });
  afterEach(() => {
    for (const k of ['AI_API_URL', 'AI_API_KEY', 'AI_MODEL', 'AI_API_TIMEOUT_MS']) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });

  it('is configured exactly when AI_API_URL is set', () => {
    expect(chatConfigured()).toBe(true);
    delete process.env.AI_API_URL;
    expect(chatConfigured()).toBe(false);
  });

  it('POSTs {model, messages, max_tokens, temperature} with the bearer key and answers the trimmed content', async () => {
    const messages = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'Say hello.' },
    ];
    await expect(chatComplete(messages, { maxTokens: 50, temperature: 0.3 })).resolves.toBe('Hello from the model.');
    expect(server.requests).toHaveLength(1);
    const [req] = server.requests;
    expect(req.headers.authorization).toBe('Bearer sk-test-key');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.body).toEqual({ model: 'gpt-test', messages, max_tokens: 50, temperature: 0.3 });
  });

  it('sends no Authorization header without AI_API_KEY (local servers such as Ollama)', async () => {
    delete process.env.AI_API_KEY;
    await chatComplete([{ role: 'user', content: 'hi' }]);
    expect(server.requests[0].headers.authorization).toBeUndefined();
    expect(server.requests[0].body).toEqual({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('throws a ChatError of kind http with the status and the API message on a non-2xx answer', async () => {
    server.answer({ status: 429, body: { error: { message: 'Rate limit reached', type: 'requests' } } });
    const err = await chatComplete([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ChatError);
    expect(err).toMatchObject({ kind: 'http', status: 429, message: expect.stringContaining('Rate limit reached') });
  });

  it('throws kind bad_response when the answer has no message content', async () => {
    server.answer({ status: 200, body: { choices: [] } });
    await expect(chatComplete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({ kind: 'bad_response' });
    server.answer(completion('   '));
    await expect(chatComplete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({ kind: 'bad_response' });
  });

  it('throws kind unreachable on a timeout, and on a closed port', async () => {
    process.env.AI_API_TIMEOUT_MS = '200';
    server.answer({ hang: true });
    await expect(chatComplete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({ kind: 'unreachable', message: expect.stringContaining('no answer in time') });
    process.env.AI_API_URL = 'http://127.0.0.1:9/v1';
    await expect(chatComplete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('honours the caller abort signal', async () => {
    server.answer({ hang: true });
    const controller = new AbortController();
    const pending = chatComplete([{ role: 'user', content: 'hi' }], { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('throws kind not_configured without AI_API_URL', async () => {
    delete process.env.AI_API_URL;
    await expect(chatComplete([{ role: 'user', content: 'hi' }])).rejects.toMatchObject({ kind: 'not_configured' });
  });
});
