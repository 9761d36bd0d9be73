// What `/metrics` reads from the database at each scrape: every process's
// queued work. Each statement is bounded whatever the tables hold: counts by
// state are kept as the rows change (db/row-counts.ts), and what depends on
// the time (due now, the oldest due) is read from the pending deliveries'
// partial index, among the few scheduled for later.
import { consoleBacklog } from './console-roll.js';
import { deliveryQueueFigures } from './deliveries.js';
import { readRowCounts } from './row-counts.js';
import type { SqlQueryable } from './sql.js';

/** The queues' figures: the webhook queue, deliveries and pushes by status, the Google sync queue. */
export interface QueueFigures {
  /** Pending deliveries, those of them due now, and how long the oldest due one has been due (seconds; `null` when none is). */
  readonly queue: { readonly pending: number; readonly due: number; readonly oldest: number | null };
  readonly deliveries: { status: string; n: number }[];
  readonly pushes: { status: string; n: number }[];
  /** Google Wallet classes and objects owed a change, and of those the ones whose last attempt failed. */
  readonly google: { readonly owed: number; readonly retrying: number };
  /** The registrations furthest behind (see {@link webhookBacklogs}). */
  readonly webhooks: readonly WebhookBacklog[];
  /** Events the console's counts have not counted yet (see `passmint_console_roll`). */
  readonly consoleBacklog?: number | undefined;
}

const DELIVERY_STATES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
const PUSH_STATES = ['pending', 'sent', 'gone', 'failed'] as const;

/**
 * Reads the queues' figures, one statement after another (a scrape holds
 * one pooled connection at a time): the kept counts, then the webhook
 * queue's timing.
 *
 * @example
 * ```ts
 * const metrics = createMetrics(() => readQueueFigures(db));
 * ```
 */
export async function readQueueFigures(sql: SqlQueryable): Promise<QueueFigures> {
  const counts = await readRowCounts(sql);
  const timing = await deliveryQueueFigures(sql);
  const count = (name: string): number => Math.max(0, counts.get(name) ?? 0);
  const pending = count('deliveries:pending');
  return {
    // Two statements a moment apart: never shown below 0.
    queue: { pending, due: Math.max(0, pending - count('deliveries:parked') - timing.waiting), oldest: timing.oldest },
    deliveries: DELIVERY_STATES.map((status) => ({ status, n: count(`deliveries:${status}`) })),
    pushes: PUSH_STATES.map((status) => ({ status, n: count(`pushes:${status}`) })),
    google: { owed: count('google:owed'), retrying: count('google:retrying') },
    webhooks: await webhookBacklogs(sql),
    consoleBacklog: await consoleBacklog(sql),
  };
}

/** One registration's backlog, as `/metrics` shows it. */
export interface WebhookBacklog {
  readonly webhookId: string;
  /** Its pending deliveries, counted up to {@link BACKLOG_COUNTED} (shown as that many when there are more). */
  readonly pending: number;
  /** How long ago the event of its oldest pending delivery was made, in seconds: how far behind the receiver is. */
  readonly oldestPending: number;
  /** How long its oldest due delivery has been due (in flight or waiting for a slot), in seconds; `null` when none is due. */
  readonly oldestDue: number | null;
}

/** Most registrations `/metrics` lists (those furthest behind), and most looked at to choose them (the first enabled). */
export const BACKLOGS_LISTED = 20;
const BACKLOGS_CONSIDERED = 1000;
/** How far a registration's pending deliveries are counted. */
export const BACKLOG_COUNTED = 10_000;

/**
 * The enabled registrations with pending deliveries, furthest behind first
 * (the oldest pending event), at most {@link BACKLOGS_LISTED}: each one's
 * backlog and the age of its oldest pending and oldest due delivery.
 * Bounded whatever the tables hold: one index probe per registration
 * considered (the first 1,000 enabled) for its oldest pending delivery, and
 * for those listed one for the oldest due and a count that stops at
 * {@link BACKLOG_COUNTED} — at most 20 × 10,000 index entries, never a
 * count over the deliveries table.
 *
 * @example
 * ```ts
 * await webhookBacklogs(db); // [{ webhookId: '…', pending: 35032, oldestPending: 312.5, oldestDue: 0.4 }]
 * ```
 */
export async function webhookBacklogs(sql: SqlQueryable): Promise<WebhookBacklog[]> {
  const rows = await sql.query<{ webhook_id: string; pending: number; oldest_pending: number; oldest_due: number | null }>(
    `with considered as (
       select w.id from passmint_webhooks w where w.state = 'enabled' order by w.seq limit ${BACKLOGS_CONSIDERED}),
     behind as (
       -- Each one's oldest pending delivery: the first entry of its pending deliveries by event.
       select c.id, o.created_at
         from considered c
         cross join lateral (
           select e.created_at from passmint_deliveries p join passmint_events e on e.seq = p.event_seq
            where p.webhook_id = c.id and p.status = 'pending'
            order by p.event_seq
            limit 1) o
        order by o.created_at
        limit ${BACKLOGS_LISTED})
     select b.id as webhook_id,
            extract(epoch from now() - b.created_at)::float8 as oldest_pending,
            (select extract(epoch from now() - p.next_attempt_at)::float8 from passmint_deliveries p
              where p.webhook_id = b.id and p.status = 'pending' and p.next_attempt_at < 'infinity' and p.next_attempt_at <= now()
              order by p.next_attempt_at
              limit 1) as oldest_due,
            (select count(*)::int from (select 1 from passmint_deliveries p
              where p.webhook_id = b.id and p.status = 'pending' limit ${BACKLOG_COUNTED}) c) as pending
       from behind b
      order by b.created_at, b.id`,
  );
  return rows.map((row) => ({
    webhookId: row.webhook_id,
    pending: row.pending,
    oldestPending: Math.max(0, row.oldest_pending),
    oldestDue: row.oldest_due === null ? null : Math.max(0, row.oldest_due),
  }));
}
