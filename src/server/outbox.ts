import type { WebhookEvent } from '../webhooks/event-types.js';
import type { SqlQueryable } from './sql.js';

/**
 * Adds events to the outbox inside the caller's transaction (or, for one
 * event, as one atomic statement on its own), with one
 * pending delivery per enabled webhook registration: the change that caused
 * them and the events commit together or not at all.
 *
 * Sequence numbers come from a single-row counter; its row lock is held to
 * the end of the transaction, so events become visible in the order of
 * their numbers and a worker never delivers event 7 to a registration while
 * event 6 is still about to commit. Callers add events last, to hold that
 * lock briefly.
 */
export async function addEvents(tx: SqlQueryable, events: readonly WebhookEvent[]): Promise<void> {
  // One statement per event (number, event, deliveries): one round trip each.
  for (const event of events) {
    await tx.query(
      `with counter as (
         update passmint_counters set value = value + 1 where name = 'event' returning value),
       event as (
         insert into passmint_events (seq, id, type, body) select value, $1, $2, $3 from counter returning seq)
       insert into passmint_deliveries (event_seq, webhook_id, status)
       select event.seq, webhook.id, 'pending' from event cross join passmint_webhooks webhook where webhook.state = 'enabled'`,
      [event.id, event.type, JSON.stringify(event)],
    );
  }
}
