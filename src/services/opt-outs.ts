import { QueryTypes, type Transaction } from 'sequelize';
import { Campaign, ContactList, type Contact } from '../models';

/**
 * Opt-outs: what an unsubscribe stops beyond the contact record its link names (docs/decisions/review-requests.md
 * "Unsubscribe links"). The page promises "no further review requests from <business>", and contacts live per list
 * (each new campaign gets a list of its own by default), so the unsubscribe also records the contact's email and
 * phone for the organisation (`contact_opt_outs`): any contact of the account with either of them is unsubscribed for
 * that organisation's campaigns, in every list, including contacts added later. The invite request checks it (an
 * `ignored` 202) and so does the send of every step (a waiting invite or a follow-up of another campaign stops).
 */

/** A contact as one of an organisation's campaigns would reach it. */
export interface OptOutKey {
  customerId: number;
  organizationId: number;
  email: string | null;
  phone: string | null;
}

const db = () => {
  const s = ContactList.sequelize;
  if (!s) throw new Error('Database not initialised');
  return s;
};

/**
 * For each key, whether an opt-out of its account covers it (for its organisation or the whole account, by email or
 * by phone). One statement whatever the keys (a batch claim spans accounts): the opt-outs of those accounts with those
 * emails or phones, matched here (emails without letter case, as the contacts' collation compares them).
 */
export async function optedOut(keys: readonly OptOutKey[], transaction?: Transaction): Promise<boolean[]> {
  const asked = keys.filter((k) => k.email || k.phone);
  if (asked.length === 0) return keys.map(() => false);
  const accounts = [...new Set(asked.map((k) => k.customerId))];
  const emails = [...new Set(asked.map((k) => k.email).filter((e): e is string => !!e))];
  const phones = [...new Set(asked.map((k) => k.phone).filter((p): p is string => !!p))];
  const where = [emails.length ? 'email IN (?)' : null, phones.length ? 'phone IN (?)' : null].filter(Boolean).join(' OR ');
  const rows = await db().query<{ customerId: number; organizationId: number | null; email: string | null; phone: string | null }>(
    `SELECT customer_id AS customerId, organization_id AS organizationId, email, phone FROM contact_opt_outs WHERE customer_id IN (?) AND (${where})`,
    { replacements: [accounts, ...(emails.length ? [emails] : []), ...(phones.length ? [phones] : [])], type: QueryTypes.SELECT, transaction },
  );
  return keys.map((k) => {
    const email = k.email?.toLowerCase();
    return rows.some(
      (r) =>
        Number(r.customerId) === k.customerId &&
        (r.organizationId === null || Number(r.organizationId) === k.organizationId) &&
        ((email !== undefined && email !== '' && r.email?.toLowerCase() === email) || (!!k.phone && r.phone === k.phone)),
    );
  });
}

/** Whether an opt-out covers this contact for this campaign's organisation. */
export async function optedOutFor(campaign: Pick<Campaign, 'customerId' | 'organizationId'>, contact: Pick<Contact, 'email' | 'phone'>, transaction?: Transaction): Promise<boolean> {
  const [out] = await optedOut([{ customerId: campaign.customerId, organizationId: campaign.organizationId, email: contact.email, phone: contact.phone }], transaction);
  return out;
}

/**
 * The organisations an unsubscribe through this contact's link covers: its list's organisation; for a list of no
 * organisation (it serves every organisation of the account), each organisation whose campaigns use the list (the
 * contact record already stops them all); null, the whole account, when no campaign uses it.
 */
export async function optOutScopeOf(contact: Contact, transaction?: Transaction): Promise<number[] | null> {
  const list = await ContactList.findByPk(contact.contactListId, { attributes: ['id', 'organizationId'], transaction });
  if (list?.organizationId) return [list.organizationId];
  const campaigns = await Campaign.findAll({ attributes: ['organizationId'], where: { contactListId: contact.contactListId }, transaction });
  const organizations = [...new Set(campaigns.map((c) => c.organizationId))];
  return organizations.length ? organizations : null;
}

/** Records the contact's email and phone as opted out for the organisations (null: the whole account). */
export async function recordOptOut(contact: Contact, organizations: number[] | null, at: Date, transaction: Transaction): Promise<void> {
  if (!contact.email && !contact.phone) return;
  const rows = (organizations ?? [null]).map((organizationId) => [contact.tenantId, contact.customerId, organizationId, contact.email, contact.phone, contact.id, at]);
  await db().query(`INSERT INTO contact_opt_outs (tenant_id, customer_id, organization_id, email, phone, contact_id, created_at) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`, {
    replacements: rows.flat(),
    type: QueryTypes.INSERT,
    transaction,
  });
}
