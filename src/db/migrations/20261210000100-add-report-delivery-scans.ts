import type { Migration } from '../umzug';

/**
 * The monthly scan report mail shares `report_deliveries` with the organisation's: a row is about an organisation or
 * a scan (exactly one of the two, checked), once per month and owner under its own unique key. Existing rows are
 * organisation rows and keep their key (`report_deliveries_once`); MariaDB and MySQL let a unique key hold any
 * number of NULLs, so scan rows (organisation NULL) never meet it, nor organisation rows the scan key.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql(`ALTER TABLE report_deliveries
    MODIFY organization_id INT UNSIGNED NULL,
    ADD COLUMN scan_id INT UNSIGNED NULL AFTER organization_id,
    ADD UNIQUE KEY report_deliveries_scan_once (scan_id, month, user_id),
    ADD CONSTRAINT report_deliveries_scan FOREIGN KEY (scan_id) REFERENCES scans (id) ON DELETE CASCADE,
    ADD CONSTRAINT report_deliveries_one_subject CHECK ((organization_id IS NULL) <> (scan_id IS NULL))`);
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DELETE FROM report_deliveries WHERE scan_id IS NOT NULL');
  await sql('ALTER TABLE report_deliveries DROP CONSTRAINT report_deliveries_one_subject, DROP FOREIGN KEY report_deliveries_scan');
  await sql('ALTER TABLE report_deliveries DROP KEY report_deliveries_scan_once, DROP COLUMN scan_id, MODIFY organization_id INT UNSIGNED NOT NULL');
};
