import { QueryTypes, UniqueConstraintError } from 'sequelize';
import { migrations } from '../../src/db/migrations';
import { down, up } from '../../src/db/migrations/20261221000100-idempotency-key-binary-collation';
import { createMigrator, type Sql } from '../../src/db/umzug';
import { rowInserter, useScratchDatabase } from '../support/db';

const MIGRATION = '20261221000100-idempotency-key-binary-collation';
const BEFORE = migrations[migrations.findIndex((m) => m.name === MIGRATION) - 1].name;

/**
 * `Idempotency-Key` values are opaque: `CaseKey-1` and `casekey-1` are two keys (docs/decisions/api-conventions.md
 * "Idempotent writes"), so `idempotency_keys.idem_key` compares byte-wise. Down goes back to the table's collation,
 * keeping the first claimed row of keys that collide under it; both ways are safe to run again.
 */
describe(`migration ${MIGRATION}: idempotency keys compare byte-wise`, () => {
  const { sequelize } = useScratchDatabase('idem_key_collation');
  const select = <T extends object>(sql: string, replacements: unknown[] = []) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  const insert = rowInserter(sequelize);
  /** A migration's SQL runner outside umzug (a migration's step run by hand). */
  const direct: Sql = (statement, replacements) => sequelize.query(statement, { replacements, type: QueryTypes.RAW, logging: false });
  const key = (tokenId: number, idemKey: string) => insert('idempotency_keys', { tenant_id: 1, token_id: tokenId, idem_key: idemKey, state: 'done' });
  const keys = async () => (await select<{ id: number; token_id: number; k: string }>('SELECT id, token_id, idem_key AS k FROM idempotency_keys ORDER BY id')).map((r) => [r.token_id, r.k]);

  /** The column (collation, type, NULL) and the unique key it belongs to. */
  async function schema() {
    const [column] = await select<{ collation: string; type: string; nullable: string }>(
      "SELECT collation_name AS collation, column_type AS type, is_nullable AS nullable FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = 'idempotency_keys' AND column_name = 'idem_key'",
    );
    const unique = await select<{ c: string; u: number }>(
      "SELECT column_name AS c, non_unique AS u FROM information_schema.statistics WHERE table_schema = DATABASE() AND table_name = 'idempotency_keys' AND index_name = 'idempotency_keys_token_key' ORDER BY seq_in_index",
    );
    return { ...column, unique: unique.map((i) => `${i.c}${Number(i.u) ? '' : ' unique'}`) };
  }
  const UNIQUE = ['token_id unique', 'idem_key unique'];
  const binary = { collation: 'utf8mb4_bin', type: 'varchar(255)', nullable: 'NO', unique: UNIQUE };
  const caseInsensitive = { collation: 'utf8mb4_unicode_ci', type: 'varchar(255)', nullable: 'NO', unique: UNIQUE };

  it('up: letter case tells keys apart, a byte-identical key is still one; down keeps the first of each collision; both re-run', async () => {
    const migrator = createMigrator(sequelize);
    await migrator.up({ to: BEFORE });
    expect(await schema()).toEqual(caseInsensitive);
    // Before: another spelling of a token's key was the same key.
    await key(1, 'CaseKey-1');
    await expect(key(1, 'casekey-1')).rejects.toBeInstanceOf(UniqueConstraintError);

    expect((await migrator.up({ to: MIGRATION })).map((m) => m.name)).toEqual([MIGRATION]);
    expect(await schema()).toEqual(binary);
    await key(1, 'casekey-1');
    await key(1, 'CASEKEY-1');
    await key(2, 'casekey-1');
    await key(1, 'other');
    await expect(key(1, 'other')).rejects.toBeInstanceOf(UniqueConstraintError);
    expect(await select('SELECT token_id FROM idempotency_keys WHERE idem_key = ?', ['casekey-1'])).toHaveLength(2);
    // Up again (run by hand): nothing to do.
    await up({ name: MIGRATION, context: direct });
    expect(await schema()).toEqual(binary);

    await migrator.down({ to: MIGRATION });
    expect(await schema()).toEqual(caseInsensitive);
    // Token 1's three spellings collided: its first claimed row stays. Token 2's key and token 1's other key stay.
    expect(await keys()).toEqual([
      [1, 'CaseKey-1'],
      [2, 'casekey-1'],
      [1, 'other'],
    ]);
    await expect(key(1, 'OTHER')).rejects.toBeInstanceOf(UniqueConstraintError);
    // Down again (its record lost, or run by hand): nothing to do.
    await down({ name: MIGRATION, context: direct });
    expect(await schema()).toEqual(caseInsensitive);
    expect(await keys()).toHaveLength(3);

    expect((await migrator.up({ to: MIGRATION })).map((m) => m.name)).toEqual([MIGRATION]);
    expect(await schema()).toEqual(binary);
    await key(1, 'Other');
    expect(await keys()).toHaveLength(4);
  });

  it('down: a colliding key written between its delete and its ALTER (a release still running) is deleted on the retry', async () => {
    const migrator = createMigrator(sequelize);
    if ((await migrator.pending()).some((m) => m.name === MIGRATION)) await migrator.up({ to: MIGRATION });
    await sequelize.query('DELETE FROM idempotency_keys');
    await key(5, 'late-key');
    let raced = false;
    let alters = 0;
    const racing: Sql = async (statement, replacements) => {
      if (statement.startsWith('ALTER')) alters += 1;
      const result = await direct(statement, replacements);
      if (!raced && statement.startsWith('DELETE')) {
        raced = true;
        await key(5, 'LATE-KEY');
      }
      return result;
    };
    await down({ name: MIGRATION, context: racing });
    expect([raced, alters]).toEqual([true, 2]);
    expect(await schema()).toEqual(caseInsensitive);
    expect(await keys()).toEqual([[5, 'late-key']]);
  });
});
