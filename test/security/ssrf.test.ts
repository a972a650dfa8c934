import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { MockActivityEnvironment } from '@temporalio/testing';
import * as dnsPacket from 'dns-packet';
import { guardedFetch, refusedCause, UnresolvableHost } from '../../src/net/guarded-fetch';
import { createWebhookActivities, type LoadedDelivery, type AttemptRecord } from '../../workflows/activities/webhooks';
import { assertDeliverableUrl } from '../../src/webhooks/url';

/**
 * SSRF (issue 14, docs/security.md): every address form is refused before any connection is made, and a host name is
 * resolved once, by the connection itself, so a DNS server that answers a public address first and loopback next
 * (DNS rebinding) never gets the connection to loopback. A loopback listener counts every connection it receives.
 */
describe('guarded outbound client', () => {
  jest.setTimeout(60_000);
  let listener: net.Server;
  let port: number;
  let connections = 0;
  let dnsServer: dgram.Socket;
  let dnsPort: number;
  const aQueries: string[] = [];
  /** What the DNS server answers for `rebind.test`, in turn: first a public address, then loopback. */
  const answers = ['93.184.215.14', '127.0.0.1'];
  let tried = 0;
  /** Connections the operator policy was meant to make (a private base URL): not counted against the refusals. */
  let allowed = 0;

  beforeAll(async () => {
    listener = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '0.0.0.0', resolve));
    port = (listener.address() as AddressInfo).port;

    dnsServer = dgram.createSocket('udp4');
    dnsServer.on('message', (msg, rinfo) => {
      const query = dnsPacket.decode(msg);
      const q = query.questions?.[0];
      if (!q) return;
      const reply: dnsPacket.Packet = { type: 'response', id: query.id, flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE, questions: query.questions, answers: [] };
      if (q.type === 'A' && q.name === 'rebind.test') {
        aQueries.push(q.name);
        const address = answers[Math.min(aQueries.length - 1, answers.length - 1)];
        reply.answers = [{ type: 'A', name: q.name, ttl: 0, class: 'IN', data: address }];
      }
      if (q.type === 'A' && q.name === 'meta.test') reply.answers = [{ type: 'A', name: q.name, ttl: 0, class: 'IN', data: '169.254.169.254' }];
      if (q.type === 'A' && q.name === 'inside.test') reply.answers = [{ type: 'A', name: q.name, ttl: 0, class: 'IN', data: '127.0.0.1' }];
      if (q.type === 'A' && q.name === 'mixed.test') {
        reply.answers = [
          { type: 'A', name: q.name, ttl: 0, class: 'IN', data: '93.184.215.14' },
          { type: 'A', name: q.name, ttl: 0, class: 'IN', data: '10.0.0.5' },
        ];
      }
      dnsServer.send(dnsPacket.encode(reply), rinfo.port, rinfo.address);
    });
    await new Promise<void>((resolve) => dnsServer.bind(0, '127.0.0.1', resolve));
    dnsPort = dnsServer.address().port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    dnsServer.close();
    console.log(`SSRF: ${tried} address forms tried, ${connections - allowed} connections reached the loopback listener from refused forms (${allowed} allowed: the operator's private base URL)`);
  });

  const forms = () => [
    `http://2130706433:${port}/`, // decimal
    `http://0177.0.0.1:${port}/`, // octal
    `http://0x7f.0.0.1:${port}/`, // hex
    `http://0x7f000001:${port}/`,
    `http://127.1:${port}/`, // short
    `http://127.0.0.1:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`, // IPv4-mapped IPv6
    `http://[::ffff:7f00:1]:${port}/`,
    `http://[64:ff9b::7f00:1]:${port}/`, // NAT64
    `http://[2002:7f00:1::]:${port}/`, // 6to4
    `http://0.0.0.0:${port}/`, // unspecified (Linux connects it to loopback)
    `http://0:${port}/`,
    `http://[::]:${port}/`,
    `http://[::1]:${port}/`,
    `http://localhost:${port}/`,
    `http://sub.localhost:${port}/`,
    'http://169.254.169.254/latest/meta-data/', // cloud metadata
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://100.64.0.1/', // CGNAT
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://[fe80::1]/', // link-local
    'http://224.0.0.1/', // multicast
    'http://[ff02::1]/',
    'http://[fc00::1]/', // unique local
    'http://255.255.255.255/',
    `http://user:pass@127.0.0.1:${port}/`, // credentials
    'http://user:pass@example.com/',
    'file:///etc/passwd', // schemes
    `gopher://127.0.0.1:${port}/_HELO`,
    `ftp://127.0.0.1:${port}/`,
    'data:text/plain,hello',
    `http://inside.test:${port}/`, // a name that resolves to loopback
    `http://mixed.test:${port}/`, // an answer with one private address among public ones
  ];

  it('refuses every form before connecting (the guarded client and the receiver URL check)', async () => {
    for (const url of forms()) {
      tried++;
      await expect(guardedFetch(url, { signal: AbortSignal.timeout(5_000) }, { allowPrivate: false, dnsServers: [`127.0.0.1:${dnsPort}`] })).rejects.toThrow();
      await expect(assertDeliverableUrl(url, { allowPrivate: false, lookup: async (h) => (h === 'inside.test' ? ['127.0.0.1'] : h === 'mixed.test' ? ['93.184.215.14', '10.0.0.5'] : ['93.184.215.14']) })).rejects.toMatchObject({
        fields: { url: [expect.any(String)] },
      });
    }
    expect(connections).toBe(0);
  });

  it('resolves once: a DNS answer that turns to loopback on the second look-up never reaches loopback', async () => {
    aQueries.length = 0;
    tried++;
    const result = await guardedFetch(`http://rebind.test:${port}/`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(3_000) }, { allowPrivate: false, dnsServers: [`127.0.0.1:${dnsPort}`] }).then(
      () => 'answered',
      (e: unknown) => e,
    );
    // The first (public) answer was checked and used: offline, that connection fails; it never goes to 127.0.0.1.
    expect(result).not.toBe('answered');
    expect(aQueries).toEqual(['rebind.test']);
    expect(connections).toBe(0);
  });

  describe('webhook delivery activity', () => {
    const env = new MockActivityEnvironment();
    const saved = process.env.OUTBOUND_DNS_SERVERS;
    afterAll(() => {
      if (saved === undefined) delete process.env.OUTBOUND_DNS_SERVERS;
      else process.env.OUTBOUND_DNS_SERVERS = saved;
    });

    function activities(url: string, allowPrivate: boolean) {
      const recorded: AttemptRecord[] = [];
      const delivery: LoadedDelivery = { id: 'msg_1', status: 'pending', body: '{"type":"review.created"}', url, secrets: ['whsec_dGVzdA=='] };
      const acts = createWebhookActivities({
        load: async () => delivery,
        loadMany: async () => new Map([[delivery.id, delivery]]),
        gaveUp: async () => undefined,
        heartbeat: () => undefined,
        record: async (_id, attempt) => void recorded.push(attempt),
        fail: async () => undefined,
        sign: () => ({ 'webhook-id': delivery.id }),
        checkUrl: async (u) => void (await assertDeliverableUrl(u, { allowPrivate, resolve: false })),
        post: (u, init) => guardedFetch(u, { method: 'POST', redirect: 'manual', ...init }, { allowPrivate }),
        refused: (e) => {
          const cause = refusedCause(e);
          return cause && { message: cause.message, transient: cause instanceof UnresolvableHost };
        },
        timeoutMs: 3_000,
        userAgent: 'test',
        now: () => new Date(),
      });
      return { acts, recorded };
    }

    it('a receiver name that rebinds to loopback: one look-up, no connection to loopback, the attempt recorded as failed', async () => {
      process.env.OUTBOUND_DNS_SERVERS = `127.0.0.1:${dnsPort}`;
      aQueries.length = 0;
      tried++;
      const { acts, recorded } = activities(`http://rebind.test:${port}/hook`, false);
      await expect(env.run(acts.attemptWebhookDelivery, 'msg_1')).rejects.toThrow();
      expect(aQueries).toEqual(['rebind.test']);
      expect(connections).toBe(0);
      expect(recorded).toHaveLength(1);
      expect(recorded[0]).toMatchObject({ succeeded: false, statusCode: null });
    });

    it('a receiver name that resolves to loopback: refused without retry, recorded with the reason', async () => {
      process.env.OUTBOUND_DNS_SERVERS = `127.0.0.1:${dnsPort}`;
      tried++;
      const { acts, recorded } = activities(`http://inside.test:${port}/hook`, false);
      await expect(env.run(acts.attemptWebhookDelivery, 'msg_1')).rejects.toMatchObject({ type: 'PermanentDeliveryFailure', nonRetryable: true });
      expect(recorded[0].error).toMatch(/private, loopback or link-local/);
      expect(connections).toBe(0);
    });

    it('never follows a redirect, even to an allowed address: a 3xx is a failed attempt', async () => {
      tried++;
      const receiver = http.createServer((_req, res) => res.writeHead(307, { Location: `http://127.0.0.1:${port}/` }).end());
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      try {
        const { acts, recorded } = activities(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, true);
        await expect(env.run(acts.attemptWebhookDelivery, 'msg_1')).rejects.toThrow();
        expect(recorded[0]).toMatchObject({ succeeded: false, statusCode: 307 });
        expect(connections).toBe(0);
      } finally {
        await new Promise<void>((resolve) => receiver.close(() => resolve()));
      }
    });
  });

  it("the operator's own base URLs (AI, providers, geocoding) may be private, never link-local or metadata", async () => {
    const operator = (url: string) => guardedFetch(url, { signal: AbortSignal.timeout(5_000) }, { operator: true, dnsServers: [`127.0.0.1:${dnsPort}`] });
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/', 'http://[::ffff:169.254.169.254]/', 'http://metadata.google.internal/', `http://meta.test:${port}/`]) {
      tried++;
      const err = await operator(url).then(() => null, (e: unknown) => e);
      expect([url, refusedCause(err)?.name]).toEqual([url, 'RefusedAddress']);
    }
    // A private address is the operator's to choose (a local model server, the simulators): it is connected to.
    const before = connections;
    await operator(`http://127.0.0.1:${port}/`).catch(() => undefined);
    await operator(`http://inside.test:${port}/`).catch(() => undefined);
    expect(connections - before).toBe(2);
    allowed += 2;
  });
});
