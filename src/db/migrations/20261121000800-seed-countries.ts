import countries from 'i18n-iso-countries';
import type { Migration } from '../umzug';

/** Country names come from the maintained ISO 3166 package, not a hand-written list. */
export const up: Migration = async ({ context: sql }) => {
  const names = countries.getNames('en', { select: 'official' });
  const rows = Object.entries(names).sort(([a], [b]) => a.localeCompare(b));
  const placeholders = rows.map(() => '(?, ?)').join(', ');
  await sql(`INSERT INTO countries (id, name) VALUES ${placeholders}`, rows.flat());
};

export const down: Migration = async ({ context: sql }) => {
  await sql('DELETE FROM countries');
};
