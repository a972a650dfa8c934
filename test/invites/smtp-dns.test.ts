import dgram from 'node:dgram';
import * as dnsPacket from 'dns-packet';
import { sendInviteStep } from '../../src/messaging/delivery';
import { sendDueSteps, type DueStep } from '../../src/messaging/send-queue';
import { configureInviteDelivery, resetInviteDelivery } from '../../src/messaging/settings';
import { MessagingUnavailable } from '../../src/messaging/types';
import { Contact, Invite, InviteMessage } from '../../src/models';
import { creditBalance } from '../../src/services/credits.service';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { startSmtpServer, type SmtpSink } from '../support/providers/smtp';
import { giveCredits, makeCampaign, makeContact, makeInvite, useOwnSmtp } from './fixtures';

/**
 * An account's SMTP host name as its DNS answers it (a local DNS server, OUTBOUND_DNS_SERVERS, as in
 * test/security/ssrf.test.ts), on the real database and a real SMTP server on loopback:
 * - review finding M3: a DNS that fails to answer (SERVFAIL) is a provider not reachable now, retried; only a name that
 *   does not exist (NXDOMAIN) fails the invite `provider_rejected`;
 * - review finding H1: a DNS that does not answer for one account's host holds up that account's steps only.
 */
describe('account SMTP hosts and their DNS answers', () => {
  useDatabase();
  let sink: SmtpSink;
  let dns: dgram.Socket;
  /** What the DNS server does for each name: answer 127.0.0.1, SERVFAIL, NXDOMAIN, or hold its answer. */
  const behaviour = new Map<string, 'ok' | 'servfail' | 'nxdomain' | 'hold'>();
  const held: Array<() => void> = [];
  let asked: (name: string) => void = () => undefined;
  const saved = { dns: process.env.OUTBOUND_DNS_SERVERS, privateUrls: process.env.WEBHOOK_ALLOW_PRIVATE_URLS };

  beforeAll(async () => {
    configureInviteDelivery({ inFlightGraceMs: 60_000 });
    sink = await startSmtpServer();
    dns = dgram.createSocket('udp4');
    dns.on('message', (msg, rinfo) => {
      const query = dnsPacket.decode(msg);
      const q = query.questions?.[0];
      if (!q) return;
      const what = behaviour.get(q.name) ?? 'nxdomain';
      const rcode = what === 'servfail' ? 2 : what === 'nxdomain' ? 3 : 0;
      const answers: dnsPacket.Answer[] = (what === 'ok' || what === 'hold') && q.type === 'A' ? [{ type: 'A', name: q.name, ttl: 0, class: 'IN', data: '127.0.0.1' }] : [];
      const reply = () =>
        dns.send(dnsPacket.encode({ type: 'response', id: query.id, flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | rcode, questions: query.questions, answers }), rinfo.port, rinfo.address);
      if (what === 'hold' && q.type === 'A') {
        held.push(reply);
        asked(q.name);
      } else reply();
    });
    await new Promise<void>((resolve) => dns.bind(0, '127.0.0.1', resolve));
    process.env.OUTBOUND_DNS_SERVERS = `127.0.0.1:${dns.address().port}`;
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = 'true'; // the SMTP server is on loopback
  });
  afterAll(async () => {
    for (const [key, value] of [['OUTBOUND_DNS_SERVERS', saved.dns], ['WEBHOOK_ALLOW_PRIVATE_URLS', saved.privateUrls]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    held.splice(0).forEach((reply) => reply());
    dns.close();
    await sink.close();
    resetInviteDelivery();
  });

  /** An account whose own SMTP server is `host` (the sink's port), with a campaign and `n` due invites. */
  async function accountWithSmtp(host: string, n = 1) {
    const w = await makeWorld();
    await giveCredits(w, 'email', 5);
    await useOwnSmtp(w, host, sink.port);
    const campaign = await makeCampaign(w);
    const invites = await Promise.all(Array.from({ length: n }, async () => makeInvite(campaign, await makeContact(campaign), new Date(Date.now() - 1_000))));
    return { w, invites };
  }
  const first = (invite: Invite): DueStep => ({ inviteId: invite.id, stepIndex: null, kind: 'first' });
  const emailOf = async (invite: Invite) => (await Contact.findByPk(invite.contactId))!.email!;

  it('tries a step again when the DNS fails to answer for the SMTP host (SERVFAIL), and sends it once it answers (M3)', async () => {
    behaviour.set('flaky-mail.test', 'servfail');
    const { w, invites } = await accountWithSmtp('flaky-mail.test');
    const [invite] = invites;

    await expect(sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true })).rejects.toBeInstanceOf(MessagingUnavailable);
    expect(await Invite.findByPk(invite.id)).toMatchObject({ status: 'scheduled', reason: null });
    expect(await InviteMessage.count({ where: { inviteId: invite.id } })).toBe(0);
    expect(await creditBalance(w.org.customerId, 'email')).toBe(5);
    // Through the queue: put back for a retry, not failed.
    const [outcome] = await sendDueSteps([first(invite)], (work) => work());
    expect(outcome).toEqual({ status: 'fulfilled', value: 'retry' });
    expect(await Invite.findByPk(invite.id)).toMatchObject({ status: 'scheduled', sendAttempts: 1 });

    behaviour.set('flaky-mail.test', 'ok');
    expect(await sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true })).toEqual({ outcome: 'sent', reason: null, sendAt: null });
    expect(sink.to(await emailOf(invite))).toHaveLength(1);
  });

  it('fails the invite provider_rejected when the SMTP host does not exist (NXDOMAIN), its credit given back', async () => {
    behaviour.set('no-such-mail.test', 'nxdomain');
    const { w, invites } = await accountWithSmtp('no-such-mail.test');
    const [invite] = invites;
    expect(await sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true })).toMatchObject({ outcome: 'failed', reason: expect.stringMatching(/^provider_rejected: The SMTP host is not allowed: /) });
    expect(await Invite.findByPk(invite.id)).toMatchObject({ status: 'failed', reason: expect.stringMatching(/^provider_rejected: /) });
    expect(await creditBalance(w.org.customerId, 'email')).toBe(5);
  });

  it("sends another account's steps of the batch while one account's SMTP host waits for its DNS answer (H1)", async () => {
    behaviour.set('mute-mail.test', 'hold');
    const mute = await accountWithSmtp('mute-mail.test');
    const direct = await accountWithSmtp('127.0.0.1', 2);
    const questioned = new Promise<void>((resolve) => (asked = () => resolve()));

    const delivering = sendDueSteps([...mute.invites, ...direct.invites].map(first), (work) => work());
    try {
      await questioned;
      // The other account's messages arrive and are recorded while the DNS holds its answer.
      for (const invite of direct.invites) {
        const to = await emailOf(invite);
        const deadline = Date.now() + 5_000;
        while (sink.to(to).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(sink.to(to)).toHaveLength(1);
      }
      const deadline = Date.now() + 5_000;
      const recorded = () => InviteMessage.count({ where: { inviteId: direct.invites.map((i) => i.id), status: 'sent' } });
      while ((await recorded()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(await recorded()).toBe(2);
      expect(sink.to(await emailOf(mute.invites[0]))).toHaveLength(0);
    } finally {
      asked = () => held.splice(0).forEach((reply) => reply());
      held.splice(0).forEach((reply) => reply());
    }
    expect((await delivering).map((o) => (o.status === 'fulfilled' ? o.value : o.reason))).toEqual(['sent', 'sent', 'sent']);
    expect(sink.to(await emailOf(mute.invites[0]))).toHaveLength(1);
  }, 30_000);
});
