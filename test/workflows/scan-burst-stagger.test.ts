import { tsToMs } from '@temporalio/common/lib/time';
import { fixedClock } from '../../src/domain/clock';
import { Scan, ScanSnapshot } from '../../src/models';
import { configureGridProviders } from '../../src/services/grid-providers.service';
import { BURST } from '../../src/services/scans.service';
import { temporal } from '../../workflows/client';
import { scanRunWorkflowId } from '../../workflows/scans/client';
import { useApp } from '../support/app';
import { agencyTokenFor, makeWorld } from '../support/factories';
import { useTemporalWorker } from '../support/temporal';
import { waitUntil } from '../support/wait';

/**
 * Spec, Limits: "Scan burst stagger: from the 6th scan created within 60 seconds". The k-th scan (k >= 6) a tenant
 * creates within 60 s starts its first run (k - 5) x SCAN_BURST_STAGGER_SECONDS later, through Temporal's start
 * delay (docs/decisions/local-search-grid.md). The API runs on an injected clock, so the 60-second window passes without sleeping;
 * the stagger step is shortened to 3 s by configuration so the delayed runs really start (and finish) in the test.
 */
jest.setTimeout(120_000);

const STEP_S = 3;

describe('scan burst stagger (POST /api/agency/v1/scans)', () => {
  const clock = fixedClock(new Date());
  const t = useApp({ clock });
  useTemporalWorker();
  const saved = process.env.SCAN_BURST_STAGGER_SECONDS;
  beforeAll(() => {
    process.env.SCAN_BURST_STAGGER_SECONDS = String(STEP_S);
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.SCAN_BURST_STAGGER_SECONDS;
    else process.env.SCAN_BURST_STAGGER_SECONDS = saved;
  });

  /** The run's workflow: its start delay (`firstWorkflowTaskBackoff`) and how long after the start its first task ran. */
  async function runTiming(uuid: string, run: 'first' | 'latest' = 'first') {
    const scan = (await Scan.findOne({ where: { uuid } }))!;
    const snap = (await ScanSnapshot.findOne({ where: { scanId: scan.id }, order: [['id', run === 'first' ? 'ASC' : 'DESC']] }))!;
    const history = await temporal().client.workflow.getHandle(scanRunWorkflowId(uuid, snap.runId)).fetchHistory();
    const events = history.events ?? [];
    const started = events[0].workflowExecutionStartedEventAttributes!;
    const firstTask = events.find((e) => e.workflowTaskStartedEventAttributes);
    return {
      delayMs: started.firstWorkflowTaskBackoff ? tsToMs(started.firstWorkflowTaskBackoff) : 0,
      firstTaskAfterMs: firstTask ? tsToMs(firstTask.eventTime) - tsToMs(events[0].eventTime) : null,
    };
  }

  it('delays the first run of the 6th and 7th scans created within 60 s, not the first 5, manual re-runs, or scans after the window', async () => {
    expect(BURST).toEqual({ windowMs: 60_000, freeScans: 5 });
    const w = await makeWorld();
    await configureGridProviders({ tenantId: w.tenant.id, mode: 'simulator' });
    const agency = t.as(await agencyTokenFor(w.owner));
    const create = async (n: number) => {
      const res = await agency
        .post('/api/agency/v1/scans')
        .send({ location: `Burst ${n}`, keywords: ['dentist'], grid_size: 3, distance: 1, distance_unit: 'km', lat: 30.2672, lng: -97.7431 });
      expect(res.status).toBe(202);
      return { uuid: res.body.data.uuid as string, startedAt: Date.parse(res.body.data.started_at), createdAt: clock.now().getTime() };
    };

    // Seven creations 5 s apart on the API's clock: all within one 60-second window.
    const burst: Array<{ uuid: string; startedAt: number; createdAt: number }> = [];
    for (let n = 1; n <= 7; n++) {
      burst.push(await create(n));
      clock.advance(5_000);
    }
    const expectedDelay = [0, 0, 0, 0, 0, STEP_S * 1000, 2 * STEP_S * 1000];
    expect(burst.map((s) => s.startedAt - s.createdAt)).toEqual(expectedDelay);
    const timings = await Promise.all(burst.map((s) => runTiming(s.uuid)));
    expect(timings.map((x) => x.delayMs)).toEqual(expectedDelay);

    // Every run completes; the staggered ones' first workflow task ran no sooner than their delay.
    await waitUntil(async () => (await Scan.count({ where: { uuid: burst.map((s) => s.uuid), isRunning: false } })) === 7, 90_000);
    const done = await Promise.all(burst.map((s) => runTiming(s.uuid)));
    expect(done[5].firstTaskAfterMs).toBeGreaterThanOrEqual(STEP_S * 1000);
    expect(done[6].firstTaskAfterMs).toBeGreaterThanOrEqual(2 * STEP_S * 1000);
    const scans = await Scan.findAll({ where: { uuid: burst.map((s) => s.uuid) } });
    expect(scans.every((s) => !s.lastRunFailed)).toBe(true);

    // A manual re-run inside the burst window is never staggered.
    const rerun = await agency.post(`/api/agency/v1/scans/${burst[0].uuid}/run`);
    expect(rerun.status).toBe(202);
    expect(Date.parse(rerun.body.data.started_at)).toBe(clock.now().getTime());
    expect(await ScanSnapshot.count({ where: { scanId: scans.find((s) => s.uuid === burst[0].uuid)!.id } })).toBe(2);
    expect((await runTiming(burst[0].uuid, 'latest')).delayMs).toBe(0);

    // Once 60 s have passed since the last creation, a new scan starts at once again.
    clock.set(new Date(burst[6].createdAt + BURST.windowMs + 1_000));
    const later = await create(8);
    expect(later.startedAt).toBe(later.createdAt);
    expect((await runTiming(later.uuid)).delayMs).toBe(0);
    await waitUntil(async () => (await Scan.findOne({ where: { uuid: [later.uuid, burst[0].uuid], isRunning: true } })) === null, 60_000);
  });
});
