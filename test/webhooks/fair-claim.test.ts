import { OutboxEvent } from '../../src/models';
import * as delivery from '../../src/jobs/webhook-delivery';
import { useDatabase } from '../support/db';
import { makeTenant } from '../support/factories';

/**
 * The dispatcher's claim shares each batch between the tenants with events waiting (review L3): one tenant's burst
 * no longer holds every other tenant's first attempts behind it until the burst is through. With one tenant waiting it
 * claims as before (its oldest events), and each tenant's events come oldest first.
 */
describe("the outbox claim shares a batch between tenants (one tenant's burst does not hold the others)", () => {
  // Leave no undispatched events behind for later files in this worker. Declared before the database hook.
  afterAll(async () => {
    await OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });
  });
  useDatabase();
  /** Other files' events stay in this worker's database: each test starts from an empty outbox. */
  const drain = () => OutboxEvent.update({ dispatchedAt: new Date() }, { where: { dispatchedAt: null } });

  /** `count` events of the tenant, in order (no receivers: a claim marks them dispatched). */
  async function events(tenantId: number, count: number): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const e = await OutboxEvent.create({
        tenantId,
        customerId: null,
        event: 'location-updated',
        aggregateType: 'location',
        aggregateId: String(i),
        payload: { webhook_event: 'location-updated', id: i },
        occurredAt: new Date(),
      });
      ids.push(Number(e.id));
    }
    return ids;
  }
  const claimed = async (limit: number) => (await delivery.claimPendingEvents(limit)).map((e) => e.eventId);

  it("claims another tenant's newer event in the next batch, not after the burst; the burst tenant fills the rest, oldest first", async () => {
    const a = (await makeTenant()).tenant.id;
    const b = (await makeTenant()).tenant.id;
    await drain();
    const burst = await events(a, 30);
    const [other] = await events(b, 1);
    const batch = await claimed(10);
    expect(batch).toEqual([...burst.slice(0, 9), other]);
    expect(await claimed(10)).toEqual(burst.slice(9, 19));
  });

  it('gives each of several tenants an equal part, their oldest first, what one leaves going to the oldest of the others', async () => {
    const [a, b, c] = [(await makeTenant()).tenant.id, (await makeTenant()).tenant.id, (await makeTenant()).tenant.id];
    await drain();
    const ofA = await events(a, 10);
    const ofB = await events(b, 10);
    const ofC = await events(c, 1);
    // 9 in a batch, three tenants: 3 each, but C has one; the two left go to the oldest events not taken (A's).
    expect(await claimed(9)).toEqual([...ofA.slice(0, 5), ...ofB.slice(0, 3), ofC[0]]);
  });

  it('takes the tenants in turn when a batch has fewer places than tenants are waiting (round robin)', async () => {
    const tenants: number[] = [];
    for (let i = 0; i < 6; i++) tenants.push((await makeTenant()).tenant.id);
    await drain();
    const tenantOf = new Map<number, number>();
    for (const tenant of tenants) for (const id of await events(tenant, 2)) tenantOf.set(id, tenant);
    const first = await claimed(4);
    const second = await claimed(4);
    // Four places: one event each of four tenants, then of the next four (round the end, to the first again).
    for (const batch of [first, second]) expect(new Set(batch.map((id) => tenantOf.get(id))).size).toBe(4);
    expect(new Set([...first, ...second].map((id) => tenantOf.get(id)))).toEqual(new Set(tenants));
    // Each tenant's oldest event went before its second.
    for (const tenant of tenants) {
      const mine = [...tenantOf].filter(([, t]) => t === tenant).map(([id]) => id);
      if ([...first, ...second].includes(mine[1])) expect([...first, ...second]).toContain(mine[0]);
    }
  });

  it('claims the oldest events when a single tenant is waiting, and skips events still in hand', async () => {
    const a = (await makeTenant()).tenant.id;
    const b = (await makeTenant()).tenant.id;
    await drain();
    const ofA = await events(a, 5);
    expect((await delivery.claimForDelivery(3, { skip: [ofA[0]] })).events.map((e) => e.eventId)).toEqual(ofA.slice(1, 4));
    const ofB = await events(b, 2);
    // Two tenants, A's oldest still in hand: A's part is its one other event, B's part both of its own.
    expect((await delivery.claimForDelivery(4, { skip: [ofA[0]] })).events.map((e) => e.eventId)).toEqual([ofA[4], ...ofB]);
  });
});
