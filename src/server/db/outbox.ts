import type { WebhookEvent } from '../../webhooks/event-types.js';
import type { SqlQueryable } from './sql.js';

/**
 * The statement that adds `$4` events (ids `$1`, types `$2`, bodies `$3`, in
 * that order) with one pending delivery each per enabled registration that
 * takes its type (`events` null, or naming it). The counter is bumped once
 * for all of them.
 */
const ADD_EVENTS = `with input as (
     select * from unnest($1::uuid[], $2::text[], $3::text[]) with ordinality as x(id, type, body, i)),
   counter as (
     update passmint_counters set value = value + $4 where name = 'event' returning value),
   event as (
     insert into passmint_events (seq, id, type, body)
     select counter.value - $4 + input.i, input.id, input.type, input.body from input cross join counter
     order by input.i
     returning seq, type),
   delivery as (
     insert into passmint_deliveries (event_seq, webhook_id, status)
     select event.seq, webhook.id, 'pending' from event cross join passmint_webhooks webhook
      where webhook.state = 'enabled' and (webhook.events is null or event.type = any (webhook.events))
     returning 1)
 select count(*)::int as deliveries from delivery`;

/**
 * Adds events to the outbox inside the caller's transaction (or, on its own,
 * as one atomic statement), with one pending delivery per enabled webhook
 * registration: the change that caused them and the events commit together
 * or not at all. Any number of events is one statement (one round trip).
 * Resolves to how many deliveries it queued (0: no registration is enabled,
 * and no worker needs waking).
 *
 * Sequence numbers come from a single-row counter; its row lock is held to
 * the end of the transaction, so events become visible in the order of
 * their numbers and a worker never delivers event 7 to a registration while
 * event 6 is still about to commit. Callers add events last, to hold that
 * lock briefly; where many requests add events at once, they share one
 * statement and one commit (see `createEventBatch` and `createPassBatch`).
 */
export async function addEvents(tx: SqlQueryable, events: readonly WebhookEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const rows = await tx.query<{ deliveries: number }>(ADD_EVENTS, [
    events.map((event) => event.id),
    events.map((event) => event.type),
    events.map((event) => JSON.stringify(event)),
    events.length,
  ]);
  return rows[0]?.deliveries ?? 0;
}

/**
 * Tells the processes listening on `channel` that work was queued (a
 * PostgreSQL NOTIFY with `payload`, the sender's instance id). Sent after
 * the commit, not inside it: the transactions that queue work do not take
 * PostgreSQL's notification lock.
 *
 * @example
 * ```ts
 * await notifyOutbox(db, 'passmint_outbox', db.instanceId!);
 * ```
 */
export async function notifyOutbox(sql: SqlQueryable, channel: string, payload: string): Promise<void> {
  await sql.query('select pg_notify($1, $2)', [channel, payload]);
}
