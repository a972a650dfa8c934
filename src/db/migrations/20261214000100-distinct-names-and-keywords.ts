import type { Migration } from '../umzug';

/**
 * Two unique keys compared text under utf8mb4_unicode_ci, which ignores accents and gives every emoji (every
 * character outside the Basic Multilingual Plane) the same weight:
 * - `organizations (customer_id, name)`: "Pizza 😀" was "already taken" by "Pizza 🍕", "Cafe" by "Café". Names now
 *   compare under utf8mb4_uca1400_as_ci on MariaDB, utf8mb4_0900_as_ci on MySQL 8 (Unicode weights, accents count,
 *   letter case does not): "pizza 🍕" and "PIZZA 🍕" are still one name.
 * - `scan_snapshots (scan_id, run_id, keyword)`: a scan's keywords are told apart ignoring letter case only
 *   (src/services/scans.service.ts), so "Café" and "Cafe" were two keywords whose snapshots of one run collided.
 *   Keywords now compare byte-wise (utf8mb4_bin), as the business-profile search keywords already do.
 * Neither change can make existing rows collide: both collations tell apart everything the old one did.
 */
export const up: Migration = async ({ context: sql }) => {
  // MariaDB (10.10+) has the Unicode 14 collation; MySQL 8 its Unicode 9 one, which tells the same apart here.
  for (const [i, collation] of ['utf8mb4_uca1400_as_ci', 'utf8mb4_0900_as_ci'].entries()) {
    try {
      await sql(`ALTER TABLE organizations MODIFY name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`);
      break;
    } catch (e) {
      const unknown = (e as { original?: { code?: string } }).original?.code === 'ER_UNKNOWN_COLLATION';
      if (!unknown || i === 1) throw e;
    }
  }
  await sql('ALTER TABLE scan_snapshots MODIFY keyword VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL');
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE scan_snapshots MODIFY keyword VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL');
  await sql('ALTER TABLE organizations MODIFY name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL');
};
