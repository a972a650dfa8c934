/**
 * What every non-2xx answer of either API becomes. The APIs document one error body: `{ message, code? }`, and on
 * 422 also `errors`, one list of messages per offending field (`{ "rating": ["The rating field is required."] }`).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status (401, 403, 404, 409, 422, 429, ...). */
  readonly status: number;
  /** A stable code where the API names the condition (`location_access_denied`, `idempotency_key_reused`, ...). */
  readonly code: string | undefined;
  /** Field errors of a 422: field name -> messages. Empty for other answers. */
  readonly errors: Readonly<Record<string, readonly string[]>>;
  /** Seconds the server asked to wait (the `Retry-After` of a 429), when it said. */
  readonly retryAfter: number | undefined;
  /** The parsed body as received (a string when it was not JSON). */
  readonly body: unknown;
  readonly method: string;
  readonly url: string;
  readonly response: Response;

  constructor(response: Response, body: unknown, request: { method: string; url: string }) {
    const fields = isObject(body) ? body : {};
    super(typeof fields.message === 'string' && fields.message !== '' ? fields.message : `HTTP ${response.status} from ${request.method} ${request.url}`);
    this.status = response.status;
    this.code = typeof fields.code === 'string' ? fields.code : undefined;
    this.errors = fieldErrors(fields.errors);
    this.retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
    this.body = body;
    this.method = request.method;
    this.url = request.url;
    this.response = response;
  }

  /** The messages of one field of a 422 (none when the field is fine). */
  fieldErrors(field: string): readonly string[] {
    return this.errors[field] ?? [];
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Keeps only well-formed entries: a server (or a proxy in front of it) answering something else is not trusted. */
function fieldErrors(v: unknown): Record<string, string[]> {
  if (!isObject(v)) return {};
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(v)) {
    if (Array.isArray(messages)) out[field] = messages.filter((m): m is string => typeof m === 'string');
    else if (typeof messages === 'string') out[field] = [messages];
  }
  return out;
}

/**
 * `Retry-After` in seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3), never negative; undefined when absent
 * or unreadable.
 */
export function retryAfterSeconds(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
