import { accountLanguage } from './page-language';
import { Op, type Transaction } from 'sequelize';
import { contactUuidOfUnsubscribeToken } from '../messaging/links';
import { Campaign, Contact, ContactList, Customer, Invite, Organization, Tenant } from '../models';
import { clockOf, inTransaction, type ServiceOptions } from './common';
import { logActivity } from './invites.service';
import { optOutScopeOf, recordOptOut } from './opt-outs';

/**
 * The public unsubscribe link of review requests (`/u/{token}`, see src/messaging/links.ts). The token names one
 * contact record (one person in one contact list, so every campaign sharing that list stops), and unsubscribing
 * is idempotent: the first time marks the contact, logs an `unsubscribed` activity and cancels the contact's
 * waiting invites (status `canceled`) and follow-ups; later times change nothing.
 *
 * The page promises no further review requests from the business it names, so the unsubscribe holds for that
 * organisation as a whole (src/services/opt-outs.ts): the contact's email and phone are recorded as opted out, the
 * same person's contacts in the organisation's other lists are marked unsubscribed too, and waiting invites and
 * follow-ups of the organisation's campaigns to that email or phone stop, whichever list they came from.
 */

export interface UnsubscribeView {
  contact: Contact;
  /** The agency's brand (white label) for the page, and the language of the account (else the agency's). */
  brand: { name: string; logoUrl: string | null; language: string };
  /** Who the person heard from: the organisation of the contact list, else of a campaign using it, else the account. */
  businessName: string;
}

export interface UnsubscribeResult extends UnsubscribeView {
  /** It was already unsubscribed: nothing changed. */
  already: boolean;
  /** Waiting invites canceled now. */
  canceled: number;
}


async function viewOf(contact: Contact, opts: ServiceOptions): Promise<UnsubscribeView> {
  const transaction = opts.transaction;
  const [tenant, list, customer] = await Promise.all([
    Tenant.findByPk(contact.tenantId, { transaction }),
    ContactList.findByPk(contact.contactListId, { transaction }),
    Customer.findByPk(contact.customerId, { transaction }),
  ]);
  let organizationId = list?.organizationId ?? null;
  if (!organizationId) {
    const campaign = await Campaign.findOne({ where: { contactListId: contact.contactListId }, order: [['id', 'ASC']], transaction });
    organizationId = campaign?.organizationId ?? null;
  }
  const org = organizationId ? await Organization.findByPk(organizationId, { transaction }) : null;
  return {
    contact,
    brand: { name: tenant?.brandName || tenant?.name || 'Review requests', logoUrl: tenant?.logoUrl ?? null, language: accountLanguage(customer, tenant) },
    businessName: org?.name ?? customer?.name ?? tenant?.brandName ?? 'this business',
  };
}

/** The contact and page brand of a token; null for a malformed or forged token, or a contact that is gone. */
export async function unsubscribeViewOf(token: string, opts: ServiceOptions = {}): Promise<UnsubscribeView | null> {
  const uuid = contactUuidOfUnsubscribeToken(token);
  if (!uuid) return null;
  const contact = await Contact.findOne({ where: { uuid }, transaction: opts.transaction });
  return contact ? viewOf(contact, opts) : null;
}

