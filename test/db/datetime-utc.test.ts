import { QueryTypes } from 'sequelize';
import { readRows } from '../../src/db/read';
import { insertRows } from '../../src/db/write';
import { useScratchDatabase } from '../support/db';

/**
 * Every DATETIME column holds UTC (src/db/connection.ts): the session's time zone is +00:00, and the driver reads and
 * writes Dates in UTC whichever way a statement goes: the hot reads' prepared statements (`readRows`, mysql2's binary
 * protocol, Dates among their parameters too), the multi-row inserts (`insertRows`, formatted by mysql2) and Sequelize's
 * queries. An instant written one way reads back the same instant, to the millisecond, every other way.
 */
describe('DATETIME values are UTC on every path', () => {
  const { sequelize } = useScratchDatabase('datetime_utc');
  const select = <T extends object>(sql: string, replacements: unknown[] = []) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  // A winter and a summer instant (any offset of a local time zone would differ between them), with milliseconds.
  const WINTER = new Date('2026-01-15T23:59:58.123Z');
  const SUMMER = new Date('2026-07-01T00:30:00.987Z');
  // Sequelize writes a Date replacement to the second (its DATE type without a length): whole seconds for that path.
  const SUMMER_SECOND = new Date('2026-07-01T00:30:00.000Z');

  beforeAll(async () => {
    await sequelize.query('CREATE TABLE instants (id INT AUTO_INCREMENT PRIMARY KEY, label VARCHAR(20) NOT NULL, at DATETIME(3) NOT NULL)');
  });

  it('the session speaks UTC', async () => {
    const [row] = await select<{ tz: string }>('SELECT @@session.time_zone AS tz');
    expect(row.tz).toBe('+00:00');
  });

  it('a Date written by a multi-row insert, a replacement or a literal reads back the same instant every way, and finds its row as a parameter', async () => {
    await sequelize.transaction((transaction) => insertRows(sequelize, 'instants', ['label', 'at'], [['multi-row', SUMMER]], transaction));
    await sequelize.query('INSERT INTO instants (label, at) VALUES (?, ?)', { replacements: ['replacement', SUMMER_SECOND] });
    // A literal in SQL is UTC wall-clock time: what the rows above must hold.
    await sequelize.query("INSERT INTO instants (label, at) VALUES ('literal', '2026-01-15 23:59:58.123')");

    const expected = { 'multi-row': SUMMER.toISOString(), replacement: SUMMER_SECOND.toISOString(), literal: WINTER.toISOString() };
    const iso = (rows: Array<{ label: string; at: Date }>) => Object.fromEntries(rows.map((r) => [r.label, r.at.toISOString()]));
    // The hot reads' path (mysql2's binary protocol) and Sequelize's (the text protocol).
    expect(iso(await readRows<{ label: string; at: Date }>(sequelize, 'SELECT label, at FROM instants', []))).toEqual(expected);
    expect(iso(await select<{ label: string; at: Date }>('SELECT label, at FROM instants'))).toEqual(expected);
    // What the server stored, as text: the UTC wall-clock time.
    const stored = await select<{ label: string; text: string }>("SELECT label, DATE_FORMAT(at, '%Y-%m-%d %H:%i:%s.%f') AS text FROM instants ORDER BY id");
    expect(stored.map((r) => [r.label, r.text])).toEqual([
      ['multi-row', '2026-07-01 00:30:00.987000'],
      ['replacement', '2026-07-01 00:30:00.000000'],
      ['literal', '2026-01-15 23:59:58.123000'],
    ]);
    // A Date as a hot read's parameter (binary protocol) names the same instant, to the millisecond.
    const labelsAt = async (at: Date) => (await readRows<{ label: string }>(sequelize, 'SELECT label FROM instants WHERE at = ? ORDER BY id', [at])).map((r) => r.label);
    expect(await labelsAt(WINTER)).toEqual(['literal']);
    expect(await labelsAt(SUMMER)).toEqual(['multi-row']);
    expect(await labelsAt(SUMMER_SECOND)).toEqual(['replacement']);
  });
});
