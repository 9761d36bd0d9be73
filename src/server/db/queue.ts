// The statements of the durable queue, written once over every kind of
// queued work (webhook deliveries, APNs pushes, Google Wallet syncs, and the
// kinds to come). A kind's table has `id`, `next_attempt_at`, `locked_until`
// (the lease's end), `lease` (the claim's id) and `claimed_by` (the process
// and worker that claimed it); a kind describes the rest in a QueueKind.
import type { SqlQueryable } from './sql.js';

/**
 * A kind of queued work as its table holds it: what the queue's statements
 * need besides the columns every queue table shares. SQL fragments, fixed
 * per kind (never built from input). In `claimable` and `order` the
 * candidate row is `c`; in `returning`, the claimed row is `q`.
 *
 * @example
 * ```ts
 * const PUSHES: QueueKind = {
 *   table: 'passmint_pushes',
 *   claimable: "c.status = 'pending' and c.next_attempt_at <= now()",
 *   order: 'c.next_attempt_at',
 *   held: "status = 'pending'",
 *   returning: 'q.id, q.push_token, q.topic, q.attempts',
 * };
 * ```
 */
export interface QueueKind {
  /** The kind's table, e.g. `passmint_pushes`. */
  readonly table: string;
  /**
   * Which rows may be claimed besides "not held by a live lease" (which the
   * queue adds): pending and due, and any rule of the kind's own (deliveries:
   * at most so many of a registration's at once, each the oldest of its pass,
   * so a registration receives each pass's events in order).
   */
  readonly claimable: string;
  /** The order candidates are claimed in. */
  readonly order: string;
  /** A row still worked on (its lease may be extended, or freed), e.g. `status = 'pending'`; default every row. */
  readonly held?: string | undefined;
  /** What a claim returns of each claimed row (`q`). */
  readonly returning: string;
  /**
   * What a claim resolves to when the claimed rows are not enough (a
   * delivery's event body and receiver): a query over `claimed` (the rows
   * `returning` gave); without it, the claimed rows.
   */
  readonly payload?: string | undefined;
  /** Further parameters of the claim, `$5` on (deliveries: how many one registration may have in flight). */
  readonly params?: readonly unknown[] | undefined;
}

/** A job in flight: its row's id and the claim it was taken under. */
export interface HeldClaim {
  readonly id: number;
  readonly lease: string;
}

/** The lease's columns, cleared when a job ends or is given back. */
const UNLOCK = 'locked_until = null, lease = null, claimed_by = null';

const held = (kind: QueueKind, alias = ''): string => (kind.held === undefined ? 'true' : `${alias}${kind.held}`);

/**
 * The claim statement of a kind: `$1` most rows, `$2` lease in ms, `$3` the
 * claim id, `$4` the owner, `$5` on the kind's `params`. Candidates are locked with `FOR UPDATE SKIP
 * LOCKED` and re-checked, so workers polling at the same instant skip each
 * other's rows instead of waiting on them.
 *
 * @example
 * ```ts
 * claimStatement(PUSHES); // 'update passmint_pushes q set locked_until = … returning q.id, …'
 * ```
 */
export function claimStatement(kind: QueueKind): string {
  const update = `update ${kind.table} q set locked_until = now() + $2 * interval '1 millisecond', lease = $3, claimed_by = $4
          where q.id in (
            select c.id from ${kind.table} c
             where ${kind.claimable}
               and (c.locked_until is null or c.locked_until < now())
             order by ${kind.order}
             limit $1
               for update skip locked)
         returning ${kind.returning}`;
  return kind.payload === undefined ? update : `with claimed as (\n         ${update})\n       ${kind.payload}`;
}

/**
 * Claims up to `limit` due rows of a kind for `leaseMs` under the claim id
 * `lease`, written as `owner`'s (see `claimOwner`).
 *
 * @example
 * ```ts
 * const jobs = await claim<PushRow>(db, PUSHES, 64, 60_000, crypto.randomUUID(), owner);
 * ```
 */
export async function claim<TJob>(sql: SqlQueryable, kind: QueueKind, limit: number, leaseMs: number, lease: string, owner: string | null): Promise<TJob[]> {
  return sql.query<TJob>(claimStatement(kind), [limit, leaseMs, lease, owner, ...(kind.params ?? [])]);
}

/**
 * Pushes back the end of the given claims by `leaseMs` (their jobs are
 * still running). The rows are locked in id order first, as every statement
 * that changes several queue rows at once locks them, so two such
 * statements never wait on each other in a circle.
 *
 * @example
 * ```ts
 * await extend(db, PUSHES, [{ id: 7, lease }], 60_000);
 * ```
 */
export async function extend(sql: SqlQueryable, kind: QueueKind, claims: readonly HeldClaim[], leaseMs: number): Promise<void> {
  await sql.query(
    `with c as (select * from unnest($1::bigint[], $2::uuid[]) as c(id, lease)),
          locked as (
            select q.id from ${kind.table} q join c on c.id = q.id and c.lease = q.lease
             where ${held(kind, 'q.')}
             order by q.id
               for update of q)
     update ${kind.table} q set locked_until = now() + $3 * interval '1 millisecond'
       from locked where q.id = locked.id`,
    [claims.map((c) => c.id), claims.map((c) => c.lease), leaseMs],
  );
}

/**
 * An outcome's changes to a row besides its lease: SQL assignments of the
 * kind's own columns, whose parameters are `$2` on (`$1` is the row's id).
 *
 * @example
 * ```ts
 * const sent: Changes = { set: 'status = $2, attempts = attempts + 1, last_error = $3', params: ['sent', null] };
 * ```
 */
