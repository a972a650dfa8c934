import type { Migration } from '../umzug';

/**
 * Two unique keys compared text under utf8mb4_unicode_ci, which ignores accents and gives every emoji (every
 * character outside the Basic Multilingual Plane) the same weight:
 * - `organizations (customer_id, name)`: "Pizza 😀" was "already taken" by "Pizza 🍕", "Cafe" by "Café". Names now
 *   compare under utf8mb4_uca1400_as_ci (Unicode 14 weights, accents count, letter case does not): "pizza 🍕" and
 *   "PIZZA 🍕" are still one name.
 * - `scan_snapshots (scan_id, run_id, keyword)`: a scan's keywords are told apart ignoring letter case only
 *   (src/services/scans.service.ts), so "Café" and "Cafe" were two keywords whose snapshots of one run collided.
 *   Keywords now compare byte-wise (utf8mb4_bin), as the business-profile search keywords already do.
 * Neither change can make existing rows collide: both collations tell apart everything the old one did.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE organizations MODIFY name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_as_ci NOT NULL');
  await sql('ALTER TABLE scan_snapshots MODIFY keyword VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL');
};

export const down: Migration = async ({ context: sql }) => {
  await sql('ALTER TABLE scan_snapshots MODIFY keyword VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL');
  await sql('ALTER TABLE organizations MODIFY name VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL');
};
