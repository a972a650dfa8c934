import { randomUUID } from 'node:crypto';
import { claimRunTurn, completeRun } from '../../src/jobs/scan-runs';
import { Scan } from '../../src/models';
import { failRun, queueRun } from '../../src/services/scans.service';
import { useDatabase } from '../support/db';
import { makeTenant } from '../support/factories';

/**
 * A tenant's turns for its scan runs (`claimRunTurn`, src/jobs/scan-runs.ts), on the real database: at most
 * `maxRunning` of a tenant's runs hold one at once, the others wait (running, not failed); another tenant's runs are
 * not counted; a run that holds one gets it again (a retried claim, a resumed workflow); completing or failing a run
 * gives its turn back, and a new run of the scan starts without one.
 */
describe("a tenant's turns for its scan runs", () => {
  const db = useDatabase();

  /** A scan of the tenant with a run queued (as POST /scans queues it), answering the scan and the run's id. */
  async function queued(tenantId: number): Promise<{ scan: Scan; runId: string }> {
    const now = new Date();
    const scan = await Scan.create({
      uuid: randomUUID(),
      tenantId,
      ownerCustomerId: owners.get(tenantId) ?? null,
      customerId: null,
      locationId: null,
      location: 'Main Street Dental',
      address: null,
      keywords: ['dentist'],
      gridSize: 3,
      distance: 1,
      distanceUnit: 'km',
      targetPlaceId: null,
      lat: 52.5,
      lng: 13.4,
      lastRunAt: null,
      nextRunAt: null,
      archivedAt: null,
      currentRunId: null,
      lastError: null,
      frequency: null,
      scheduledFrom: null,
      scheduledTo: null,
      timezone: null,
      createdAt: now,
      updatedAt: now,
    });
    const runId = await db().transaction((transaction) => queueRun(scan, now, transaction, now));
    return { scan: (await Scan.findByPk(scan.id))!, runId };
  }
  const turnOf = async (scan: Scan) => (await Scan.findByPk(scan.id))!.runTurnAt;
  /** The tenant owner's own account of each tenant (the scan events' account). */
  const owners = new Map<number, number>();
  async function agency() {
    const { tenant, ownerAccount } = await makeTenant();
    owners.set(tenant.id, ownerAccount.id);
    return { tenant };
  }

  it('grants up to maxRunning runs of a tenant, the others waiting; another tenant is not counted', async () => {
    const { tenant } = await agency();
    const { tenant: other } = await agency();
    const runs = await Promise.all([1, 2, 3].map(() => queued(tenant.id)));
    const elsewhere = await queued(other.id);

    expect(await claimRunTurn(runs[0].runId, 2)).toBe('granted');
    expect(await claimRunTurn(runs[1].runId, 2)).toBe('granted');
    expect(await claimRunTurn(runs[2].runId, 2)).toBe('waiting');
    expect(await claimRunTurn(elsewhere.runId, 2)).toBe('granted');
    expect(await turnOf(runs[2].scan)).toBeNull();
    expect((await Scan.findByPk(runs[2].scan.id))!).toMatchObject({ isRunning: true, lastRunFailed: false });

    // A run holding a turn gets it again (its claim retried, its workflow resumed), keeping the time it got it.
    const held = await turnOf(runs[0].scan);
    expect(held).toBeInstanceOf(Date);
    expect(await claimRunTurn(runs[0].runId, 2)).toBe('granted');
    expect(await turnOf(runs[0].scan)).toEqual(held);
  });

  it('claims at once for one turn: exactly one of them gets it', async () => {
    const { tenant } = await agency();
    const runs = await Promise.all([1, 2, 3, 4].map(() => queued(tenant.id)));
    const turns = await Promise.all(runs.map((r) => claimRunTurn(r.runId, 1)));
    expect(turns.filter((x) => x === 'granted')).toHaveLength(1);
    expect(turns.filter((x) => x === 'waiting')).toHaveLength(3);
  });

  it('gives the turn back when a run completes or fails; a new run of the scan waits for one of its own', async () => {
    const { tenant } = await agency();
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => queued(tenant.id)));
    expect(await claimRunTurn(a.runId, 1)).toBe('granted');
    expect(await claimRunTurn(b.runId, 1)).toBe('waiting');

    await completeRun(a.runId);
    expect(await turnOf(a.scan)).toBeNull();
    expect(await claimRunTurn(b.runId, 1)).toBe('granted');
    expect(await claimRunTurn(c.runId, 1)).toBe('waiting');

    await failRun(b.runId, 'The ranking provider refused the request.');
    expect(await turnOf(b.scan)).toBeNull();
    expect(await claimRunTurn(c.runId, 1)).toBe('granted');

    // The completed scan runs again: its new run starts without a turn and waits behind c.
    const again = await db().transaction(async (transaction) => queueRun((await Scan.findByPk(a.scan.id, { transaction }))!, new Date(), transaction, new Date()));
    expect(await turnOf(a.scan)).toBeNull();
    expect(await claimRunTurn(again, 1)).toBe('waiting');
  });

  it('answers ended for a run that is over or unknown, so its workflow asks nothing', async () => {
    const { tenant } = await agency();
    const { runId } = await queued(tenant.id);
    await failRun(runId, 'The run was canceled by an operator.');
    expect(await claimRunTurn(runId, 2)).toBe('ended');
    expect(await claimRunTurn(randomUUID(), 2)).toBe('ended');
  });
});
