import { accountLanguage } from './page-language';
import { Op } from 'sequelize';
import { contactUuidOfUnsubscribeToken } from '../messaging/links';
import { Campaign, Contact, ContactList, Customer, Invite, Organization, Tenant } from '../models';
import { clockOf, inTransaction, type ServiceOptions } from './common';
import { logActivity } from './invites.service';

/**
 * The public unsubscribe link of review requests (`/u/{token}`, see src/messaging/links.ts). The token names one
 * contact record (one person in one contact list, so every campaign sharing that list stops), and unsubscribing
 * is idempotent: the first time marks the contact, logs an `unsubscribed` activity and cancels the contact's
 * waiting invites (status `canceled`, and a `cancel` signal to their workflows); later times change nothing.
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
    return { contact, already: false, canceled: waiting.length };
  });
  if (!outcome) return null;
  const view = await viewOf(outcome.contact, opts);
  return { ...view, already: outcome.already, canceled: outcome.canceled };
}
