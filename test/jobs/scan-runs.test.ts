import { fixedClock } from '../../src/domain/clock';
import { startDueScheduledScans } from '../../src/jobs/scan-runs';
import { OutboxEvent, Scan, ScanSnapshot } from '../../src/models';
import { SimulatedMarket } from '../../src/providers/ranking/simulator';
import { configureGridProviders } from '../../src/services/grid-providers.service';
import { connectTemporal, temporal } from '../../workflows/client';
import { useApp } from '../support/app';
import { agencyTokenFor, makeWorld, tokenFor } from '../support/factories';
import { useTemporalWorker } from '../support/temporal';
import { waitUntil } from '../support/wait';

/**
 * Scan runs whose workflow cannot be started: Temporal is unreachable from the process that queued the run (its client
 * connection is closed; the worker keeps its own and goes on running workflows). Real dev server, simulated market.
 */
jest.setTimeout(90_000);

describe('scan runs when the workflow engine cannot be reached', () => {
  const t = useApp();
  const engine = useTemporalWorker();
  const target = new SimulatedMarket().nearestPlace('dentist', 40.7128, -74.006);

  async function idleScan() {
    const w = await makeWorld();
    await configureGridProviders({ tenantId: w.tenant.id, mode: 'simulator' });
    const agency = t.as(await agencyTokenFor(w.owner));
    const created = await agency
      .post('/api/agency/v1/scans')
      .send({ location: 'Main Street Dental', keywords: ['dentist'], grid_size: 3, distance: 2, distance_unit: 'km', lat: target.lat, lng: target.lng });
    expect(created.status).toBe(202);
    const uuid: string = created.body.data.uuid;
    await idle(uuid);
    return { w, agency, uuid };
  }
  const idle = (uuid: string) => waitUntil(async () => (await Scan.findOne({ where: { uuid } }))?.isRunning === false);
  const events = (uuid: string) => OutboxEvent.findAll({ where: { aggregateType: 'scan', aggregateId: uuid }, order: [['id', 'ASC']] }).then((es) => es.map((e) => e.event));

  /** Runs `fn` while this process's Temporal client cannot reach the server, then connects it again. */
  async function whileUnreachable<T>(fn: () => Promise<T>): Promise<T> {
    await temporal().client.connection.close();
    try {
      return await fn();
    } finally {
      await connectTemporal(engine.settings());
    }
  }

  it('the tick leaves a scheduled run queued when its workflow cannot be started, and a tick after the grace starts it', async () => {
    const { agency, uuid } = await idleScan();
    const schedule = { is_scheduled: true, frequency: 'weekly', scheduled_from: '00:00', scheduled_to: '23:00', timezone: 'UTC' };
    expect((await agency.post(`/api/agency/v1/scans/${uuid}/schedule`).send(schedule)).status).toBe(200);
    const due = (await Scan.findOne({ where: { uuid } }))!.nextRunAt!;
    const at = new Date(due.getTime() + 1000);

    const warnings: Array<Record<string, unknown>> = [];
    const started = await whileUnreachable(() => startDueScheduledScans({ clock: fixedClock(at), warn: (message, attrs) => warnings.push({ message, ...attrs }) }));
    const queued = (await Scan.findOne({ where: { uuid } }))!;
    expect(queued).toMatchObject({ isRunning: true, currentRunId: expect.any(String), lastRunFailed: false, lastError: null });
    const runId = queued.currentRunId!;
    expect(started).toBe(0);
    expect(queued.nextRunAt!.getTime()).toBeGreaterThanOrEqual(due.getTime() + 7 * 24 * 3600 * 1000);
    expect(await ScanSnapshot.findAll({ where: { runId } })).toEqual([expect.objectContaining({ status: 'running' })]);
    // Scheduled scans that earlier test files left due in this worker's database are ticked too: only this one's counts.
    expect(warnings.filter((w) => w.scan === uuid)).toEqual([expect.objectContaining({ message: expect.stringContaining('stays queued'), scan: uuid, runId, error: expect.any(String) })]);
    expect(await events(uuid)).toEqual(['scan-completed']);

    // The next tick, once the run is past the grace for its start: the run's workflow starts and the run completes.
    await startDueScheduledScans({ clock: fixedClock(new Date(at.getTime() + 15 * 60_000)) });
    await idle(uuid);
    expect(await ScanSnapshot.findAll({ where: { runId } })).toEqual([expect.objectContaining({ status: 'completed' })]);
    expect(await events(uuid)).toEqual(['scan-completed', 'scan-completed']);
  });

  it('a run asked for by the user fails at once with UPSTREAM scan_not_queued, so the scan can be run again', async () => {
    const { w, uuid } = await idleScan();
    const token = await tokenFor(w.owner, ['organizations:read', 'organizations:update']);
    const runScan = () => t.as(token).post('/graphql').send({ query: 'mutation($uuid: String!) { runScan(uuid: $uuid) { runId } }', variables: { uuid } });
    const res = await whileUnreachable(runScan);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'UPSTREAM', reason: 'scan_not_queued' });
    expect(await Scan.findOne({ where: { uuid } })).toMatchObject({ isRunning: false, currentRunId: null, lastRunFailed: true });
    expect(await events(uuid)).toEqual(['scan-completed', 'scan-failed']);
    expect((await runScan()).body.data.runScan.runId).toEqual(expect.any(String));
    await idle(uuid);
  });
});
