import type { PushResult } from '../apns/classify.js';
import type { PushOptions } from '../apns/client.js';
import { createEvent } from '../webhooks/event.js';
import { nextRetryDelay } from '../webhooks/retry.js';
import { createLoop, type Worker } from './delivery-worker.js';
import { addEvents } from './outbox.js';
import type { SqlDatabase } from './sql.js';

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

interface PushRow {
  id: number;
  push_token: string;
  topic: string;
  attempts: number;
}

/**
 * Sends the queued APNs pushes, claimed like deliveries (`FOR UPDATE SKIP
 * LOCKED`, leased): `sent` is done; `gone` removes every registration with
 * that device token and reports each as `registration.deleted` (in the same
 * transaction); `retry` waits as `nextRetryDelay` says, `Retry-After`
 * included; `rejected` (a configuration APNs refuses) is kept as failed.
 */
export function createPushWorker(
  db: SqlDatabase,
  pusher: Pusher,
  options: { readonly batchSize?: number | undefined; readonly pollMs?: number | undefined; readonly leaseMs?: number | undefined } = {},
  onError: (error: unknown) => void = () => undefined,
): Worker {
  const batchSize = options.batchSize ?? 64;
  const leaseMs = options.leaseMs ?? 60_000;
  return createLoop(async () => {
    const lease = crypto.randomUUID();
    const rows = await db.query<PushRow>(
      `update passmint_pushes p set locked_until = now() + $2 * interval '1 millisecond', lease = $3
        where p.id in (
          select id from passmint_pushes
           where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
           order by next_attempt_at limit $1
             for update skip locked)
       returning p.id, p.push_token, p.topic, p.attempts`,
      [batchSize, leaseMs, lease],
    );
    await Promise.all(
      rows.map(async (row) => {
        let result: PushResult;
        try {
          result = await pusher.push(row.push_token, row.topic);
        } catch (error) {
          result = { outcome: 'retry', error: error instanceof Error ? error.message : String(error) };
        }
        const error = result.reason ?? result.error ?? null;
        await db.transaction(async (tx) => {
          if (result.outcome === 'retry') {
            const delay = nextRetryDelay(row.attempts + 1, { retryAfterMs: result.retryAfterMs });
            await tx.query(
              `update passmint_pushes set attempts = attempts + 1, last_error = $2, locked_until = null, lease = null,
                      next_attempt_at = now() + $3 * interval '1 millisecond' where id = $1 and lease = $4`,
              [row.id, error, delay ?? 86_400_000, lease],
            );
            return;
          }
          const status = result.outcome === 'sent' ? 'sent' : result.outcome === 'gone' ? 'gone' : 'failed';
          await tx.query(
            `update passmint_pushes set status = $2, attempts = attempts + 1, last_error = $3, locked_until = null, lease = null where id = $1`,
            [row.id, status, error],
          );
          if (result.outcome !== 'gone') return;
          const removed = await tx.query<{ device_library_identifier: string; pass_type_identifier: string; serial_number: string }>(
            `delete from passmint_wallet_registrations where push_token = $1
             returning device_library_identifier, pass_type_identifier, serial_number`,
            [row.push_token],
          );
          await addEvents(
            tx,
            removed.map((registration) =>
              createEvent('registration.deleted', {
                serialNumber: registration.serial_number,
                passTypeIdentifier: registration.pass_type_identifier,
                deviceLibraryIdentifier: registration.device_library_identifier,
              } as { serialNumber: string; passTypeIdentifier: string }),
            ),
          );
        });
      }),
    );
    return rows.length;
  }, options.pollMs ?? 1000, onError);
}
