// Claims on queued work (deliveries, pushes) left by processes that are gone.
import type { SqlDatabase, SqlQueryable } from './sql.js';

/**
 * What every PostgreSQL connection of a passmint process is named
 * (`application_name`), followed by its database's `instanceId`.
 */
export const INSTANCE_PREFIX = 'passmint:';

/**
 * The queue tables: each has `locked_until` (the lease's end), `lease` (the
 * claim's id) and `claimed_by` (see {@link claimOwner}). A new kind of
 * queued job adds its table here.
 */
export const QUEUE_TABLES: readonly string[] = ['passmint_deliveries', 'passmint_pushes', 'passmint_google_jobs'];

/**
 * What one worker writes in `claimed_by`: its database's `instanceId` (the
 * process, as PostgreSQL sees it) and `/` and an id of the worker's own, so
 * two workers on one database never free each other's claims; `null` on a
 * database without an `instanceId`.
 *
 * @example
 * ```ts
 * claimOwner(db); // '3f0c…-…/9a1b2c3d'
 * ```
 */
export function claimOwner(db: Pick<SqlDatabase, 'instanceId'>): string | null {
  return db.instanceId === undefined ? null : `${db.instanceId}/${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * Frees the claims of processes that are gone, so their work is taken again
 * at once instead of when each lease runs out (a minute by default):
 *
 * - `every`: all claims. Only right when no other process can hold one —
 *   a PGlite folder, which its lock file gives to one process at a time.
 * - `gone`: on PostgreSQL, the claims whose process has no connection left
 *   (`pg_stat_activity` shows none named after its `instanceId`; a running
 *   process keeps one open for as long as it runs).
 *
 * Returns how many claims it freed.
 *
 * @example
 * ```ts
 * await releaseOrphanedClaims(db, db.engine === 'pglite' ? 'every' : 'gone');
 * ```
 */
export async function releaseOrphanedClaims(sql: SqlQueryable, which: 'every' | 'gone'): Promise<number> {
  const gone = `and claimed_by is not null
    and not exists (select 1 from pg_stat_activity a where a.application_name = '${INSTANCE_PREFIX}' || split_part(claimed_by, '/', 1))`;
  let freed = 0;
  for (const table of QUEUE_TABLES) {
    const rows = await sql.query(
      `update ${table} set locked_until = null, lease = null, claimed_by = null
        where locked_until is not null ${which === 'gone' ? gone : ''}
       returning 1`,
    );
    freed += rows.length;
  }
  return freed;
}
