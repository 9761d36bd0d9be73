// What `/metrics` reads from the database at each scrape: every process's
// queued work, from the repositories of the kinds' tables.
import { deliveriesByStatus, deliveryQueueFigures, type DeliveryQueueFigures } from './deliveries.js';
import { googleSyncFigures, type GoogleSyncFigures } from './google-sync.js';
import { pushesByStatus } from './pushes.js';
import type { SqlQueryable } from './sql.js';

/** The queues' figures: the webhook queue, deliveries and pushes by status, the Google sync queue. */
export interface QueueFigures {
  readonly queue: DeliveryQueueFigures;
  readonly deliveries: { status: string; n: number }[];
  readonly pushes: { status: string; n: number }[];
  readonly google: GoogleSyncFigures;
}

/**
 * Reads the queues' figures, one statement after another (a scrape holds
 * one pooled connection at a time).
 *
 * @example
 * ```ts
 * const metrics = createMetrics(() => readQueueFigures(db));
 * ```
 */
export async function readQueueFigures(sql: SqlQueryable): Promise<QueueFigures> {
  const queue = await deliveryQueueFigures(sql);
  const deliveries = await deliveriesByStatus(sql);
  const pushes = await pushesByStatus(sql);
  const google = await googleSyncFigures(sql);
  return { queue, deliveries, pushes, google };
}
