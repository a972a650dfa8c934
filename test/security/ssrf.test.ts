import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { MockActivityEnvironment } from '@temporalio/testing';
import * as dnsPacket from 'dns-packet';
import { MessagingRejected, MessagingUnavailable } from '../../src/messaging/types';
import { AnswerTooLarge, readBounded } from '../../src/net/bounded-read';
import { guardedFetch, refusedCause, resolveChecked, UnresolvableHost } from '../../src/net/guarded-fetch';
import { ChatError, chatComplete, CHAT_ANSWER_MAX_BYTES } from '../../src/providers/ai/chat.client';
import { GoogleGeocoder } from '../../src/providers/google/geocoding.client';
import { platformRequest, nestedErrorMessage, PROVIDER_ANSWER_MAX_BYTES } from '../../src/providers/http';
import { DataForSeoClient } from '../../src/providers/ranking/dataforseo.client';
import { GridProviderRejected, GridProviderUnavailable } from '../../src/providers/ranking/types';
import { SMS_ANSWER_MAX_BYTES, twilioSender } from '../../src/providers/twilio/client';
import { ProviderRejected, ProviderUnavailable } from '../../src/providers/types';
import { readExcerpt } from '../../src/webhooks/delivery-log';
import { startBigAnswerServer, type BigAnswerServer } from '../support/big-answer';
import { useEnv } from '../support/env';
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
      // The clouds' metadata addresses outside link-local: AWS and Google Cloud in IPv6, Alibaba Cloud in IPv4.
      if (q.type === 'AAAA' && q.name === 'aws6.test') reply.answers = [{ type: 'AAAA', name: q.name, ttl: 0, class: 'IN', data: 'fd00:ec2::254' }];
      if (q.type === 'AAAA' && q.name === 'gcp6.test') reply.answers = [{ type: 'AAAA', name: q.name, ttl: 0, class: 'IN', data: 'fd20:ce::254' }];
      if (q.type === 'A' && q.name === 'alibaba.test') reply.answers = [{ type: 'A', name: q.name, ttl: 0, class: 'IN', data: '100.100.100.200' }];
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
    const refusedUrls = [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://metadata.google.internal/',
      `http://meta.test:${port}/`,
      // The metadata addresses outside link-local (AWS IPv6, Google Cloud IPv6, Alibaba Cloud), as literals, in the
      // IPv6 forms that carry the IPv4 one, and as a DNS answer for an innocent-looking name.
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://[fd00:ec2::23]/',
      'http://[fd20:ce::254]/computeMetadata/v1/',
      'http://100.100.100.200/latest/meta-data/',
      'http://[::ffff:100.100.100.200]/',
      'http://[64:ff9b::6464:64c8]/',
      'http://[2002:6464:64c8::]/',
      `http://aws6.test:${port}/`,
      `http://gcp6.test:${port}/`,
      `http://alibaba.test:${port}/`,
    ];
    for (const url of refusedUrls) {
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

  it('the operator policy refuses exactly the metadata addresses among private ones (resolver answers as given)', async () => {
    const check = (address: string) =>
      resolveChecked('api.provider.example', { allowPrivate: false, operator: true, resolve: async () => [{ address, family: address.includes(':') ? 6 : 4 }] }).then(
        () => 'accepted',
        (e: Error) => e.name,
      );
    for (const address of ['fd00:ec2::254', 'fd00:ec2::1', 'fd20:ce::254', '100.100.100.200', '::ffff:100.100.100.200', '169.254.169.254']) {
      expect([address, await check(address)]).toEqual([address, 'RefusedAddress']);
    }
    for (const address of ['fd00:ec2:0:1::254', 'fd20:cf::254', '100.100.100.201', '100.64.0.1', '10.0.0.5', 'fd12::1', '127.0.0.1', '::1']) {
      expect([address, await check(address)]).toEqual([address, 'accepted']);
    }
  });
});

/**
 * Answers to outbound requests are read up to a bound per client (docs/security.md, "Outbound requests"): a server
 * that streams an endless body (an account's own SMS API, a hijacked provider host) gets its connection closed once
 * the bound is passed, and the call ends with the client's documented error. The server here offers 64 MB per answer;
 * the check is that it never got to send it all.
 */
