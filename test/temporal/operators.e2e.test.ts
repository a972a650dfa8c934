import { defaultPayloadConverter } from '@temporalio/common';
import { msToTs } from '@temporalio/common/lib/time';
import type { WorkflowExecutionInfo } from '@temporalio/client';
import { SimulatedMarket } from '../../src/providers/ranking/simulator';
import { Scan, WebhookDelivery } from '../../src/models';
import { configureGridProviders } from '../../src/services/grid-providers.service';
import {
  ensureSearchAttributes,
  RG_ACCOUNT,
  RG_BUSINESS_ID,
  RG_KIND,
  RG_ORGANIZATION,
  RG_TENANT,
  SEARCH_ATTRIBUTE_KEYS,
} from '../../src/temporal/search-attributes';
import { dispatcherWorkflowId, ensureInviteDispatcher, inviteDispatcherWorkflowId, temporal } from '../../workflows/client';
import { makeCampaign } from '../campaigns/factories';
import { useApp } from '../support/app';
import { agencyTokenFor, makeWorld, testimonialsOf } from '../support/factories';
import { startReceiver } from '../support/receiver';
import { useTemporalWorker } from '../support/temporal';
import { waitUntil } from '../support/wait';

/**
 * Operators in the Temporal UI (issue 13 item 7): workflows started through the product's own paths carry the
 * RgTenant / RgAccount / RgKind / RgBusinessId search attributes and a human static summary, on the run's real
 * Temporal dev server. Every test database numbers its tenants from 1 and all test files share one server, so each
 * query also names this file's task queue (a built-in search attribute).
 */
jest.setTimeout(90_000);

