import dgram from 'node:dgram';
import * as dnsPacket from 'dns-packet';
import { sendInviteStep, type StepResult } from '../../src/messaging/delivery';
import { sendDueSteps } from '../../src/messaging/send-queue';
import { Invite, InviteMessage } from '../../src/models';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { startSmtpServer, type SmtpSink } from '../support/providers/smtp';
import { giveCredits, makeCampaign, makeContact, makeInvite, useOwnSmtp } from './fixtures';

/**
 * Found by `npm run bench:invites`: each step claim held its pool connection while the account's SMTP settings
 * were read on a second one, so as many simultaneous claims as pool connections waited for each other until the
 * pool's acquire timeout (60 s) and the activities failed. This file's pool has 5 connections.
 */
describe('simultaneous invite sends through the account SMTP server', () => {
  const db = useDatabase();
  let sink: SmtpSink;
  const saved = process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
  beforeAll(async () => {
    sink = await startSmtpServer();
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true'; // the SMTP host is 127.0.0.1
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
    else process.env.WEBHOOK_ALLOW_PRIVATE_URLS = saved;
    await sink.close();
  });

  async function accountSmtp(host: string) {
    const w = await makeWorld();
    await giveCredits(w, 'email', 12);
    await useOwnSmtp(w, host, sink.port);
    return w;
  }

  /**
   * A claim locks its invites; an account's SMTP host name is resolved (DNS, seconds when a resolver is slow) when its
   * message is sent, after the claim's commit, not while the locks are held. A DNS server holds its answer for `slow-mail.test` while the test tries to lock
   * the invites from another connection without waiting.
   */
  describe('an SMTP host whose DNS answer is slow', () => {
    let dns: dgram.Socket;
    const held: Array<() => void> = [];
    let queried: () => void = () => undefined;
    const savedDns = process.env.OUTBOUND_DNS_SERVERS;
    beforeAll(async () => {
      dns = dgram.createSocket('udp4');
      dns.on('message', (msg, rinfo) => {
        const query = dnsPacket.decode(msg);
        const q = query.questions?.[0];
        if (!q) return;
        const answers: dnsPacket.Answer[] = q.type === 'A' && q.name === 'slow-mail.test' ? [{ type: 'A', name: q.name, ttl: 0, class: 'IN', data: '127.0.0.1' }] : [];
        const reply = () => dns.send(dnsPacket.encode({ type: 'response', id: query.id, flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE, questions: query.questions, answers }), rinfo.port, rinfo.address);
        held.push(reply);
        queried();
      });
      await new Promise<void>((resolve) => dns.bind(0, '127.0.0.1', resolve));
      process.env.OUTBOUND_DNS_SERVERS = `127.0.0.1:${dns.address().port}`;
    });
    afterAll(() => {
      if (savedDns === undefined) delete process.env.OUTBOUND_DNS_SERVERS;
      else process.env.OUTBOUND_DNS_SERVERS = savedDns;
      dns.close();
    });

    /** Whether another transaction can lock these invites at once (MariaDB's NOWAIT: an error if one is locked). */
    const lockable = (ids: number[]) =>
      db()
        .transaction((transaction) => db().query(`SELECT id FROM invites WHERE id IN (${ids.join(',')}) FOR UPDATE NOWAIT`, { transaction }))
        .then(
          () => true,
          () => false,
        );

    /** Starts `send`, waits for its DNS query, tries the invites' locks, then lets the answer go. */
    async function whileResolving(ids: number[], send: () => Promise<unknown>): Promise<{ lockable: boolean; result: unknown }> {
      const asked = new Promise<void>((resolve) => (queried = resolve));
      const sending = send();
      await asked;
      const free = await lockable(ids);
      held.splice(0).forEach((reply) => reply());
      queried = () => held.splice(0).forEach((reply) => reply()); // answer later queries (AAAA) at once
      return { lockable: free, result: await sending };
    }

    it('one invite: the invite is not locked while its SMTP host is resolved, and the step is sent', async () => {
      const w = await accountSmtp('slow-mail.test');
      const campaign = await makeCampaign(w);
      const invite = await makeInvite(campaign, await makeContact(campaign), new Date(Date.now() - 1_000));
      const before = sink.messages.length;

      const { lockable: free, result } = await whileResolving([invite.id], () => sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true }));

      expect(free).toBe(true);
      expect(result).toEqual({ outcome: 'sent', reason: null, sendAt: null });
      await sink.waitFor(before + 1);
    }, 30_000);

    it('a batch: its invites are not locked while the SMTP host is resolved, and every step is sent', async () => {
      const w = await accountSmtp('slow-mail.test');
      const campaign = await makeCampaign(w);
      const invites = await Promise.all(Array.from({ length: 4 }, async () => makeInvite(campaign, await makeContact(campaign), new Date(Date.now() - 1_000))));
      const ids = invites.map((i) => i.id);
      const before = sink.messages.length;

      const { lockable: free, result } = await whileResolving(ids, () =>
        sendDueSteps(
          ids.map((inviteId) => ({ inviteId, stepIndex: null, kind: 'first' as const })),
          (work) => work(),
        ),
      );

      expect(free).toBe(true);
      expect(result).toEqual(ids.map(() => ({ status: 'fulfilled', value: 'sent' })));
      await sink.waitFor(before + 4);
      expect((await Invite.findAll({ where: { id: ids } })).map((i) => i.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
    }, 30_000);
  });

  it('sends 12 first steps at once on a pool of 5 connections without starving it', async () => {
    const w = await accountSmtp('127.0.0.1');
    const before = sink.messages.length;
    const campaign = await makeCampaign(w);
    const invites = await Promise.all(
      Array.from({ length: 12 }, async () => makeInvite(campaign, await makeContact(campaign), new Date(Date.now() - 1_000))),
    );

    const sends = Promise.all(invites.map((invite) => sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true })));
    const starved = new Promise<'starved'>((resolve) => setTimeout(() => resolve('starved'), 15_000).unref());
    const results = await Promise.race([sends, starved]);

    expect(results).not.toBe('starved');
    expect((results as StepResult[]).map((r) => r.outcome)).toEqual(Array(12).fill('sent'));
    await sink.waitFor(before + 12);
    const messages = await InviteMessage.findAll({ where: { inviteId: invites.map((i) => i.id) } });
    expect(messages.map((m) => m.status)).toEqual(Array(12).fill('sent'));
  }, 90_000);
});
