import { WebhookDelivery } from '../../src/models';
import { sign } from '../../src/webhooks/signing';
import { useApp } from '../support/app';
import { makeWorld } from '../support/factories';
import { startReceiver } from '../support/receiver';

/**
 * `POST /api/v1/webhooks/{id}/test` (issue 15 item 7; docs/decisions/webhooks.md "Webhook test event"): one signed `ping` to
 * the receiver now, answered with its status, time and the first KB of its answer; not retried, not in the log.
 */
describe('webhook test event', () => {
  const t = useApp();
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
  beforeAll(() => {
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true'; // the receiver lives on loopback
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
    else process.env.WEBHOOK_ALLOW_PRIVATE_URLS = saved;
  });

  it('sends a ping signed like a delivery and answers what the receiver said', async () => {
    const w = await makeWorld();
    const receiver = await startReceiver((n) => (n === 1 ? { status: 200, body: 'pong' } : { status: 503, body: 'x'.repeat(5000) }));
    try {
      const as = (path: string) => t.http().post(path).set('Authorization', `Bearer ${w.tokens.orgOwner}`);
      const hook = await as('/api/v1/webhooks').send({ url: receiver.url });
      expect(hook.status).toBe(201);

      const ok = await as(`/api/v1/webhooks/${hook.body.data.id}/test`).send({});
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({ delivered: true, status_code: 200, error: null, response_excerpt: 'pong', webhook_id: expect.stringMatching(/^ping_/) });
      expect(ok.body.data.latency_ms).toEqual(expect.any(Number));

      const [got] = receiver.received;
      expect(JSON.parse(got.body)).toMatchObject({ webhook_event: 'ping', webhook_id: hook.body.data.id });
      expect(got.headers['user-agent']).toBe('Reviewgrid-Webhooks/V1');
      expect(got.headers['webhook-id']).toBe(ok.body.data.webhook_id);
      const ts = Number(got.headers['webhook-timestamp']);
      expect(got.headers['webhook-signature']).toBe(sign(hook.body.data.secret, String(got.headers['webhook-id']), ts, got.body));

      // A failing receiver: answered as it is, with the first KB, once (no retry), nothing in the delivery log.
      const failing = await as(`/api/v1/webhooks/${hook.body.data.id}/test`).send({});
      expect(failing.body.data).toMatchObject({ delivered: false, status_code: 503, error: 'The receiver answered 503' });
      expect(failing.body.data.response_excerpt).toHaveLength(1024);
      expect(receiver.received).toHaveLength(2);
      expect(await WebhookDelivery.count({ where: { endpointId: hook.body.data.id } })).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it('a receiver that cannot be reached is answered, not an error; another account\'s receiver is 404; team members 403', async () => {
    const w = await makeWorld();
    const as = (token: string, path: string) => t.http().post(path).set('Authorization', `Bearer ${token}`);
    const hook = await as(w.tokens.orgOwner, '/api/v1/webhooks').send({ url: 'http://127.0.0.1:9/nobody' });
    const down = await as(w.tokens.orgOwner, `/api/v1/webhooks/${hook.body.data.id}/test`).send({});
    expect(down.status).toBe(200);
    expect(down.body.data).toMatchObject({ delivered: false, status_code: null, error: expect.stringMatching(/^Connection failed/) });
    const other = await makeWorld();
    expect((await as(other.tokens.orgOwner, `/api/v1/webhooks/${hook.body.data.id}/test`).send({})).status).toBe(404);
    expect((await as(w.tokens.member, `/api/v1/webhooks/${hook.body.data.id}/test`).send({})).status).toBe(403);
  });
});
