import type { Sequelize } from 'sequelize';
import { rotateSecrets } from '../../services/secrets-rotation.service';
import { table, type CliResult } from '../run';

/** `secrets:rotate`: every stored secret re-encrypted under the newest key of APP_KEYS (docs/security.md). */
export async function secretsRotate(sequelize: Sequelize): Promise<CliResult> {
  const report = await rotateSecrets(sequelize);
  const rows = Object.entries(report.tables).map(([name, c]) => ({ name, checked: c.checked, reencrypted: c.reencrypted }));
  const total = Object.values(report.tables).reduce((n, c) => n + c.reencrypted, 0);
  const unreadable = report.unreadable.map((u) => `  ${u.table}.${u.column} id ${u.id}: ${u.reason}`).join('\n');
  return {
    ...(report.unreadable.length > 0 ? { exitCode: 1 } : {}),
    text: `${table(rows, [['table', 'name'], ['secrets', 'checked'], ['re-encrypted', 'reencrypted']])}\n${total} secret(s) re-encrypted under key ${report.keyId}; every process must now hold it.${
      unreadable ? `\n${report.unreadable.length} secret(s) no key of APP_KEYS opens were left as they are:\n${unreadable}` : ''
    }`,
    data: { keyId: report.keyId, tables: report.tables, reencrypted: total, unreadable: report.unreadable },
  };
}
