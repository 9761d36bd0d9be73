// APNs pushes: one row per device token to tell that a pass changed, queued
// in the change's transaction and sent by the push worker (a kind of queued
// work, see queue.ts).
import { complete, fail, type QueueKind } from './queue.js';
import type { SqlQueryable } from './sql.js';

/** Pushes as queued work: pending and due, oldest due first. */
export const PUSHES: QueueKind = {
  table: 'passmint_pushes',
  claimable: "c.status = 'pending' and c.next_attempt_at <= now()",
  order: 'c.next_attempt_at',
  held: "status = 'pending'",
  returning: 'q.id, q.push_token, q.topic, q.attempts',
};

/** A claimed push. */
export interface ClaimedPush {
  readonly id: number;
  readonly push_token: string;
  readonly topic: string;
  readonly attempts: number;
}

/**
 * Queues one APNs push per distinct device token registered for the pass.
 *
 * @example
 * ```ts
 * await queuePushes(tx, 'pass.com.example', 'A-1');
 * ```
 */
export async function queuePushes(sql: SqlQueryable, passTypeIdentifier: string, serialNumber: string): Promise<void> {
  await sql.query(
    `insert into passmint_pushes (push_token, topic, status)
     select distinct push_token, pass_type_identifier, 'pending' from passmint_wallet_registrations
      where pass_type_identifier = $1 and serial_number = $2`,
    [passTypeIdentifier, serialNumber],
  );
}

/**
 * Schedules a push's next attempt in `delayMs`; only the holder of `lease` may.
 *
 * @example
 * ```ts
 * await retryPush(tx, 7, 'TooManyRequests', 5000, lease);
 * ```
 */
export async function retryPush(sql: SqlQueryable, id: number, error: string | null, delayMs: number, lease: string): Promise<void> {
  await fail(sql, PUSHES, id, { set: 'attempts = attempts + 1, last_error = $2', params: [error] }, delayMs, lease);
}

/**
 * Ends a pending push as `sent`, `gone` (the device token is no more) or
 * `failed` (refused); resolves to `false` when it had ended already (a
 * retried transaction whose first commit did reach the database).
 *
 * @example
 * ```ts
 * if (await endPush(tx, 7, 'gone', 'Unregistered')) … remove the token's registrations …
 * ```
 */
export async function endPush(sql: SqlQueryable, id: number, status: 'sent' | 'gone' | 'failed', error: string | null): Promise<boolean> {
  return (await complete(sql, PUSHES, id, { set: 'status = $2, attempts = attempts + 1, last_error = $3', params: [status, error] })) > 0;
}

/**
 * Deletes at most `limit` pushes that ended (sent, gone, failed) and were
 * last due more than `days` whole days ago (retention); resolves to how many went.
 *
 * @example
 * ```ts
 * await deleteEndedPushes(tx, 30, 1000);
 * ```
 */
export async function deleteEndedPushes(sql: SqlQueryable, days: number, limit: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `with gone as (delete from passmint_pushes where id in (
        select id from passmint_pushes
         where status <> 'pending' and next_attempt_at < now() - $1 * interval '1 day'
         limit $2) returning 1) select count(*)::int as n from gone`,
    [days, limit],
  );
  return rows[0]?.n ?? 0;
}
