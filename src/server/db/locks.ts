// PostgreSQL advisory locks held to the end of the caller's transaction:
// what one process at a time must do (a retention round, the first key).
import type { SqlQueryable } from './sql.js';

/**
 * Waits for the transaction lock `key` (released at commit or rollback).
 *
 * @example
 * ```ts
 * await db.transaction(async (tx) => { await lockForTransaction(tx, 0x7061_7374); … });
 * ```
 */
export async function lockForTransaction(tx: SqlQueryable, key: number): Promise<void> {
  await tx.query('select pg_advisory_xact_lock($1)', [key]);
}

/**
 * Takes the transaction lock `key` when it is free; `false` when another
 * transaction holds it (it does not wait).
 *
 * @example
 * ```ts
 * if (!(await tryLockForTransaction(tx, RETENTION_LOCK))) return; // another process is at it
 * ```
 */
export async function tryLockForTransaction(tx: SqlQueryable, key: number): Promise<boolean> {
  const [lock] = await tx.query<{ held: boolean }>('select pg_try_advisory_xact_lock($1) as held', [key]);
  return lock?.held === true;
}
