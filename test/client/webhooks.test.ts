import { Webhook } from 'standardwebhooks';
import { signWebhook, verifyWebhook, WebhookVerificationError } from '../../clients/typescript/src';
import { generateSecret, signatureHeaders } from '../../src/webhooks/signing';

/** The published test vector of docs/webhooks-receiver.md. */
const VECTOR = {
  secret: 'whsec_dGVzdC12ZWN0b3Itc2VjcmV0LTMyLWJ5dGVzLWxvbmch',
  headers: {
    'webhook-id': '2f6d1c7e-8a4b-4c1e-9b0f-5d3e7a2c9f10',
    'webhook-timestamp': '1795608000',
    'webhook-signature': 'v1,Lxyg3T0DFx6nJZbLsdb+4WKkk9XW2XkhtN2wbN2B52I=',
  },
  body: '{"webhook_event":"ping","webhook_id":1,"sent_at":"2026-11-25T12:00:00.000Z","message":"A test event: the receiver is reachable and can check the signature."}',
  now: new Date('2026-11-25T12:00:00.000Z'),
};

const failure = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e instanceof WebhookVerificationError ? e.reason : e;
  }
  return 'accepted';
};

describe('typed client: verifyWebhook (Standard Webhooks)', () => {
  it('accepts the published test vector and returns the typed event', () => {
    const event = verifyWebhook(VECTOR);
    expect(event).toEqual(JSON.parse(VECTOR.body));
    if (event.webhook_event !== 'ping') throw new Error('not a ping');
    expect(event.webhook_id).toBe(1);
  });

  it('accepts the example of the Standard Webhooks specification', () => {
    const headers = { 'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek', 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' };
    expect(verifyWebhook({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', headers, body: '{"test": 2432232314}', now: new Date(1614265330_000) })).toEqual({ test: 2432232314 });
  });

  it('takes the body as bytes, the headers as a Headers object or with any case', () => {
    expect(verifyWebhook({ ...VECTOR, body: Buffer.from(VECTOR.body) })).toMatchObject({ webhook_event: 'ping' });
    expect(verifyWebhook({ ...VECTOR, body: new TextEncoder().encode(VECTOR.body) })).toMatchObject({ webhook_event: 'ping' });
    expect(verifyWebhook({ ...VECTOR, headers: new Headers(VECTOR.headers) })).toMatchObject({ webhook_event: 'ping' });
    const upper = Object.fromEntries(Object.entries(VECTOR.headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook({ ...VECTOR, headers: upper })).toMatchObject({ webhook_event: 'ping' });
  });

  it('refuses a changed body, another secret, a missing header, a bad signature version', () => {
    expect(failure(() => verifyWebhook({ ...VECTOR, body: VECTOR.body.replace('"webhook_id":1', '"webhook_id":2') }))).toBe('invalid_signature');
    expect(failure(() => verifyWebhook({ ...VECTOR, secret: generateSecret() }))).toBe('invalid_signature');
    expect(failure(() => verifyWebhook({ ...VECTOR, headers: { ...VECTOR.headers, 'webhook-signature': VECTOR.headers['webhook-signature'].replace('v1,', 'v2,') } }))).toBe(
      'invalid_signature',
    );
    expect(failure(() => verifyWebhook({ ...VECTOR, headers: { ...VECTOR.headers, 'webhook-signature': 'v1,short' } }))).toBe('invalid_signature');
    const { 'webhook-id': _id, ...noId } = VECTOR.headers;
    expect(failure(() => verifyWebhook({ ...VECTOR, headers: noId }))).toBe('missing_headers');
    expect(failure(() => verifyWebhook({ ...VECTOR, headers: { ...VECTOR.headers, 'webhook-timestamp': '17956e5' } }))).toBe('invalid_timestamp');
  });

  it('refuses a timestamp more than the tolerance away (5 minutes by default), either way', () => {
    const at = (seconds: number) => new Date(VECTOR.now.getTime() + seconds * 1000);
    expect(failure(() => verifyWebhook({ ...VECTOR, now: at(300) }))).toBe('accepted');
    expect(failure(() => verifyWebhook({ ...VECTOR, now: at(301) }))).toBe('timestamp_out_of_tolerance');
    expect(failure(() => verifyWebhook({ ...VECTOR, now: at(-301) }))).toBe('timestamp_out_of_tolerance');
    expect(failure(() => verifyWebhook({ ...VECTOR, now: at(301), toleranceSeconds: 600 }))).toBe('accepted');
  });

  it('accepts either signature during a secret rotation, as the platform signs it', () => {
    const [current, previous] = [generateSecret(), generateSecret()];
    const body = JSON.stringify({ webhook_event: 'ping', webhook_id: 3, sent_at: new Date().toISOString(), message: 'hi' });
    const headers = signatureHeaders({ id: 'evt_1', timestamp: new Date(), body, secrets: [current, previous] });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(verifyWebhook({ secret: current, headers, body })).toMatchObject({ webhook_id: 3 });
    expect(verifyWebhook({ secret: previous, headers, body })).toMatchObject({ webhook_id: 3 });
  });

  it('signWebhook signs as the platform does and as the standardwebhooks library verifies', () => {
    const secret = generateSecret();
    const body = '{"webhook_event":"ping","webhook_id":9}';
    const timestamp = new Date();
    const mine = signWebhook({ secret, id: 'evt_2', timestamp, body });
    expect(mine).toEqual(signatureHeaders({ id: 'evt_2', timestamp, body, secrets: [secret] }));
    expect(new Webhook(secret).verify(body, mine)).toEqual(JSON.parse(body));
    expect(verifyWebhook({ secret, headers: mine, body })).toEqual(JSON.parse(body));
  });
});
