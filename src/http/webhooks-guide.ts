/**
 * The receiver-side guide to outbound webhooks: served at `/docs/webhooks` and written to docs/webhooks-receiver.md
 * (`scripts/emit-webhooks-guide.ts`), one text for both. The snippets are the ones the test suite runs
 * (test/http/docs-page.test.ts): the Node and Python ones verify the published test vector, which the same test
 * checks against the signing code (src/webhooks/signing.ts).
 */

/** A delivery signed with a fixed secret, id and time: a receiver's implementation must accept exactly this. */
export const WEBHOOK_TEST_VECTOR = {
  secret: 'whsec_dGVzdC12ZWN0b3Itc2VjcmV0LTMyLWJ5dGVzLWxvbmch',
  id: '2f6d1c7e-8a4b-4c1e-9b0f-5d3e7a2c9f10',
  timestamp: 1795608000,
  body: '{"webhook_event":"ping","webhook_id":1,"sent_at":"2026-11-25T12:00:00.000Z","message":"A test event: the receiver is reachable and can check the signature."}',
  signature: 'v1,Lxyg3T0DFx6nJZbLsdb+4WKkk9XW2XkhtN2wbN2B52I=',
} as const;

/** The example of the Standard Webhooks specification, which any conforming library verifies too. */
export const STANDARD_WEBHOOKS_VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
} as const;

const v = WEBHOOK_TEST_VECTOR;
const q = (s: string) => JSON.stringify(s);
/** A PHP single-quoted literal (the vector has no quote or backslash, but stay correct). */
const php = (s: string) => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;

export const NODE_SNIPPET = `// verify-webhook.js: Node.js 18 or later, no dependencies.
const crypto = require('node:crypto');

/**
 * Verifies one delivery. \`headers\`: the request headers (lower-case names, as Node gives them); \`rawBody\`: the
 * body exactly as received (a string or Buffer, never re-serialised JSON). Returns the parsed event or throws.
 */
function verifyWebhook(secret, headers, rawBody, { now = Math.floor(Date.now() / 1000), toleranceSeconds = 300 } = {}) {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) throw new Error('missing webhook signature headers');
  if (!/^\\d+$/.test(timestamp) || Math.abs(now - Number(timestamp)) > toleranceSeconds) {
    throw new Error('webhook timestamp is too old or too new');
  }
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  const body = Buffer.isBuffer(rawBody) ? rawBody.toString('utf8') : rawBody;
  const expected = crypto.createHmac('sha256', key).update(\`\${id}.\${timestamp}.\${body}\`).digest();
  // One "v1,<base64>" per signing secret, space-separated (two while a secret is being rotated).
  for (const entry of signatures.split(' ')) {
    const [version, signature] = entry.split(',');
    if (version !== 'v1' || !signature) continue;
    const given = Buffer.from(signature, 'base64');
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) return JSON.parse(body);
  }
  throw new Error('no valid webhook signature');
}

module.exports = { verifyWebhook };

// \`node verify-webhook.js\` checks the implementation against the published test vector.
if (require.main === module) {
  const event = verifyWebhook(
    ${q(v.secret)},
    {
      'webhook-id': ${q(v.id)},
      'webhook-timestamp': ${q(String(v.timestamp))},
      'webhook-signature': ${q(v.signature)},
    },
    ${q(v.body)},
    { now: ${v.timestamp} },
  );
  console.log(\`test vector: ok (\${event.webhook_event})\`);
}
`;

export const NODE_EXPRESS_SNIPPET = `// With Express: read the body raw for this route, verify, then answer 2xx quickly.
const express = require('express');
const { verifyWebhook } = require('./verify-webhook');

const app = express();
app.post('/hooks/reviews', express.raw({ type: 'application/json' }), (req, res) => {
  let event;
  try {
    event = verifyWebhook(process.env.WEBHOOK_SECRET, req.headers, req.body);
  } catch {
    return res.status(400).end();
  }
  res.status(204).end();
  // Deliveries are at least once: skip an event whose webhook-id you have already handled.
  handle(req.headers['webhook-id'], event);
});
`;

