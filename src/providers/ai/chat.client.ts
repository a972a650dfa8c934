import { loadConfig } from '../../config';
import { AnswerTooLarge, describeBytes, readBoundedText } from '../../net/bounded-read';
import { operatorFetch } from '../../net/guarded-fetch';

/**
 * A minimal client of the OpenAI-compatible chat completions API (`POST {AI_API_URL}/chat/completions`),
 * spoken by OpenAI, Azure OpenAI's compatible endpoint, Ollama, vLLM, LM Studio, OpenRouter and others.
 * Configuration is read per call so a test can point it at a local server by changing the environment.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatOptions {
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export type ChatErrorKind =
  /** AI_API_URL is unset. */
  | 'not_configured'
  /** Connection failure, timeout or abort. */
  | 'unreachable'
  /** A non-2xx answer (`status` carries it). */
  | 'http'
  /** A 2xx answer without a usable `choices[0].message.content`. */
  | 'bad_response';

/**
 * The most of a chat answer that is read: the callers ask for a few hundred tokens (a reply draft, a summary), a few KB
 * of JSON; 2 MB is ample for any completion a model server sends, and bounds what a misbehaving one can make the
 * process hold for the length of AI_API_TIMEOUT_MS.
 */
export const CHAT_ANSWER_MAX_BYTES = 2 * 1024 * 1024;

/** Every failure of `chatComplete`; callers fall back to their deterministic text on it. */
export class ChatError extends Error {
  constructor(
    readonly kind: ChatErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ChatError';
  }
}

/** Whether a chat provider is configured (`AI_API_URL` set). */
export function chatConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(loadConfig(env).AI_API_URL);
}

const errorMessageOf = (body: unknown): string | null => {
  if (body && typeof body === 'object' && 'error' in body) {
    const err = (body as { error: unknown }).error;
    if (typeof err === 'string') return err;
    if (err && typeof err === 'object' && typeof (err as { message?: unknown }).message === 'string') {
      return (err as { message: string }).message;
    }
  }
  return null;
};

/**
 * Sends the messages and answers the assistant's text (`choices[0].message.content`, trimmed).
 * Throws ChatError on every failure; never returns an empty string.
 */
export async function chatComplete(messages: ChatMessage[], opts: ChatOptions = {}): Promise<string> {
  const config = loadConfig(process.env);
  if (!config.AI_API_URL) throw new ChatError('not_configured', 'No chat API is configured (AI_API_URL).');
  const url = `${config.AI_API_URL.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (config.AI_API_KEY) headers.Authorization = `Bearer ${config.AI_API_KEY}`;
  const body: Record<string, unknown> = { model: config.AI_MODEL, messages };
  if (opts.maxTokens !== undefined) body.max_tokens = opts.maxTokens;
  if (opts.temperature !== undefined) body.temperature = opts.temperature;

  const timeout = AbortSignal.timeout(config.AI_API_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let response: Response;
  let text: string;
  try {
    response = await operatorFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal, redirect: 'error' });
    text = await readBoundedText(response, CHAT_ANSWER_MAX_BYTES);
  } catch (e) {
    if (e instanceof AnswerTooLarge) throw new ChatError('bad_response', `The chat API answered with more than ${describeBytes(CHAT_ANSWER_MAX_BYTES)}.`);
    const reason = timeout.aborted
      ? `no answer in time (${config.AI_API_TIMEOUT_MS} ms)`
      : opts.signal?.aborted
        ? 'the request was aborted'
        : e instanceof Error
          ? (e.cause instanceof Error ? e.cause.message : e.message)
          : String(e);
    throw new ChatError('unreachable', `The chat API could not be reached: ${reason}`);
  }
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    const detail = errorMessageOf(parsed) ?? `HTTP ${response.status}`;
    throw new ChatError('http', `The chat API refused the request: ${detail}`, response.status);
  }
  const content = (parsed as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message
    ?.content;
  if (typeof content !== 'string' || content.trim() === '') {
    throw new ChatError('bad_response', 'The chat API answered without message content.');
  }
  return content.trim();
}
