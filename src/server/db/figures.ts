// What `/metrics` reads from the database at each scrape: every process's
// queued work. Each statement is bounded whatever the tables hold: counts by
// state are kept as the rows change (db/row-counts.ts), and what depends on
// the time (due now, the oldest due) is read from the pending deliveries'
// partial index, among the few scheduled for later.
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
  };
}
