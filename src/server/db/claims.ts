// Claims on queued work (deliveries, pushes) left by processes that are gone.
import { isDatabaseUnavailable } from './database-errors.js';
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
 * How long a PostgreSQL server must have been up before a process without a
 * connection to it counts as gone, in seconds. Right after the server
 * restarts, a process that still runs has not connected again yet (it tries
 * every second, each try waiting up to 5 s).
 */
export const RECONNECT_GRACE_SECONDS = 30;

/**
 * Frees the claims of processes that are gone, so their work is taken again
 * at once instead of when each lease runs out (a minute by default):
 *
 * - `every`: all claims. Only right when no other process can hold one —
 *   a PGlite folder, which its lock file gives to one process at a time.
 * - `gone`: on PostgreSQL, the claims whose process has no connection left
 *   (`pg_stat_activity` shows none named after its `instanceId`; a running
 *   process keeps one open for as long as it runs) — and none while the
 *   server has been up for less than `graceSeconds` (default
 *   {@link RECONNECT_GRACE_SECONDS}), when a running process may not have
 *   connected again yet.
 *
 * Returns how many claims it freed.
 *
 * @example
 * ```ts
 * await releaseOrphanedClaims(db, db.engine === 'pglite' ? 'every' : 'gone');
 * ```
 */
export async function releaseOrphanedClaims(sql: SqlQueryable, which: 'every' | 'gone', graceSeconds: number = RECONNECT_GRACE_SECONDS): Promise<number> {
  const gone = `and claimed_by is not null
    and pg_postmaster_start_time() <= now() - $1 * interval '1 second'
    and not exists (select 1 from pg_stat_activity a where a.application_name = '${INSTANCE_PREFIX}' || split_part(claimed_by, '/', 1))`;
  let freed = 0;
  for (const table of QUEUE_TABLES) {
    const rows = await sql.query(
      `update ${table} set locked_until = null, lease = null, claimed_by = null
        where locked_until is not null ${which === 'gone' ? gone : ''}
       returning 1`,
      which === 'gone' ? [graceSeconds] : [],
    );
    freed += rows.length;
  }
  return freed;
}

/**
 * What a starting process does with the claims of processes that are gone:
 * on a PGlite folder it frees them all; on PostgreSQL it frees those of
 * processes with no connection ({@link releaseOrphanedClaims}), and when the
 * server has been up for less than the grace, once more when the grace has
 * passed. `cancel()` drops that later round (the process is stopping).
 *
 * @example
 * ```ts
 * const release = await releaseClaimsAtStart(db, console.error);
 * // … at shutdown:
 * release.cancel();
 * ```
 */
export async function releaseClaimsAtStart(
  db: SqlDatabase,
  onError: (error: unknown) => void,
  graceSeconds: number = RECONNECT_GRACE_SECONDS,
): Promise<{ cancel(): void }> {
  const none = { cancel: () => undefined };
  if (db.engine === 'pglite') {
    await releaseOrphanedClaims(db, 'every');
    return none;
  }
  await releaseOrphanedClaims(db, 'gone', graceSeconds);
  const [row] = await db.query<{ wait: number }>(
    `select greatest(0, extract(epoch from pg_postmaster_start_time() + $1 * interval '1 second' - now()))::float8 as wait`,
    [graceSeconds],
  );
  if (row === undefined || row.wait <= 0) return none;
  const timer = setTimeout(() => {
    releaseOrphanedClaims(db, 'gone', graceSeconds).catch((error: unknown) => {
      if (!isDatabaseUnavailable(error)) onError(error);
    });
  }, Math.ceil(row.wait * 1000) + 100);
  (timer as { unref?: () => void }).unref?.();
  return { cancel: () => clearTimeout(timer) };
}
