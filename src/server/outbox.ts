import type { WebhookEvent } from '../webhooks/event-types.js';
import type { SqlQueryable } from './sql.js';

/**
 * Adds events to the outbox inside the caller's transaction, with one
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
  if (events.length === 0) return;
  const rows = await tx.query<{ value: number }>(
    `update passmint_counters set value = value + $1 where name = 'event' returning value`,
    [events.length],
  );
  let seq = rows[0]!.value - events.length;
  for (const event of events) {
    seq += 1;
    await tx.query('insert into passmint_events (seq, id, type, body) values ($1, $2, $3, $4)', [
      seq,
      event.id,
      event.type,
      JSON.stringify(event),
    ]);
    await tx.query(
      `insert into passmint_deliveries (event_seq, webhook_id, status)
       select $1, id, 'pending' from passmint_webhooks where state = 'enabled'`,
      [seq],
    );
  }
}
