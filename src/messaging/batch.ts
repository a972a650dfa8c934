import { randomUUID } from 'node:crypto';
import { systemClock } from '../domain/clock';
import { Campaign, Contact, Customer, Invite, InviteMessage, Organization } from '../models';
import type { CampaignStep } from '../models/campaign.model';
import { consumeCreditEach } from '../services/credits.service';
import { optedOut } from '../services/opt-outs';
import {
  claimedInvite,
  creditReference,
  creditTypeOf,
  DUE_TOLERANCE_MS,
  followUpLater,
  followUpStop,
  isPaused,
  plannedSteps,
  prepareStep,
  recipientOf,
  claimResolver,
  unsubscribed,
  type Claimed,
  type DeliveryOptions,
  type Loaded,
  type PreparedStep,
  type StepInput,
} from './delivery';
import type { DueOutcome, DueStep } from './send-queue';
import { inviteDeliverySettings } from './settings';
import type { ChannelSender } from './types';

/**
 * A batch of due steps claimed in one transaction (issue 17 item 2): the invites locked with one statement, their
 * campaigns, contacts, accounts, organisations and step rows read with one each, the credits of each account taken
 * with one lock of its grants, the step rows written `sending` with one insert. The rules are the one-at-a-time claim's
 * (`sendInviteStep` after `planInvite`, src/messaging/delivery.ts), and so is what is written; what the batch does not
 * decide itself goes to that path, one step at a time, after the batch's commit: a contact who unsubscribed, an invite
 * far later than planned (the send window), one that cannot reach its contact or whose sender is refused, a step row
 * already there (a retry, an interrupted attempt), credits that ran out, a due step of the `stale` kind.
 */
export interface BatchClaim {
  /** Claimed: each to be sent, then settled (`settleSent`). */
  claimed: Array<{ due: DueStep; claim: Claimed; input: StepInput }>;
  /** Decided without sending anything. */
  decided: Array<{ due: DueStep; outcome: DueOutcome }>;
  /** Left to the one-at-a-time path (`sendDueStep`). */
  single: DueStep[];
}

const db = () => {
  const s = Invite.sequelize;
  if (!s) throw new Error('Database not initialised');
  return s;
};

const unique = <T>(values: T[]): T[] => [...new Set(values)];

async function byId<M extends { id: number }>(rows: Promise<M[]>): Promise<Map<number, M>> {
  return new Map((await rows).map((r) => [r.id, r]));
}

interface Pending {
  due: DueStep;
  loaded: Loaded;
  step: CampaignStep;
  input: StepInput;
  recipient: string;
}

