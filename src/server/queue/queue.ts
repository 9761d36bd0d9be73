// The durable queue, once for every kind of queued work (as graphile-worker
// and pg-boss keep theirs): a kind names its table (db/queue.ts's QueueKind,
// declared beside the kind's other statements in db/), a worker is the
// function that does one job, and this module claims, extends, frees and
// releases for all of them. A new kind adds its QueueKind to QUEUE_KINDS
// and calls createQueue with its worker.
import { isDatabaseUnavailable } from '../db/database-errors.js';
import { DELIVERIES } from '../db/deliveries.js';
import { GOOGLE_SYNCS } from '../db/google-sync.js';
import { JOBS } from '../db/jobs.js';
import { PUSHES } from '../db/pushes.js';
import { claim, extend, RECONNECT_GRACE_SECONDS, releaseLost, releaseOrphans, secondsUntilGraceEnds, type QueueKind } from '../db/queue.js';
import type { SqlDatabase, SqlQueryable } from '../db/sql.js';
import { createQueueWorker, type Claim, type Worker } from './queue-worker.js';

/** Every kind of queued work: the tables whose orphaned claims a starting process frees. */
export const QUEUE_KINDS: readonly QueueKind[] = [DELIVERIES, PUSHES, GOOGLE_SYNCS, JOBS];

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
 * What a worker is told about the job it runs besides the job's row.
 *
 * @example
 * ```ts
 * const run = async (job: ClaimedPush, { lease, stopping }: JobContext) => { … };
 * ```
 */
export interface JobContext {
  /** The claim it runs under: recording its outcome checks it (see db/queue.ts `complete`, `fail`). */
  readonly lease: string;
  /** This worker's `claimed_by` (for a statement that claims a next job while recording). */
  readonly owner: string | null;
  /** How long a claim lasts, in ms. */
  readonly leaseMs: number;
  /** Whether the process is stopping (an outcome is then retried for ten seconds at most while the database is away). */
  readonly stopping: () => boolean;
  /** Whether the worker may hand the slot a next job it claimed while recording (false in `runOnce`). */
  readonly follow: boolean;
}

/**
 * A queue of one kind: its table, how many jobs at once, and the worker.
 *
 * @example
 * ```ts
 * const options: QueueOptions<ClaimedPush> = { kind: PUSHES, capacity: 64, pollMs: 1000, leaseMs: 60_000, run: sendPush, onError };
 * ```
 */
export interface QueueOptions<TJob> {
  readonly kind: QueueKind;
  /** Most jobs in flight at once. */
  readonly capacity: number;
  /** How often an idle queue looks for due jobs, in ms. */
  readonly pollMs: number;
  /** How long a claim lasts, in ms; extended every third of it while the job runs. */
  readonly leaseMs: number;
  /**
   * Does one job and records its outcome. May resolve to a next job it
   * claimed while recording (with `context.follow`), which then runs in the same slot.
   */
  run(job: TJob, context: JobContext): Promise<Claim<TJob> | undefined | void>;
  /** Told about failed rounds and jobs (a database outage once, not every poll). */
  readonly onError: (error: unknown) => void;
}

/**
 * Runs a kind's queue: claims due rows with `FOR UPDATE SKIP LOCKED` under a
 * lease, runs each in its own slot (see {@link createQueueWorker}), extends
 * the leases of the jobs in flight, and after a failed claim frees this
 * worker's claims whose answer was lost with the connection.
 *
 * @example
 * ```ts
 * const worker = createQueue(db, { kind: PUSHES, capacity: 64, pollMs: 1000, leaseMs: 60_000, run: sendPush, onError });
 * worker.start();
 * ```
 */
export function createQueue<TJob extends { readonly id: number }>(db: SqlDatabase, options: QueueOptions<TJob>): Worker {
  const { kind, leaseMs } = options;
  const owner = claimOwner(db);
  return createQueueWorker<TJob>({
    capacity: options.capacity,
    pollMs: options.pollMs,
    leaseMs,
    claim: (limit, lease) => claim<TJob>(db, kind, limit, leaseMs, lease, owner),
    run: (job, lease, stopping, follow) => options.run(job, { lease, owner, leaseMs, stopping, follow }),
    extend: (claims) =>
      extend(
        db,
        kind,
        claims.map((held) => ({ id: held.job.id, lease: held.lease })),
        leaseMs,
      ),
    async releaseLost(keep) {
      if (owner !== null) await releaseLost(db, kind, owner, keep);
    },
    onError: options.onError,
  });
}

/**
 * Frees the claims of processes that are gone on every kind's table
 * ({@link QUEUE_KINDS}), so their work is taken again at once instead of
 * when each lease runs out (a minute by default): `every` frees all (a
 * PGlite folder, which one process holds at a time); `gone` those of
 * processes with no connection to the PostgreSQL server, and none while the
 * server has been up for less than `graceSeconds` (default
 * {@link RECONNECT_GRACE_SECONDS}). Returns how many claims it freed.
 *
 * @example
 * ```ts
 * await releaseOrphanedClaims(db, db.engine === 'pglite' ? 'every' : 'gone');
 * ```
 */
export function releaseOrphanedClaims(sql: SqlQueryable, which: 'every' | 'gone', graceSeconds: number = RECONNECT_GRACE_SECONDS): Promise<number> {
  return releaseOrphans(sql, QUEUE_KINDS, which, graceSeconds);
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
  const wait = await secondsUntilGraceEnds(db, graceSeconds);
  if (wait <= 0) return none;
  const timer = setTimeout(
    () => {
      releaseOrphanedClaims(db, 'gone', graceSeconds).catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) onError(error);
      });
    },
    Math.ceil(wait * 1000) + 100,
  );
  (timer as { unref?: () => void }).unref?.();
  return { cancel: () => clearTimeout(timer) };
}
