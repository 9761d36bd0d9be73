// Events that record what happened without changing anything (a download):
// written in the background, many requests' events in one statement.
import type { WebhookEvent } from '../../webhooks/event-types.js';
import { isDatabaseUnavailable } from './database-errors.js';
import { addEvents } from './outbox.js';
import type { SqlQueryable } from './sql.js';

/**
 * A queue of events written by one statement per round: while one round is
 * being written, the events that arrive wait and go together in the next
 * (group commit by concurrency: no timer, no added wait when idle).
 *
 * @example
 * ```ts
 * const batch: EventBatch = createEventBatch(db, { onWritten: wakeWorkers, onError: console.error });
 * batch.add(createEvent('pass.downloaded', { serialNumber, passTypeIdentifier }));
 * await batch.flush(); // at shutdown
 * ```
 */
export interface EventBatch {
  /** Queues an event; it is written within a round trip or two. Not awaited by the request that made it. */
  add(event: WebhookEvent): void;
  /** Resolves when every event queued so far is written or refused, or after `limitMs` (default 10 s) of a database outage. */
  flush(limitMs?: number): Promise<void>;
  /** Events waiting to be written. */
  readonly pending: number;
}

/** Options of {@link createEventBatch}. */
export interface EventBatchOptions {
  /** Called after each written round that queued deliveries (wakes the delivery workers). */
  readonly onWritten: () => void;
  /** Told about a failed round other than a database outage. */
  readonly onError: (error: unknown) => void;
  /** Most events one statement writes; default 500. */
  readonly maxBatch?: number | undefined;
  /** Most events kept while the database is away; past that the oldest are dropped; default 10,000. */
  readonly maxPending?: number | undefined;
}

/**
 * Makes an event batch on `db`. While the database cannot be reached, the
 * events wait (up to `maxPending`) and a round is tried again every second.
 * The trade-off, for events that record no change: one the service answered
 * for is lost if the process is killed before its round is written (a few
 * milliseconds) or when more than `maxPending` wait during an outage.
 *
 * @example
 * ```ts
 * const batch = createEventBatch(db, { onWritten: () => undefined, onError: console.error, maxBatch: 100 });
 * ```
 */
export function createEventBatch(db: SqlQueryable, options: EventBatchOptions): EventBatch {
  const maxBatch = options.maxBatch ?? 500;
  const maxPending = options.maxPending ?? 10_000;
  let queue: WebhookEvent[] = [];
  let writing: Promise<void> | undefined;

  const round = async (): Promise<void> => {
    while (queue.length > 0) {
      const events = queue.slice(0, maxBatch);
      queue = queue.slice(events.length);
      try {
        // No registration enabled: nothing queued for the workers, no need to wake them (nor the other processes).
        if ((await addEvents(db, events)) > 0) options.onWritten();
      } catch (error) {
        if (!isDatabaseUnavailable(error)) {
          // Refused (not lost on the way): writing it again would fail again.
          options.onError(error);
          continue;
        }
        queue = [...events, ...queue].slice(-maxPending);
        await new Promise((resolve) => setTimeout(resolve, 1000).unref?.());
      }
    }
  };

  const start = (): Promise<void> => {
    writing ??= round().finally(() => {
      writing = undefined;
    });
    return writing;
  };

  return {
    add(event) {
      queue.push(event);
      if (queue.length > maxPending) queue.shift();
      void start();
    },
    async flush(limitMs = 10_000) {
      const until = Date.now() + limitMs;
      while ((writing !== undefined || queue.length > 0) && Date.now() < until) {
        await Promise.race([start(), new Promise((resolve) => setTimeout(resolve, Math.max(0, until - Date.now())).unref?.())]);
      }
    },
    get pending() {
      return queue.length;
    },
  };
}
