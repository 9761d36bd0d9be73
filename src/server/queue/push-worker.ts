import type { PushResult } from '../../apns/classify.js';
import type { PushOptions } from '../../apns/client.js';
import { createEvent } from '../../webhooks/event.js';
import { nextRetryDelay } from '../../webhooks/retry.js';
import { removeRegistrationsOfToken } from '../db/devices.js';
import { addEvents } from '../db/outbox.js';
import { endPush, PUSHES, retryPush, type ClaimedPush } from '../db/pushes.js';
import type { SqlDatabase } from '../db/sql.js';
import { createQueue } from './queue.js';
import { retryWhileUnavailable, type Worker } from './queue-worker.js';

/**
 * What pushes pass updates: an {@link ApnsClient}, or anything with its `push`.
 *
 * @example
 * ```ts
 * const pusher: Pusher = createApnsClient({ certificate: { cert, key } });
 * ```
 */
export interface Pusher {
  push(pushToken: string, topic: string, options?: PushOptions): Promise<PushResult>;
}

/**
 * Sends the queued APNs pushes, claimed like deliveries (`FOR UPDATE SKIP
 * LOCKED`, leased, the lease extended while in flight): `sent` is done;
 * `gone` removes every registration with that device token and reports each
 * as `registration.deleted` (in the same transaction); `retry` waits as
 * `nextRetryDelay` says, `Retry-After` included; `rejected` (a configuration
 * APNs refuses) is kept as failed. Each push ends on its own: a slow device
 * holds one of the `batchSize` slots, not the others.
 *
 * @example
 * ```ts
 * const worker = createPushWorker(db, createApnsClient({ certificate: { cert, key } }));
 * worker.start();
 * ```
 */
export function createPushWorker(
  db: SqlDatabase,
  pusher: Pusher,
  options: { readonly batchSize?: number | undefined; readonly pollMs?: number | undefined; readonly leaseMs?: number | undefined } = {},
  onError: (error: unknown) => void = () => undefined,
): Worker {
  const record = async (row: ClaimedPush, lease: string, result: PushResult): Promise<void> => {
    const error = result.reason ?? result.error ?? null;
    await db.transaction(async (tx) => {
      if (result.outcome === 'retry') {
        const delay = nextRetryDelay(row.attempts + 1, { retryAfterMs: result.retryAfterMs });
        await retryPush(tx, row.id, error, delay ?? 86_400_000, lease);
        return;
      }
      const ended = await endPush(tx, row.id, result.outcome === 'sent' ? 'sent' : result.outcome === 'gone' ? 'gone' : 'failed', error);
      // Already recorded (a retry of this transaction whose commit did reach the database): nothing more.
      if (result.outcome !== 'gone' || !ended) return;
      const removed = await removeRegistrationsOfToken(tx, row.push_token);
      await addEvents(
        tx,
        removed.map((registration) =>
          createEvent('registration.deleted', {
            serialNumber: registration.serialNumber,
            passTypeIdentifier: registration.passTypeIdentifier,
            deviceLibraryIdentifier: registration.deviceLibraryIdentifier,
            wallet: 'apple',
          }),
        ),
      );
    });
  };

  return createQueue<ClaimedPush>(db, {
    kind: PUSHES,
    capacity: options.batchSize ?? 64,
    pollMs: options.pollMs ?? 1000,
    leaseMs: options.leaseMs ?? 60_000,
    async run(row, { lease, stopping }) {
      let result: PushResult;
      try {
        result = await pusher.push(row.push_token, row.topic);
      } catch (error) {
        result = { outcome: 'retry', error: error instanceof Error ? error.message : String(error) };
      }
      await retryWhileUnavailable(() => record(row, lease, result), stopping);
    },
    onError,
  });
}
