import type { PushResult } from '../../apns/classify.js';
import type { PushOptions } from '../../apns/client.js';
import { createEvent } from '../../webhooks/event.js';
import { nextRetryDelay } from '../../webhooks/retry.js';
import { claimOwner } from '../db/claims.js';
import { addEvents } from '../db/outbox.js';
import { createQueueWorker, retryWhileUnavailable, type Worker } from './queue-worker.js';
import type { SqlDatabase } from '../db/sql.js';

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
  const batchSize = options.batchSize ?? 64;
  const leaseMs = options.leaseMs ?? 60_000;
  const owner = claimOwner(db);

  const record = async (row: PushRow, lease: string, result: PushResult): Promise<void> => {
    const error = result.reason ?? result.error ?? null;
    await db.transaction(async (tx) => {
      if (result.outcome === 'retry') {
        const delay = nextRetryDelay(row.attempts + 1, { retryAfterMs: result.retryAfterMs });
        await tx.query(
          `update passmint_pushes set attempts = attempts + 1, last_error = $2, locked_until = null, lease = null, claimed_by = null,
                  next_attempt_at = now() + $3 * interval '1 millisecond' where id = $1 and lease = $4`,
          [row.id, error, delay ?? 86_400_000, lease],
        );
        return;
      }
      const status = result.outcome === 'sent' ? 'sent' : result.outcome === 'gone' ? 'gone' : 'failed';
      const updated = await tx.query(
        `update passmint_pushes set status = $2, attempts = attempts + 1, last_error = $3, locked_until = null, lease = null, claimed_by = null
          where id = $1 and status = 'pending' returning 1`,
        [row.id, status, error],
      );
      // Already recorded (a retry of this transaction whose commit did reach the database): nothing more.
      if (result.outcome !== 'gone' || updated.length === 0) return;
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
            wallet: 'apple',
          }),
        ),
      );
    });
  };

  return createQueueWorker<PushRow>({
    capacity: batchSize,
    pollMs: options.pollMs ?? 1000,
    leaseMs,
    claim: (limit, lease) =>
      db.query<PushRow>(
        `update passmint_pushes p set locked_until = now() + $2 * interval '1 millisecond', lease = $3, claimed_by = $4
          where p.id in (
            select id from passmint_pushes
             where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
             order by next_attempt_at limit $1
               for update skip locked)
         returning p.id, p.push_token, p.topic, p.attempts`,
        [limit, leaseMs, lease, owner],
      ),
    async run(row, lease, stopping) {
      let result: PushResult;
      try {
        result = await pusher.push(row.push_token, row.topic);
      } catch (error) {
        result = { outcome: 'retry', error: error instanceof Error ? error.message : String(error) };
      }
      await retryWhileUnavailable(() => record(row, lease, result), stopping);
    },
    async extend(claims) {
      await db.query(
        `update passmint_pushes p set locked_until = now() + $3 * interval '1 millisecond'
           from unnest($1::bigint[], $2::uuid[]) as c(id, lease)
          where p.id = c.id and p.lease = c.lease and p.status = 'pending'`,
        [claims.map((claim) => claim.job.id), claims.map((claim) => claim.lease), leaseMs],
      );
    },
    async releaseLost(keep) {
      if (owner === null) return;
      await db.query(
        `update passmint_pushes set locked_until = null, lease = null, claimed_by = null
          where claimed_by = $1 and status = 'pending' and not (lease = any($2::uuid[]))`,
        [owner, keep],
      );
    },
    onError,
  });
}
