import { sendInviteStep, type StepResult } from '../../src/messaging/delivery';
import { InviteMessage, MessagingSetting } from '../../src/models';
import { useDatabase } from '../support/db';
import { makeWorld } from '../support/factories';
import { startSmtpServer, type SmtpSink } from '../support/providers/smtp';
import { giveCredits, makeCampaign, makeContact, makeInvite } from './fixtures';

/**
 * Found by `npm run bench:invites`: each step claim held its pool connection while the account's SMTP settings
 * were read on a second one, so as many simultaneous claims as pool connections waited for each other until the
 * pool's acquire timeout (60 s) and the activities failed. This file's pool has 5 connections.
 */
describe('simultaneous invite sends through the account SMTP server', () => {
  useDatabase();
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

  it('sends 12 first steps at once on a pool of 5 connections without starving it', async () => {
    const w = await makeWorld();
    await giveCredits(w, 'email', 12);
    await MessagingSetting.create({
      tenantId: w.org.tenantId,
      customerId: w.org.customerId,
      channel: 'email',
      config: { host: '127.0.0.1', port: sink.port, secure: false, username: null, fromEmail: 'reviews@example.test', fromName: null },
      secretEncrypted: null,
    });
    const campaign = await makeCampaign(w);
    const invites = await Promise.all(
      Array.from({ length: 12 }, async () => makeInvite(campaign, await makeContact(campaign), new Date(Date.now() - 1_000))),
    );

    const sends = Promise.all(invites.map((invite) => sendInviteStep({ inviteId: invite.id, stepIndex: 0, first: true })));
    const starved = new Promise<'starved'>((resolve) => setTimeout(() => resolve('starved'), 15_000).unref());
    const results = await Promise.race([sends, starved]);

    expect(results).not.toBe('starved');
    expect((results as StepResult[]).map((r) => r.outcome)).toEqual(Array(12).fill('sent'));
    await sink.waitFor(12);
    const messages = await InviteMessage.findAll({ where: { inviteId: invites.map((i) => i.id) } });
    expect(messages.map((m) => m.status)).toEqual(Array(12).fill('sent'));
  }, 90_000);
});
