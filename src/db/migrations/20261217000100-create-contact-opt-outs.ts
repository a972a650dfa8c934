import type { Migration } from '../umzug';

/**
 * What a contact's unsubscribe link stopped, beyond its own contact record: review requests of an organisation (or,
 * `organization_id` NULL, of the whole account) to the contact's email and phone, in every contact list and campaign,
 * including contacts added later (src/services/opt-outs.ts). A row outlives the contact it came from (`contact_id` is
 * then NULL): deleting a list must not undo an unsubscribe. Rows cascade with their account and organisation.
 *
 * Contacts unsubscribed before this table are written as the unsubscribe now writes them: for the organisation of
 * their list, else for each organisation whose campaigns use the list, else for the whole account.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`CREATE TABLE contact_opt_outs (
    id INT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
    tenant_id INT UNSIGNED NOT NULL,
    customer_id INT UNSIGNED NOT NULL,
    organization_id INT UNSIGNED NULL,
    email VARCHAR(255) NULL,
    phone VARCHAR(32) NULL,
    contact_id INT UNSIGNED NULL,
    created_at DATETIME(3) NOT NULL,
    KEY contact_opt_outs_tenant (tenant_id),
    KEY contact_opt_outs_email (customer_id, email),
    KEY contact_opt_outs_phone (customer_id, phone),
    CONSTRAINT contact_opt_outs_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
    CONSTRAINT contact_opt_outs_org_fk FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE,
    CONSTRAINT contact_opt_outs_contact_fk FOREIGN KEY (contact_id) REFERENCES contacts (id) ON DELETE SET NULL
  )`);
  await sql(`INSERT INTO contact_opt_outs (tenant_id, customer_id, organization_id, email, phone, contact_id, created_at)
    SELECT c.tenant_id, c.customer_id, l.organization_id, c.email, c.phone, c.id, c.unsubscribed_at
      FROM contacts c JOIN contact_lists l ON l.id = c.contact_list_id
     WHERE c.unsubscribed_at IS NOT NULL AND l.organization_id IS NOT NULL
    UNION ALL
    SELECT DISTINCT c.tenant_id, c.customer_id, k.organization_id, c.email, c.phone, c.id, c.unsubscribed_at
      FROM contacts c JOIN contact_lists l ON l.id = c.contact_list_id JOIN campaigns k ON k.contact_list_id = l.id
     WHERE c.unsubscribed_at IS NOT NULL AND l.organization_id IS NULL
    UNION ALL
    SELECT c.tenant_id, c.customer_id, NULL, c.email, c.phone, c.id, c.unsubscribed_at
      FROM contacts c JOIN contact_lists l ON l.id = c.contact_list_id
     WHERE c.unsubscribed_at IS NOT NULL AND l.organization_id IS NULL
       AND NOT EXISTS (SELECT 1 FROM campaigns k WHERE k.contact_list_id = l.id)`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DROP TABLE contact_opt_outs');
};
