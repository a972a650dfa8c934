import type { LoggerOptions } from 'pino';

/**
 * What the logs never hold (docs/security.md "Secrets"): bearer tokens, passwords, signing secrets, provider
 * tokens and the capability tokens in page URLs. Every logger of the product is built with LOG_REDACTION and the
 * request log writes logSafeUrl(req.url); test/security/secrets-leak.test.ts and the topology's log sweep check it.
 */
const SECRET_KEYS = [
  'authorization',
  'password',
  'secret',
  'token',
  'authToken',
  'accessToken',
  'refreshToken',
  'plainText',
  'apiKey',
  'api_key',
  'auth_token',
  'access_token',
  'refresh_token',
  'client_secret',
  'clientSecret',
  'signingSecret',
  'signing_secret',
  'previousSecret',
  'cookie',
];

/**
 * What a database error carries besides its message: the statement with its values written in (`sql`, also under
 * `parent` and `original`, the driver's error) and the bound `parameters`, i.e. reviewers' names, e-mail addresses,
 * phone numbers, webhook payloads and tokens. Errors are logged as `loggable` (facades/shared/errors.ts) or
 * `safeError` (src/observability/temporal-metrics.ts), which leave these out; these paths are the second line of
 * defence for an error logged whole (under `err`, `error`, or one level deeper).
 */
const QUERY_KEYS = ['sql', 'parameters', 'original', 'parent'];

export const LOG_REDACTION: LoggerOptions['redact'] = {
  paths: [
    'req.headers.authorization',
    'req.headers.cookie',
    'headers.authorization',
    'headers.Authorization',
    ...SECRET_KEYS.map((k) => `*.${k}`),
    ...SECRET_KEYS.map((k) => `*.*.${k}`),
    ...SECRET_KEYS,
    ...QUERY_KEYS.map((k) => `*.${k}`),
    ...QUERY_KEYS.map((k) => `*.*.${k}`),
  ],
  censor: '[redacted]',
};

/** Page routes whose next path segment is a capability token (the link itself is the credential). */
const TOKEN_PATHS = ['/connect/', '/u/', '/r/', '/api/webhooks/inbound/', '/reports/scans/', '/api/agency/v1/connect-links/'];
const SECRET_QUERY = /^(code|state|token|t|sig|signature|key|secret|password|access_token|refresh_token|nonce)$/i;

/**
 * A request URL fit for a log line: a capability token in the path is cut to its first 6 characters, and the
 * values of secret-looking query parameters (an OAuth `code` and `state`, a signed report's `t`) are replaced.
 */
export function logSafeUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q + 1);
  // Express matches routes regardless of letter case, so /U/<token> is served as /u/<token> is.
  const lower = path.toLowerCase();
  for (const prefix of TOKEN_PATHS) {
    if (!lower.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf('/');
    const token = slash === -1 ? rest : rest.slice(0, slash);
    if (token.length > 6) path = `${path.slice(0, prefix.length)}${token.slice(0, 6)}…${slash === -1 ? '' : rest.slice(slash)}`;
    break;
  }
  if (!query) return path;
  const safe = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq === -1 ? pair : pair.slice(0, eq);
      let name = key;
      try {
        name = decodeURIComponent(key);
      } catch {
        // a malformed key is logged as sent
      }
      return eq !== -1 && SECRET_QUERY.test(name) ? `${key}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${safe}`;
}