export const PYTHON_SNIPPET = `# verify_webhook.py: Python 3.8 or later, standard library only.
import base64
import hashlib
import hmac
import json
import time


def verify_webhook(secret, headers, raw_body, now=None, tolerance_seconds=300):
    """Verifies one delivery. headers: a mapping of the request headers (lower-case names, or a case-insensitive
    mapping such as Flask's request.headers); raw_body: the body bytes exactly as received. Returns the event."""
    msg_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise ValueError("missing webhook signature headers")
    now = int(time.time()) if now is None else now
    if not timestamp.isdigit() or abs(now - int(timestamp)) > tolerance_seconds:
        raise ValueError("webhook timestamp is too old or too new")
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    body = raw_body if isinstance(raw_body, bytes) else raw_body.encode("utf-8")
    expected = base64.b64encode(hmac.new(key, f"{msg_id}.{timestamp}.".encode() + body, hashlib.sha256).digest()).decode()
    # One "v1,<base64>" per signing secret, space-separated (two while a secret is being rotated).
    for entry in signatures.split(" "):
        version, _, signature = entry.partition(",")
        if version == "v1" and hmac.compare_digest(signature, expected):
            return json.loads(body)
    raise ValueError("no valid webhook signature")


# \`python3 verify_webhook.py\` checks the implementation against the published test vector.
if __name__ == "__main__":
    event = verify_webhook(
        ${q(v.secret)},
        {
            "webhook-id": ${q(v.id)},
            "webhook-timestamp": ${q(String(v.timestamp))},
            "webhook-signature": ${q(v.signature)},
        },
        ${php(v.body)}.encode("utf-8"),
        now=${v.timestamp},
    )
    print("test vector: ok (%s)" % event["webhook_event"])
`;

export const PHP_SNIPPET = `<?php
// verify_webhook.php: PHP 8.0 or later, no extensions beyond the default ones.

/**
 * Verifies one delivery. $headers: the request headers with lower-case names; $rawBody: file_get_contents('php://input').
 * Returns the decoded event or throws.
 */
function verify_webhook(string $secret, array $headers, string $rawBody, ?int $now = null, int $toleranceSeconds = 300): array
{
    $id = $headers['webhook-id'] ?? '';
    $timestamp = $headers['webhook-timestamp'] ?? '';
    $signatures = $headers['webhook-signature'] ?? '';
    if ($id === '' || $timestamp === '' || $signatures === '') {
        throw new RuntimeException('missing webhook signature headers');
    }
    $now = $now ?? time();
    if (!ctype_digit($timestamp) || abs($now - (int) $timestamp) > $toleranceSeconds) {
        throw new RuntimeException('webhook timestamp is too old or too new');
    }
    $key = base64_decode(str_starts_with($secret, 'whsec_') ? substr($secret, 6) : $secret, true);
    $expected = base64_encode(hash_hmac('sha256', "{$id}.{$timestamp}.{$rawBody}", $key, true));
    // One "v1,<base64>" per signing secret, space-separated (two while a secret is being rotated).
    foreach (explode(' ', $signatures) as $entry) {
        [$version, $signature] = array_pad(explode(',', $entry, 2), 2, '');
        if ($version === 'v1' && hash_equals($expected, $signature)) {
            return json_decode($rawBody, true, 512, JSON_THROW_ON_ERROR);
        }
    }
    throw new RuntimeException('no valid webhook signature');
}

// In a request: the headers with lower-case names, then verify.
// $headers = array_change_key_case(getallheaders(), CASE_LOWER);
// $event = verify_webhook(getenv('WEBHOOK_SECRET'), $headers, file_get_contents('php://input'));

// \`php verify_webhook.php\` checks the implementation against the published test vector.
if (PHP_SAPI === 'cli' && realpath($argv[0] ?? '') === __FILE__) {
    $event = verify_webhook(
        ${php(v.secret)},
        [
            'webhook-id' => ${php(v.id)},
            'webhook-timestamp' => ${php(String(v.timestamp))},
            'webhook-signature' => ${php(v.signature)},
        ],
        ${php(v.body)},
        ${v.timestamp},
    );
    echo "test vector: ok ({$event['webhook_event']})\\n";
}
`;