export interface Changes {
  readonly set: string;
  readonly params: readonly unknown[];
}

/**
 * Ends a job: applies `changes` and frees its lease. With `lease`, only the
 * holder of that claim may (a worker whose lease ran out must not record
 * over another's); without it, any row still held (`kind.held`) — for an
 * outcome that stands whoever holds the row now. Resolves to how many rows
 * changed (0: already recorded, or the claim was lost).
 *
 * @example
 * ```ts
 * await complete(tx, PUSHES, 7, { set: 'status = $2, attempts = attempts + 1', params: ['sent'] });
 * ```
 */
export async function complete(sql: SqlQueryable, kind: QueueKind, id: number, changes: Changes, lease?: string): Promise<number> {
  const guard = lease === undefined ? held(kind) : `lease = $${changes.params.length + 2}`;
  const rows = await sql.query(`update ${kind.table} set ${changes.set}, ${UNLOCK} where id = $1 and ${guard} returning 1`, [
    id,
    ...changes.params,
    ...(lease === undefined ? [] : [lease]),
  ]);
  return rows.length;
}

/**
 * Fails an attempt of a job and schedules the next: applies `changes`,
 * frees the lease and makes the job due again in `delayMs`. Only the holder
 * of `lease` may. Resolves to how many rows changed (0: the claim was lost).
 *
 * @example
 * ```ts
 * await fail(tx, PUSHES, 7, { set: 'attempts = attempts + 1, last_error = $2', params: ['timeout'] }, 5000, lease);
 * ```
 */
export async function fail(sql: SqlQueryable, kind: QueueKind, id: number, changes: Changes, delayMs: number, lease: string): Promise<number> {
  const next = changes.params.length + 2;
  const rows = await sql.query(
    `update ${kind.table} set ${changes.set}, ${UNLOCK},
            next_attempt_at = now() + $${next} * interval '1 millisecond' where id = $1 and lease = $${next + 1} returning 1`,
    [id, ...changes.params, delayMs, lease],
  );
  return rows.length;
}

/**
 * Frees `owner`'s claims other than `keep` (the claim ids of the jobs in
 * flight): a claim made whose answer was lost with the connection would
 * otherwise wait for its lease to run out.
 *
 * @example
 * ```ts
 * await releaseLost(db, PUSHES, owner, [leaseInFlight]);
 * ```
 */
export async function releaseLost(sql: SqlQueryable, kind: QueueKind, owner: string, keep: readonly string[]): Promise<void> {
  await sql.query(`update ${kind.table} set ${UNLOCK} where claimed_by = $1 and ${held(kind)} and not (lease = any($2::uuid[]))`, [owner, keep]);
}

/**
 * What every PostgreSQL connection of a passmint process is named
 * (`application_name`), followed by its database's `instanceId`.
 */
export const INSTANCE_PREFIX = 'passmint:';

/**
 * How long a PostgreSQL server must have been up before a process without a
 * connection to it counts as gone, in seconds. Right after the server
 * restarts, a process that still runs has not connected again yet (it tries
 * every second, each try waiting up to 5 s).
 */
export const RECONNECT_GRACE_SECONDS = 30;

/**
 * Frees the claims on `kinds`' rows of processes that are gone, so their
 * work is taken again at once instead of when each lease runs out:
 *
 * - `every`: all claims. Only right when no other process can hold one —
 *   a PGlite folder, which its lock file gives to one process at a time.
 * - `gone`: on PostgreSQL, the claims whose process has no connection left
 *   (`pg_stat_activity` shows none named after its `instanceId`) — and none
 *   while the server has been up for less than `graceSeconds`, when a
 *   running process may not have connected again yet.
 *
 * Only the rows a kind still works on (`held`) are looked at: every outcome
 * frees its row's claim, so no other row holds one.
 *
 * Returns how many claims it freed.
 *
 * @example
 * ```ts
 * await releaseOrphans(db, [DELIVERIES, PUSHES], 'gone', 30);
 * ```
 */
export async function releaseOrphans(sql: SqlQueryable, kinds: readonly QueueKind[], which: 'every' | 'gone', graceSeconds: number): Promise<number> {
  const gone = `and claimed_by is not null
    and pg_postmaster_start_time() <= now() - $1 * interval '1 second'
    and not exists (select 1 from pg_stat_activity a where a.application_name = '${INSTANCE_PREFIX}' || split_part(claimed_by, '/', 1))`;
  let freed = 0;
  for (const kind of kinds) {
    // Only rows still worked on (`held`) carry a claim (every outcome frees it): read through the index of
    // those (a kind's pending rows), not the whole table.
    const rows = await sql.query(
      `update ${kind.table} set ${UNLOCK}
        where ${held(kind)} and locked_until is not null ${which === 'gone' ? gone : ''}
       returning 1`,
      which === 'gone' ? [graceSeconds] : [],
    );
    freed += rows.length;
  }
  return freed;
}

/**
 * How many seconds remain until the PostgreSQL server has been up for
 * `graceSeconds` (0 when it has).
 *
 * @example
 * ```ts
 * await secondsUntilGraceEnds(db, 30); // 0 on a server up for an hour
 * ```
 */
export async function secondsUntilGraceEnds(sql: SqlQueryable, graceSeconds: number): Promise<number> {
  const [row] = await sql.query<{ wait: number }>(
    `select greatest(0, extract(epoch from pg_postmaster_start_time() + $1 * interval '1 second' - now()))::float8 as wait`,
    [graceSeconds],
  );
  return row?.wait ?? 0;
}