export async function claimBatch(dues: readonly DueStep[], opts: DeliveryOptions = {}): Promise<BatchClaim> {
  const clock = opts.clock ?? systemClock;
  const out: BatchClaim = { claimed: [], decided: [], single: dues.filter((d) => d.kind === 'stale') };
  const batch = dues.filter((d) => d.kind !== 'stale');
  if (batch.length === 0) return out;
  const settings = inviteDeliverySettings();
  const resolve = claimResolver(opts);

  await db().transaction(async (transaction) => {
    const now = clock.now();
    const ids = unique(batch.map((d) => d.inviteId));
    const invites = await byId(Invite.findAll({ where: { id: ids }, order: [['id', 'ASC']], transaction, lock: transaction.LOCK.UPDATE }));
    const rows = [...invites.values()];
    const [campaigns, contacts, customers, claimedSteps] = await Promise.all([
      byId(Campaign.findAll({ where: { id: unique(rows.map((i) => i.campaignId)) }, transaction })),
      byId(Contact.findAll({ where: { id: unique(rows.map((i) => i.contactId)) }, transaction })),
      byId(Customer.findAll({ where: { id: unique(rows.map((i) => i.customerId)) }, transaction })),
      InviteMessage.findAll({ attributes: ['inviteId', 'stepIndex'], where: { inviteId: ids }, transaction }),
    ]);
    const organizations = await byId(Organization.findAll({ where: { id: unique([...campaigns.values()].map((c) => c.organizationId)) }, transaction }));
    const stepTaken = new Set(claimedSteps.map((m) => `${m.inviteId}:${m.stepIndex}`));
    // The organisations' opt-outs of the invites' contacts (src/services/opt-outs.ts), one statement for the batch.
    const keyed = rows.filter((i) => campaigns.has(i.campaignId) && contacts.get(i.contactId)?.unsubscribedAt === null);
    const outs = await optedOut(
      keyed.map((i) => ({ customerId: i.customerId, organizationId: campaigns.get(i.campaignId)!.organizationId, email: contacts.get(i.contactId)!.email, phone: contacts.get(i.contactId)!.phone })),
      transaction,
    );
    const optedOutInvites = new Set(keyed.filter((_, n) => outs[n]).map((i) => i.id));

    const pending: Pending[] = [];
    const seen = new Set<number>();
    for (const due of batch) {
      const invite = invites.get(due.inviteId);
      const campaign = invite && campaigns.get(invite.campaignId);
      const contact = invite && contacts.get(invite.contactId);
      if (seen.has(due.inviteId)) {
        out.single.push(due);
        continue;
      }
      seen.add(due.inviteId);
      if (!invite || !campaign || !contact) {
        out.decided.push({ due, outcome: due.kind === 'first' ? 'done' : 'stopped' });
        continue;
      }
      const loaded: Loaded = { invite, campaign, contact, customer: customers.get(invite.customerId) ?? null, optedOut: optedOutInvites.has(invite.id) };
      let stepIndex: number;
      if (due.kind === 'first') {
        // planInvite's rules.
        if (invite.status !== 'scheduled' || isPaused(campaign, loaded.customer)) {
          out.decided.push({ due, outcome: 'done' });
          continue;
        }
        const sendAt = invite.sendAt ?? invite.requestedAt;
        if (sendAt.getTime() > now.getTime() + DUE_TOLERANCE_MS) {
          out.decided.push({ due, outcome: 'waiting' });
          continue;
        }
        const steps = plannedSteps(campaign, contact);
        if (unsubscribed(loaded) || now.getTime() - sendAt.getTime() > settings.lateAfterMs || steps.length === 0) {
          out.single.push(due);
          continue;
        }
        stepIndex = steps[0].index;
        if (stepTaken.has(`${invite.id}:${stepIndex}`)) {
          out.single.push(due);
          continue;
        }
      } else {
        stepIndex = due.stepIndex!;
        if (stepTaken.has(`${invite.id}:${stepIndex}`)) {
          out.single.push(due);
          continue;
        }
        if (followUpStop(loaded, campaign.steps?.[stepIndex])) {
          // The invite's steps end here (as `sendDueStep` ends them).
          await Invite.update({ nextStepIndex: null, nextStepAt: null }, { where: { id: invite.id, nextStepIndex: stepIndex }, transaction });
          out.decided.push({ due, outcome: 'stopped' });
          continue;
        }
        // Not due yet, or found late with the send window closed: the one-at-a-time claim waits or moves it.
        if (followUpLater(loaded, now)) {
          out.single.push(due);
          continue;
        }
      }
      const step = campaign.steps![stepIndex];
      const recipient = recipientOf(step.channel, contact);
      if (!recipient) {
        out.single.push(due);
        continue;
      }
      pending.push({ due, loaded, step, recipient, input: { inviteId: invite.id, stepIndex, first: due.kind === 'first' } });
    }

    // Senders: one per account, channel and sender name in the batch. One that is refused (no provider, an SMS API
    // address that is not allowed) leaves its steps to the one-at-a-time path, which records why. An account's SMTP
    // host is resolved and checked by its sender when it sends (a refusal then fails the step as the provider's would).
    const senders = new Map<string, Promise<ChannelSender>>();
    const cachedResolve: typeof resolve = (customerId, channel, o) => {
      const key = `${customerId}:${channel}:${o.fromName ?? ''}`;
      if (!senders.has(key)) senders.set(key, resolve(customerId, channel, o));
      return senders.get(key)!;
    };
    const ready: Array<Pending & { prepared: PreparedStep }> = [];
    for (const p of pending) {
      try {
        const prepared = await prepareStep(p.loaded, p.step, p.input.stepIndex, cachedResolve, transaction, organizations.get(p.loaded.campaign.organizationId) ?? null);
        ready.push({ ...p, prepared });
      } catch {
        out.single.push(p.due);
      }
    }

    // Credits: one lock of each account's grants for its steps; steps beyond its credits fail one at a time.
    const byAccount = new Map<string, typeof ready>();
    for (const r of ready) {
      const key = `${r.loaded.invite.customerId}:${creditTypeOf(r.step.channel)}`;
      if (!byAccount.has(key)) byAccount.set(key, []);
      byAccount.get(key)!.push(r);
    }
    const claiming: typeof ready = [];
    for (const key of [...byAccount.keys()].sort()) {
      const group = byAccount.get(key)!;
      const { customerId } = group[0].loaded.invite;
      const credited = await consumeCreditEach(customerId, creditTypeOf(group[0].step.channel), group.map((r) => creditReference(r.loaded.invite, r.input.stepIndex)), transaction, { clock });
      claiming.push(...group.slice(0, credited));
      out.single.push(...group.slice(credited).map((r) => r.due));
    }
    if (claiming.length === 0) return;

    const messages = await InviteMessage.bulkCreate(
      claiming.map((r) => ({
        tenantId: r.loaded.invite.tenantId,
        inviteId: r.loaded.invite.id,
        stepIndex: r.input.stepIndex,
        channel: r.step.channel,
        status: 'sending' as const,
        claimToken: randomUUID(),
        recipient: r.recipient,
        sentAt: now,
      })),
      { transaction },
    );
    // The invites that the claim leaves alike (a campaign's first steps, say) are written with one statement.
    const updates = new Map<string, { values: ReturnType<typeof claimedInvite>; ids: number[] }>();
    for (const r of claiming) {
      const values = claimedInvite(r.loaded, r.input, now);
      const key = JSON.stringify(values);
      if (!updates.has(key)) updates.set(key, { values, ids: [] });
      updates.get(key)!.ids.push(r.loaded.invite.id);
    }
    for (const { values, ids } of updates.values()) await Invite.update(values, { where: { id: ids }, transaction });
    for (const [i, r] of claiming.entries()) {
      out.claimed.push({
        due: r.due,
        input: r.input,
        claim: { loaded: r.loaded, message: messages[i], ...r.prepared, recipient: r.recipient, channel: r.step.channel, again: false },
      });
    }
  });
  return out;
}