describe('bounded answers of outbound requests', () => {
  jest.setTimeout(60_000);
  useEnv({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, ['AI_API_URL', 'AI_API_KEY']);
  let server: BigAnswerServer;
  beforeAll(async () => {
    server = await startBigAnswerServer();
  });
  afterAll(() => server.close());

  /** The latest answer was cut off: the connection closed before the server had sent all it meant to. */
  const cutOff = async () => {
    const end = await server.lastEnd();
    expect(end.finished).toBe(false);
    expect(end.sent).toBeLessThan(server.total / 2);
  };
  const account = () => ({ accountSid: 'AC0123456789abcdef0123456789abcdef', authToken: 'x', fromNumber: '+15005550006', baseUrl: server.url });

  it("an account's own SMS API (guarded client): refused past 64 KB, as the provider's refusal or unavailability by status", async () => {
    expect(SMS_ANSWER_MAX_BYTES).toBe(64 * 1024);
    for (const guarded of [true, false]) {
      server.set({ status: 400 });
      const refused = await twilioSender(account(), 'sms', { guarded }).send({ to: '+14155550190', body: 'x' }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(MessagingRejected);
      expect((refused as Error).message).toBe('The SMS provider refused the message (400): HTTP 400 (an answer over 64 KB, not read)');
      await cutOff();

      server.set({ status: 201 });
      const noSid = await twilioSender(account(), 'sms', { guarded }).send({ to: '+14155550190', body: 'x' }).catch((e: unknown) => e);
      expect(noSid).toBeInstanceOf(MessagingRejected);
      expect((noSid as Error).message).toMatch(/answered 201 without a message sid \(an answer over 64 KB, not read\)/);
      await cutOff();

      server.set({ status: 503 });
      await expect(twilioSender(account(), 'sms', { guarded }).send({ to: '+14155550190', body: 'x' })).rejects.toBeInstanceOf(MessagingUnavailable);
      await cutOff();
    }
  });

  it('a declared Content-Length over the bound is refused before the body is read', async () => {
    server.set({ status: 400, declareLength: true });
    const refused = await twilioSender(account(), 'sms', { guarded: true }).send({ to: '+14155550190', body: 'x' }).catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/over 64 KB, not read/);
    await cutOff();
    const res = await guardedFetch(server.url, {}, { allowPrivate: true });
    await expect(readBounded(res, 1024)).rejects.toBeInstanceOf(AnswerTooLarge);
    await cutOff();
  });

  it('the platform clients (Google, Facebook): refused past 8 MB; a 2xx as unavailable, a 4xx as the refusal', async () => {
    expect(PROVIDER_ANSWER_MAX_BYTES).toBe(8 * 1024 * 1024);
    server.set({ status: 200 });
    const ok = await platformRequest('google', { url: `${server.url}/v4/accounts` }, (b) => ({ message: nestedErrorMessage(b) })).catch((e: unknown) => e);
    expect(ok).toBeInstanceOf(ProviderUnavailable);
    expect((ok as Error).message).toBe('google answered 200 with an answer over 8 MB, not read');
    await cutOff();
    server.set({ status: 403 });
    const refused = await platformRequest('google', { url: `${server.url}/v4/accounts` }, (b) => ({ message: nestedErrorMessage(b) })).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProviderRejected);
    expect(refused).toMatchObject({ status: 403, reason: 'HTTP 403 (an answer over 8 MB, not read)' });
    await cutOff();
  });

  it('the chat API, the geocoder and the grid provider: refused past their bounds with their own errors', async () => {
    server.set({ status: 200 });
    process.env.AI_API_URL = server.url;
    delete process.env.AI_API_KEY;
    expect(CHAT_ANSWER_MAX_BYTES).toBe(2 * 1024 * 1024);
    const chat = await chatComplete([{ role: 'user', content: 'hi' }]).catch((e: unknown) => e);
    expect(chat).toBeInstanceOf(ChatError);
    expect(chat).toMatchObject({ kind: 'bad_response', message: 'The chat API answered with more than 2 MB.' });
    await cutOff();

    const geocoded = await new GoogleGeocoder({ apiKey: 'k', baseUrl: server.url }).geocode('Main St 1').catch((e: unknown) => e);
    expect(geocoded).toBeInstanceOf(GridProviderUnavailable);
    expect((geocoded as Error).message).toMatch(/HTTP 200: an answer over 8 MB, not read/);
    await cutOff();

    const grid = new DataForSeoClient({ login: 'l', password: 'p', baseUrl: server.url });
    const ranked = await grid.searchMaps({ keyword: 'pizza', lat: 1, lng: 2 }).catch((e: unknown) => e);
    expect(ranked).toBeInstanceOf(GridProviderUnavailable);
    await cutOff();
    server.set({ status: 400 });
    const refused = await grid.searchMaps({ keyword: 'pizza', lat: 1, lng: 2 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GridProviderRejected);
    expect((refused as Error).message).toMatch(/HTTP 400: an answer over 8 MB, not read/);
    await cutOff();
  });

  it("a webhook receiver's answer: the first KB is kept, the rest not read", async () => {
    server.set({ status: 200 });
    const res = await guardedFetch(server.url, { method: 'POST', body: '{}' }, { allowPrivate: true });
    expect(await readExcerpt(res)).toBe('a'.repeat(1024));
    await cutOff();
  });
});
