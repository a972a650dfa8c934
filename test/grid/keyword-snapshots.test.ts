import { queueRun } from '../../src/services/scans.service';
import { ScanSnapshot } from '../../src/models';
import { useDatabase } from '../support/db';
import { makeTenant } from '../support/factories';
import { seedReportScan } from '../support/scan-report';

/**
 * A scan's keywords are told apart ignoring letter case only (scans.service cleanKeywords), so a run holds one
 * snapshot per keyword however close two keywords are: accents and emoji count (migration 20261214000100; under the
 * old collation the snapshots of "Café" and "Cafe" collided and queueing the run failed).
 */
describe('scan snapshots per keyword', () => {
  const db = useDatabase();

  it('queues one snapshot for each of keywords that differ only by an accent or an emoji', async () => {
    const { tenant } = await makeTenant();
    const keywords = ['Caf\u00e9', 'Cafe', 'pizza \u{1F355}', 'pizza \u{1F600}'];
    const scan = await seedReportScan({ tenantId: tenant.id, keywords, snapshots: [] });
    const runId = await db().transaction((transaction) => queueRun(scan, new Date(), transaction, new Date()));
    const rows = await ScanSnapshot.findAll({ where: { runId }, order: [['id', 'ASC']] });
    expect(rows.map((r) => r.keyword)).toEqual(keywords);
  });
});
