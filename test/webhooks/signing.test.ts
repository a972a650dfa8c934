import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { generateSecret, signatureHeaders } from '../../src/webhooks/signing';

/** Our signatures, checked by the reference implementation (the `standardwebhooks` package), not by our code. */
describe('Standard Webhooks signing', () => {
  const body = JSON.stringify({ webhook_event: 'review-created', id: 7, message: 'Grüße ✓' });
  const id = 'f0d6b0f4-8c1f-4a51-9d0e-3f7d7c7e1a22';

  it('makes secrets in the whsec_ format with 32 random bytes', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  it('signs webhook-id, webhook-timestamp (unix seconds) and webhook-signature so the reference verifier accepts them', () => {
    const secret = generateSecret();
    const now = new Date();
    const headers = signatureHeaders({ id, timestamp: now, body, secrets: [secret] });
    expect(headers['webhook-id']).toBe(id);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('is refused by the reference verifier for another secret, a changed body or a changed id', () => {
    const secret = generateSecret();
    const headers = signatureHeaders({ id, timestamp: new Date(), body, secrets: [secret] });
    expect(() => new Webhook(generateSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body.replace('7', '8'), headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'other' })).toThrow(WebhookVerificationError);
  });

  it('during a rotation signs with both secrets: receivers holding either one verify', () => {
    const previous = generateSecret();
    const current = generateSecret();
    const headers = signatureHeaders({ id, timestamp: new Date(), body, secrets: [current, previous] });
    const parts = headers['webhook-signature'].split(' ');
    expect(parts).toHaveLength(2);
    expect(parts.every((p) => p.startsWith('v1,'))).toBe(true);
    expect(new Webhook(current).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(previous).verify(body, headers)).toEqual(JSON.parse(body));
    // Once the overlap ends only the current secret signs; the old receiver configuration stops verifying.
    const after = signatureHeaders({ id, timestamp: new Date(), body, secrets: [current] });
    expect(() => new Webhook(previous).verify(body, after)).toThrow(WebhookVerificationError);
  });

  it('signs the same message identically every time (a retry differs only by its timestamp)', () => {
    const secret = generateSecret();
    const at = new Date('2026-11-22T10:00:00.000Z');
    expect(signatureHeaders({ id, timestamp: at, body, secrets: [secret] })).toEqual(signatureHeaders({ id, timestamp: at, body, secrets: [secret] }));
    expect(() => signatureHeaders({ id, timestamp: at, body, secrets: [] })).toThrow();
  });
});