/** Unsubscribes the token's contact (idempotent); null for an invalid token. */
export async function unsubscribeByToken(
  token: string,
  opts: ServiceOptions = {},
): Promise<UnsubscribeResult | null> {
  const uuid = contactUuidOfUnsubscribeToken(token);
  if (!uuid) return null;
  const now = clockOf(opts).now();
  const outcome = await inTransaction(opts, async (transaction) => {
    const contact = await Contact.findOne({ where: { uuid }, transaction, lock: transaction.LOCK.UPDATE });
    if (!contact) return null;
    if (contact.unsubscribedAt) return { contact, already: true, canceled: 0 };
    await contact.update({ unsubscribedAt: now }, { transaction });
    const waiting = await Invite.findAll({ where: { contactId: contact.id, status: 'scheduled' }, transaction, lock: transaction.LOCK.UPDATE });
    for (const invite of waiting) {
      await invite.update({ status: 'canceled', reason: 'The contact unsubscribed.' }, { transaction });
    }
    await logActivity(
      { tenantId: contact.tenantId, customerId: contact.customerId, contactId: contact.id, type: 'unsubscribed', detail: 'Unsubscribed through the link in a review request.', occurredAt: now },
      { transaction, clock: opts.clock },
    );
    // Sent invites may still have follow-up steps waiting: they stop too.
    await Invite.update({ nextStepIndex: null, nextStepAt: null }, { where: { contactId: contact.id, status: 'sent', nextStepIndex: { [Op.ne]: null } }, transaction });
    const organizations = await optOutScopeOf(contact, transaction);
    await recordOptOut(contact, organizations, now, transaction);
    const elsewhere = await stopElsewhere(contact, organizations, now, transaction, opts);
    return { contact, already: false, canceled: waiting.length + elsewhere };
  });
  if (!outcome) return null;
  const view = await viewOf(outcome.contact, opts);
  return { ...view, already: outcome.already, canceled: outcome.canceled };
}

/**
 * The same person elsewhere in the account (a contact of another list with the email or the phone): waiting invites
 * and follow-ups of the covered organisations' campaigns stop, and contacts of those organisations' own lists are
 * marked unsubscribed (a list of no organisation may serve others: its contact is left as it is, and the opt-out
 * stops what the covered organisations send it). Returns how many waiting invites were canceled.
 */
async function stopElsewhere(contact: Contact, organizations: number[] | null, now: Date, transaction: Transaction, opts: ServiceOptions): Promise<number> {
  const keys = [contact.email ? { email: contact.email } : null, contact.phone ? { phone: contact.phone } : null].filter((k) => k !== null);
  if (keys.length === 0) return 0;
  // Found by a plain read, then locked by id: a locking read here would lock every contact row of the account it scans
  // (there is no index by email or phone per account), so two unsubscribes in one account deadlocked.
  const found = await Contact.findAll({
    attributes: ['id'],
    where: { customerId: contact.customerId, id: { [Op.ne]: contact.id }, [Op.or]: keys },
    transaction,
  });
  if (found.length === 0) return 0;
  const others = await Contact.findAll({ where: { id: found.map((c) => c.id) }, order: [['id', 'ASC']], transaction, lock: transaction.LOCK.UPDATE });
  if (others.length === 0) return 0;
  const campaigns = await Campaign.findAll({
    attributes: ['id'],
    where: { customerId: contact.customerId, ...(organizations ? { organizationId: organizations } : {}) },
    transaction,
  });
  const covered = { contactId: others.map((c) => c.id), campaignId: campaigns.map((c) => c.id) };
  let canceled = 0;
  if (covered.campaignId.length) {
    [canceled] = await Invite.update({ status: 'canceled', reason: 'The contact unsubscribed.' }, { where: { ...covered, status: 'scheduled' }, transaction });
    await Invite.update({ nextStepIndex: null, nextStepAt: null }, { where: { ...covered, status: 'sent', nextStepIndex: { [Op.ne]: null } }, transaction });
  }
  const lists = await ContactList.findAll({ attributes: ['id', 'organizationId'], where: { id: [...new Set(others.map((c) => c.contactListId))] }, transaction });
  const own = new Set(lists.filter((l) => (organizations ? l.organizationId !== null && organizations.includes(l.organizationId) : true)).map((l) => l.id));
  for (const other of others.filter((c) => !c.unsubscribedAt && own.has(c.contactListId))) {
    await other.update({ unsubscribedAt: now }, { transaction });
    await logActivity(
      { tenantId: other.tenantId, customerId: other.customerId, contactId: other.id, type: 'unsubscribed', detail: 'Unsubscribed through the link in a review request to the same person in another contact list.', occurredAt: now },
      { transaction, clock: opts.clock },
    );
  }
  return canceled;
}
