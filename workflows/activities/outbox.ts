const START_CONCURRENCY = 16;

export interface OutboxActivityDeps {
  /** Undispatched events with one delivery per enabled receiver (the same ids on a retry). */
  claim(limit: number): Promise<Array<{ eventId: number; deliveryIds: string[] }>>;
  markDispatched(eventId: number): Promise<void>;
  /** Starts `webhook:<delivery id>`; a second start of the same id is a no-op. */
  startDelivery(deliveryId: string): Promise<void>;
}

export function createOutboxActivities(deps: OutboxActivityDeps) {
  return {
    /**
     * Hands a batch of events to delivery workflows, then marks them dispatched. Dying half-way is safe: the
     * retry claims the same deliveries and starting their workflows again is a no-op.
     */
    async dispatchPendingEvents(limit: number): Promise<number> {
      const events = await deps.claim(limit);
      // Starts run side by side (each is a round trip to the server); an event is marked dispatched only once
      // every delivery of it has started.
      let next = 0;
      const work = async () => {
        while (next < events.length) {
          const event = events[next++];
          await Promise.all(event.deliveryIds.map((id) => deps.startDelivery(id)));
          await deps.markDispatched(event.eventId);
        }
      };
      await Promise.all(Array.from({ length: Math.min(START_CONCURRENCY, events.length) }, work));
      return events.length;
    },
  };
}

export type OutboxActivities = ReturnType<typeof createOutboxActivities>;