/** The guide as Markdown: the `/docs/webhooks` page renders it, docs/webhooks-receiver.md holds it. */
export function webhooksGuideMarkdown(): string {
  const s = STANDARD_WEBHOOKS_VECTOR;
  return `# Receiving webhooks

Each webhook delivery is an HTTP \`POST\` of a JSON object whose first field is \`webhook_event\` (\`review-created\`,
\`review-updated\`, \`organization-created\`, ..., and \`ping\` from the test button), with
\`Content-Type: application/json\` and \`User-Agent: Reviewgrid-Webhooks/V1\`. It is signed the
[Standard Webhooks](https://www.standardwebhooks.com) way, so any Standard Webhooks library verifies it as it is
(\`standardwebhooks\` on npm and PyPI), or the few lines below.

Every delivery carries three headers:

- \`webhook-id\`: the delivery's id. Retries of a delivery carry the same id: use it to drop duplicates (delivery
  is at least once).
- \`webhook-timestamp\`: when this attempt was signed, in seconds since the Unix epoch.
- \`webhook-signature\`: \`v1,<signature>\`, the base64 HMAC-SHA256 of \`<webhook-id>.<webhook-timestamp>.<body>\`. While
  a secret is being rotated there are two entries, separated by a space (new secret and previous one, for 24 hours).

## How to verify a delivery

1. Keep the **raw body**: the bytes as they arrived. A body parsed and serialised again does not match the signature.
2. Check that \`webhook-timestamp\` is within 5 minutes of your clock, so an old delivery cannot be replayed.
3. Take the secret you were shown when the receiver was created (\`whsec_...\`): the key is the base64 text after
   \`whsec_\`, decoded to bytes.
4. Compute HMAC-SHA256 with that key over \`<webhook-id>.<webhook-timestamp>.<raw body>\` and encode it in base64.
5. Compare it, in constant time, with the text after \`v1,\` of each entry of \`webhook-signature\`; accept the
   delivery when one matches.
6. Answer with a 2xx status within 30 seconds and do the work afterwards. A 4xx answer other than 408 and 429 stops the
   retries; other failures are retried up to 10 times over about 5 minutes (429 waits for \`Retry-After\`).

## Test vector

An implementation must accept exactly this delivery (with its clock set to the timestamp):

- secret: \`${v.secret}\`
- \`webhook-id\`: \`${v.id}\`
- \`webhook-timestamp\`: \`${v.timestamp}\` (${new Date(v.timestamp * 1000).toISOString()})
- body (exact bytes, no trailing newline):
  \`${v.body}\`
- \`webhook-signature\`: \`${v.signature}\`

And the example of the Standard Webhooks specification: secret \`${s.secret}\`, \`webhook-id\` \`${s.id}\`,
\`webhook-timestamp\` \`${s.timestamp}\`, body \`${s.body}\`, signature \`${s.signature}\`.

## Node.js

\`node verify-webhook.js\` prints \`test vector: ok (ping)\`.

\`\`\`js
${NODE_SNIPPET.trimEnd()}
\`\`\`

\`\`\`js
${NODE_EXPRESS_SNIPPET.trimEnd()}
\`\`\`

## Python

\`python3 verify_webhook.py\` prints \`test vector: ok (ping)\`. With Flask: \`verify_webhook(secret, request.headers,
request.get_data())\`.

\`\`\`python
${PYTHON_SNIPPET.trimEnd()}
\`\`\`

## PHP

\`php verify_webhook.php\` prints \`test vector: ok (ping)\`.

\`\`\`php
${PHP_SNIPPET.trimEnd()}
\`\`\`

## How these snippets are checked

The project's test suite checks the test vector against the code that signs deliveries, runs the Node.js snippet
with \`node\` and the Python snippet with \`python3\`, and checks that both refuse a changed body, another secret and an
old timestamp. The PHP snippet follows the same steps and was checked against the test vector with PHP 8.2 by hand;
PHP is not part of the build machines, so the suite does not run it.
`;
}