describe('operators find workflows in the Temporal UI', () => {
  const t = useApp();
  const worker = useTemporalWorker();
  const queue = () => worker.settings().taskQueue;

  /** Polls a visibility query (the index lags the start a little) until it returns `count` workflows. */
  async function list(query: string, count = 1): Promise<WorkflowExecutionInfo[]> {
    let found: WorkflowExecutionInfo[] = [];
    await waitUntil(async () => {
      found = [];
      for await (const wf of temporal().client.workflow.list({ query: `${query} AND TaskQueue = '${queue()}'` })) found.push(wf);
      return found.length >= count;
    }, 30_000, 200);
    return found;
  }

  const attrs = (wf: WorkflowExecutionInfo) => ({
    tenant: wf.typedSearchAttributes.get(RG_TENANT),
    account: wf.typedSearchAttributes.get(RG_ACCOUNT),
    organization: wf.typedSearchAttributes.get(RG_ORGANIZATION),
    kind: wf.typedSearchAttributes.get(RG_KIND),
    businessId: wf.typedSearchAttributes.get(RG_BUSINESS_ID),
  });

  /** The summaries of a workflow's scheduled activities, in order. */
  async function activitySummaries(workflowId: string): Promise<string[]> {
    const history = await temporal().client.workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? [])
      .filter((e) => e.activityTaskScheduledEventAttributes && e.userMetadata?.summary)
      .map((e) => defaultPayloadConverter.fromPayload(e.userMetadata!.summary!) as string);
  }

  // First: the dispatcher continues as new after 200 polls, and a new run has no static summary of its own.
  it('tags platform-wide work as tenant and account `platform`', async () => {
    const [dispatcher] = await list(`RgTenant = 'platform' AND RgKind = 'outbox-dispatch'`);
    expect(dispatcher.workflowId).toBe(dispatcherWorkflowId(queue()));
    expect(attrs(dispatcher)).toEqual({ tenant: 'platform', account: 'platform', organization: undefined, kind: 'outbox-dispatch', businessId: queue() });
    expect(await (await temporal().client.workflow.getHandle(dispatcher.workflowId).describe()).staticSummary()).toBe(`Outbox dispatcher of task queue ${queue()}`);
  });

  it('ensureSearchAttributes registers the five Keyword attributes and is idempotent', async () => {
    const { client } = temporal();
    // Global setup's dev server has them from its flags and its own ensure call: nothing left to add, twice.
    expect(await ensureSearchAttributes(client, 'default')).toEqual([]);
    expect(await ensureSearchAttributes(client, 'default')).toEqual([]);
    const listed = await client.connection.operatorService.listSearchAttributes({ namespace: 'default' });
    for (const key of SEARCH_ATTRIBUTE_KEYS) {
      expect(listed.customAttributes?.[key.name]).toBe(2); // INDEXED_VALUE_TYPE_KEYWORD
    }
  });

  it('ensureSearchAttributes adds what a namespace lacks, and a second call adds nothing', async () => {
    const { client } = temporal();
    const namespace = `operators-${queue()}`.slice(0, 60);
    await client.connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
    await waitUntil(async () => {
      try {
        await client.connection.operatorService.listSearchAttributes({ namespace });
        return true;
      } catch {
        return false;
      }
    }, 30_000, 200);
    expect((await ensureSearchAttributes(client, namespace)).sort()).toEqual(SEARCH_ATTRIBUTE_KEYS.map((k) => k.name).sort());
    expect(await ensureSearchAttributes(client, namespace)).toEqual([]);
  });

  it("finds a tenant's webhook retries by RgTenant and RgKind, with the receiver in the summary", async () => {
    // Deliveries go to their receiver's retry run (a workflow) when their first attempt, the dispatcher's in bulk, fails: each fails once here.
    const tried = new Set<string>();
    const receiver = await startReceiver((_n, r) => {
      const id = String(r.headers['webhook-id']);
      if (tried.has(id)) return { status: 204 };
      tried.add(id);
      return { status: 503 };
    });
    try {
      const worlds = [await makeWorld(), await makeWorld()];
      const deliveries: WebhookDelivery[] = [];
      for (const w of worlds) {
        const as = t.as(w.tokens.orgOwner);
        expect((await as.post('/api/v1/webhooks').send({ url: `${receiver.url}?token=secret` })).status).toBe(201);
        const source = await testimonialsOf(w.home);
        const res = await as.post('/api/v1/reviews').send({
          author: 'Operator',
          rating: 4,
          published_on: '2026-11-01',
          organization_id: w.org.id,
          location_id: w.home.id,
          source: source.id,
          message: 'Found in the UI.',
        });
        expect(res.status).toBe(201);
        await waitUntil(async () => (await WebhookDelivery.count({ where: { tenantId: w.tenant.id, event: 'review-created', status: 'succeeded' } })) === 1);
        deliveries.push((await WebhookDelivery.findOne({ where: { tenantId: w.tenant.id, event: 'review-created' } }))!);
      }

      const [w] = worlds;
      const found = await list(`RgTenant = '${w.tenant.id}' AND RgKind = 'webhook-delivery'`);
      // The receiver's retry run (one per receiver and window of hand-overs); the other tenant's is not listed.
      const runId = `webhook-retries:${temporal().settings.taskQueue}:${deliveries[0].endpointId}:`;
      expect(found.map((wf) => wf.workflowId)).toEqual([expect.stringMatching(new RegExp(`^${runId}\\d+$`))]);
      expect(attrs(found[0])).toEqual({ tenant: String(w.tenant.id), account: String(w.org.customerId), organization: undefined, kind: 'webhook-delivery', businessId: `receiver-${deliveries[0].endpointId}` });
      // "All deliveries of customer account Y": the account alone finds it too.
      expect((await list(`RgAccount = '${w.org.customerId}' AND RgKind = 'webhook-delivery' AND RgTenant = '${w.tenant.id}'`)).map((wf) => wf.workflowId)).toEqual([found[0].workflowId]);

      const description = await temporal().client.workflow.getHandle(found[0].workflowId).describe();
      // The query string (which may carry the receiver's secret) is left out of the summary.
      expect(await description.staticSummary()).toMatch(new RegExp(`^Webhook retries to ${receiver.url.replace(/[.]/g, '\\.')} \\(receiver ${deliveries[0].endpointId}, handed over from \\d{4}-\\d\\d-\\d\\dT`));
      expect(await activitySummaries(found[0].workflowId)).toEqual([`POST 1 delivery to receiver ${deliveries[0].endpointId} (attempts 2)`]);
    } finally {
      await receiver.close();
    }
  });

  it("finds an agency's scans by RgTenant, RgAccount (the agency's own account) and RgKind; the summary names the business", async () => {
    const w = await makeWorld();
    await configureGridProviders({ tenantId: w.tenant.id, mode: 'simulator' });
    const target = new SimulatedMarket().nearestPlace('dentist', 51.5074, -0.1278);
    const res = await t
      .as(await agencyTokenFor(w.owner))
      .post('/api/agency/v1/scans')
      .send({ location: 'Main Street Dental', keywords: ['dentist'], grid_size: 3, distance: 1, distance_unit: 'km', lat: target.lat, lng: target.lng, target_place_id: target.placeId });
    expect(res.status).toBe(202);
    const uuid = res.body.data.uuid as string;
    // Scans are the agency's: their account is the agency owner's own.
    const [scan] = await list(`RgTenant = '${w.tenant.id}' AND RgAccount = '${w.owner.customerId}' AND RgKind = 'scan-run'`);
    expect(attrs(scan)).toEqual({ tenant: String(w.tenant.id), account: String(w.owner.customerId), organization: undefined, kind: 'scan-run', businessId: uuid });
    const runId = (await Scan.findOne({ where: { uuid } }))!.currentRunId!;
    expect(scan.workflowId).toBe(`scan-run:${uuid}:${runId}`);
    const summary = await (await temporal().client.workflow.getHandle(scan.workflowId).describe()).staticSummary();
    expect(summary).toBe(`Scan ${uuid.slice(0, 8)}… run ${runId.slice(0, 8)}… for Main Street Dental`);

    await waitUntil(async () => (await Scan.findOne({ where: { uuid } }))?.isRunning === false);
    await list(`RgBusinessId = '${uuid}' AND ExecutionStatus = 'Completed'`);
    const summaries = await activitySummaries(scan.workflowId);
    expect(summaries[0]).toBe(`Load run ${runId} of scan ${uuid}`);
    expect(summaries.filter((s) => s.startsWith('Rank "dentist" at pin '))).toHaveLength(9);
    expect(summaries[summaries.length - 1]).toBe(`Complete run ${runId}`);
  });

  it('an operator cancels a scan run from Temporal: the run is stored failed, so the scan can run again', async () => {
    const w = await makeWorld();
    await configureGridProviders({ tenantId: w.tenant.id, mode: 'simulator' });
    const agency = t.as(await agencyTokenFor(w.owner));
    // No worker while the run is started and canceled: the cancellation is there before its first step.
    await worker.stopWorker();
    let uuid: string;
    try {
      const res = await agency.post('/api/agency/v1/scans').send({ location: 'Canceled Dental', keywords: ['dentist'], grid_size: 3, distance: 1, distance_unit: 'km', lat: 51.5, lng: -0.12 });
      expect(res.status).toBe(202);
      uuid = res.body.data.uuid as string;
      const [run] = await list(`RgKind = 'scan-run' AND RgBusinessId = '${uuid}' AND ExecutionStatus = 'Running'`);
      await temporal().client.workflow.getHandle(run.workflowId).cancel();
    } finally {
      await worker.startWorker();
    }
    await waitUntil(async () => (await Scan.findOne({ where: { uuid } }))?.isRunning === false);
    expect(await Scan.findOne({ where: { uuid } })).toMatchObject({ lastRunFailed: true, lastError: 'The run was canceled by an operator.' });
    await list(`RgKind = 'scan-run' AND RgBusinessId = '${uuid}' AND ExecutionStatus = 'Canceled'`);
    expect((await agency.post(`/api/agency/v1/scans/${uuid}/run`).send({})).status).toBe(202);
    await waitUntil(async () => (await Scan.findOne({ where: { uuid } }))?.isRunning === false);
  });

  it('finds the invite dispatcher as platform work; a waiting invite is a row it reads, not a workflow of its own', async () => {
    const w = await makeWorld();
    await ensureInviteDispatcher();
    const dispatcherId = inviteDispatcherWorkflowId(queue());
    try {
      // Sent in an hour: the invite waits in the invites table (what an operator looks up in the product, by contact id).
      const campaign = await makeCampaign(w.orgOwner, w.org, { name: 'Spring visit', sendAfterHours: 1 });
      const res = await t.as(w.tokens.orgOwner).post(`/api/v1/request-reviews/campaigns/${campaign.uuid}/invite`).send({ email: 'operator@example.com' });
      expect(res.status).toBe(202);
      const [dispatcher] = await list(`RgTenant = 'platform' AND RgKind = 'invite-dispatch' AND ExecutionStatus = 'Running'`);
      expect(dispatcher.workflowId).toBe(dispatcherId);
      expect(attrs(dispatcher)).toEqual({ tenant: 'platform', account: 'platform', organization: undefined, kind: 'invite-dispatch', businessId: queue() });
      expect(await (await temporal().client.workflow.getHandle(dispatcherId).describe()).staticSummary()).toBe(`Invite dispatcher of task queue ${queue()}`);
      await waitUntil(async () => (await activitySummaries(dispatcherId)).length > 0);
      expect((await activitySummaries(dispatcherId))[0]).toBe('Send due review requests (up to 100 a batch)');
      const invites: WorkflowExecutionInfo[] = [];
      for await (const wf of temporal().client.workflow.list({ query: `RgKind = 'invite' AND RgBusinessId = '${res.body.id}'` })) invites.push(wf);
      expect(invites).toEqual([]);
    } finally {
      await temporal().client.workflow.getHandle(dispatcherId).terminate('test finished').catch(() => undefined);
    }
  });

});
