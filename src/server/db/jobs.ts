// Jobs: the long work of the API (imports now; publishes, messages and bulk
// voids to come) as queued work (see queue.ts): one row per job with its
// kind, state, cursor and counts. A job's input is in job-inputs.ts, its
// results in job-results.ts.
import { keysetPage, type PageQuery } from '../http/paging.js';
import { complete, fail, type QueueKind } from './queue.js';
import type { SqlQueryable } from './sql.js';

/** The states a job shows: `queued`, then `running`, then one of the three ends. */
export type JobState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** What one batch (or a whole job) did to its records. */
export interface JobCounts {
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
  readonly failed: number;
}

/** A job as stored. */
export interface JobRecord extends JobCounts {
  /** The queue's id (the list's cursor). */
  readonly seq: number;
  /** The API's id. */
  readonly id: string;
  readonly kind: string;
  readonly state: JobState;
  readonly templateId: number | null;
  readonly params: Readonly<Record<string, unknown>>;
  /** Records in the input. */
  readonly rows: number;
  /** Records done (the cursor). */
  readonly done: number;
  /** Why a job failed (not a record's problem: those are in its results). */
  readonly error: string | null;
  readonly createdAt: Date;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
}

interface JobRow {
  id: number;
  public_id: string;
  kind: string;
  state: JobState;
  template_id: number | null;
  params: Record<string, unknown>;
  total_rows: number;
  done: number;
  created_count: number;
  updated_count: number;
  unchanged_count: number;
  failed_count: number;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const jobColumns = `id, public_id, kind, state, template_id, params, total_rows, done, created_count, updated_count, unchanged_count,
  failed_count, error, created_at, started_at, finished_at`;

const toJob = (row: JobRow): JobRecord => ({
  seq: row.id,
  id: row.public_id,
  kind: row.kind,
  state: row.state,
  templateId: row.template_id,
  params: row.params,
  rows: row.total_rows,
  done: row.done,
  created: row.created_count,
  updated: row.updated_count,
  unchanged: row.unchanged_count,
  failed: row.failed_count,
  error: row.error,
  createdAt: row.created_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
});

/**
 * Jobs as queued work: queued, or running under a lease that ran out (a
 * process that died mid-job: the job goes on from its cursor), oldest first.
 */
export const JOBS: QueueKind = {
  table: 'passmint_jobs',
  claimable: "c.state in ('queued', 'running') and c.next_attempt_at <= now()",
  order: 'c.next_attempt_at, c.id',
  held: "state in ('queued', 'running')",
  returning: 'q.id, q.public_id, q.kind, q.template_id, q.params, q.total_rows, q.done, q.attempts',
};

/** A claimed job. */
export interface ClaimedJob {
  readonly id: number;
  readonly public_id: string;
  readonly kind: string;
  readonly template_id: number | null;
  readonly params: Readonly<Record<string, unknown>>;
  readonly total_rows: number;
  readonly done: number;
  readonly attempts: number;
}

/**
 * Adds a job whose input is still to come (`uploading`: not shown, not
 * claimed); resolves to its queue id and API id.
 *
 * @example
 * ```ts
 * const { seq, id } = await insertJob(db, 'import', 7, { mode: 'create', format: 'csv' });
 * ```
 */
export async function insertJob(
  sql: SqlQueryable,
  kind: string,
  templateId: number | null,
  params: Record<string, unknown>,
): Promise<{ seq: number; id: string }> {
  const rows = await sql.query<{ id: number; public_id: string }>(
    `insert into passmint_jobs (public_id, kind, state, template_id, params) values (gen_random_uuid(), $1, 'uploading', $2, $3::json)
     returning id, public_id`,
    [kind, templateId, JSON.stringify(params)],
  );
  return { seq: rows[0]!.id, id: rows[0]!.public_id };
}

/**
 * Queues a job whose input is complete: `total` records, and its
 * parameters as they stand now (an import's columns).
 *
 * @example
 * ```ts
 * await queueJob(db, seq, 40_000, { mode: 'create', format: 'csv', columns: ['name'] });
 * ```
 */
export async function queueJob(sql: SqlQueryable, seq: number, total: number, params: Record<string, unknown>): Promise<JobRecord> {
  const rows = await sql.query<JobRow>(
    `update passmint_jobs set state = 'queued', total_rows = $2, params = $3::json, next_attempt_at = now()
      where id = $1 and state = 'uploading' returning ${jobColumns}`,
    [seq, total, JSON.stringify(params)],
  );
  return toJob(rows[0]!);
}

/**
 * Deletes a job whose input was refused or never arrived (and that input with it).
 *
 * @example
 * ```ts
 * await dropUpload(db, seq);
 * ```
 */
export async function dropUpload(sql: SqlQueryable, seq: number): Promise<void> {
  await sql.query("delete from passmint_jobs where id = $1 and state = 'uploading'", [seq]);
}

/**
 * A job by its API id (one still uploading is not shown), or `undefined`.
 *
 * @example
 * ```ts
 * const job = await findJob(db, '3f0c…');
 * ```
 */
export async function findJob(sql: SqlQueryable, id: string): Promise<JobRecord | undefined> {
  const rows = await sql.query<JobRow>(`select ${jobColumns} from passmint_jobs where public_id = $1 and state <> 'uploading'`, [id]);
  return rows[0] === undefined ? undefined : toJob(rows[0]);
}

/**
 * A page of jobs by number (see {@link keysetPage}), those still uploading left out.
 *
 * @example
 * ```ts
 * const jobs = await listJobs(db, { limit: 50, direction: 'before', cursor: undefined });
 * ```
 */
export async function listJobs(sql: SqlQueryable, query: PageQuery): Promise<JobRecord[]> {
  const page = keysetPage('id', query, 1);
  const rows = await sql.query<JobRow>(`select ${jobColumns} from passmint_jobs where state <> 'uploading' and ${page.sql}`, page.params);
  return rows.map(toJob);
}

/**
 * Starts (or goes on with) a claimed job: `running`, its start time kept
 * from a first run, one attempt more. Resolves to `false` when the claim was
 * lost or the job ended meanwhile (cancelled).
 *
 * @example
 * ```ts
 * if (!(await startJob(db, job.id, lease))) return;
 * ```
 */
export async function startJob(sql: SqlQueryable, id: number, lease: string): Promise<boolean> {
  const rows = await sql.query(
    `update passmint_jobs set state = 'running', started_at = coalesce(started_at, now()), attempts = attempts + 1
      where id = $1 and lease = $2 and state in ('queued', 'running') returning 1`,
    [id, lease],
  );
  return rows.length > 0;
}

/**
 * Locks a running job's row for the caller's transaction, if it is still
 * running under `lease`; resolves to its cursor (records done), or
 * `undefined` (cancelled, or the claim was lost to another process: the
 * caller must write nothing). Every batch of a job starts with this, so two
 * processes never both write a batch, and a cancel waits for the batch in
 * flight.
 *
 * @example
 * ```ts
 * await db.transaction(async (tx) => { if ((await lockRunningJob(tx, id, lease)) === undefined) return; … });
 * ```
 */
export async function lockRunningJob(tx: SqlQueryable, id: number, lease: string): Promise<number | undefined> {
  const rows = await tx.query<{ done: number }>("select done from passmint_jobs where id = $1 and lease = $2 and state = 'running' for update", [id, lease]);
  return rows[0]?.done;
}

/**
 * Adds a batch's records and counts to a job's cursor and counts (in the
 * batch's transaction, after {@link lockRunningJob}).
 *
 * @example
 * ```ts
 * await addJobProgress(tx, id, 250, { created: 248, updated: 0, unchanged: 0, failed: 2 });
 * ```
 */
export async function addJobProgress(tx: SqlQueryable, id: number, records: number, counts: JobCounts): Promise<void> {
  await tx.query(
    `update passmint_jobs set done = done + $2, created_count = created_count + $3, updated_count = updated_count + $4,
            unchanged_count = unchanged_count + $5, failed_count = failed_count + $6 where id = $1`,
    [id, records, counts.created, counts.updated, counts.unchanged, counts.failed],
  );
}

/**
 * Ends a running job held under `lease` (`succeeded` or `failed`, with the
 * reason), frees its lease and deletes its input; resolves to the job as it
 * ended, or `undefined` when it was not running under that claim.
 *
 * @example
 * ```ts
 * const ended = await endJob(tx, id, lease, 'succeeded', null);
 * ```
 */
export async function endJob(tx: SqlQueryable, id: number, lease: string, state: 'succeeded' | 'failed', error: string | null): Promise<JobRecord | undefined> {
  const changed = await complete(tx, JOBS, id, { set: 'state = $2, error = $3, finished_at = now()', params: [state, error] }, lease);
  if (changed === 0) return undefined;
  await tx.query('delete from passmint_job_inputs where job_id = $1', [id]);
  const rows = await tx.query<JobRow>(`select ${jobColumns} from passmint_jobs where id = $1`, [id]);
  return rows[0] === undefined ? undefined : toJob(rows[0]);
}

/**
 * Gives a job's attempt back after an error: due again in `delayMs`, still
 * `running` (its cursor kept). Only the holder of `lease` may.
 *
 * @example
 * ```ts
 * await retryJob(db, id, 'timeout', 5000, lease);
 * ```
 */
export async function retryJob(sql: SqlQueryable, id: number, error: string, delayMs: number, lease: string): Promise<void> {
  await fail(sql, JOBS, id, { set: 'error = $2', params: [error] }, delayMs, lease);
}

/**
 * Frees a running job's claim without ending it (the process is stopping):
 * another process, or this one's next start, goes on from its cursor.
 *
 * @example
 * ```ts
 * await releaseJob(db, id, lease);
 * ```
 */
export async function releaseJob(sql: SqlQueryable, id: number, lease: string): Promise<void> {
  await sql.query('update passmint_jobs set locked_until = null, lease = null, claimed_by = null where id = $1 and lease = $2', [id, lease]);
}

/**
 * Cancels a job that has not ended (waiting for the batch in flight, whose
 * row lock it needs), frees its lease and deletes its input. Resolves to
 * the job as cancelled, or `undefined` when it had ended already.
 *
 * @example
 * ```ts
 * const cancelled = await cancelJob(tx, '3f0c…');
 * ```
 */
export async function cancelJob(tx: SqlQueryable, id: string): Promise<JobRecord | undefined> {
  const rows = await tx.query<JobRow>(
    `update passmint_jobs set state = 'cancelled', finished_at = now(), locked_until = null, lease = null, claimed_by = null
      where public_id = $1 and state in ('queued', 'running') returning ${jobColumns}`,
    [id],
  );
  if (rows[0] === undefined) return undefined;
  await tx.query('delete from passmint_job_inputs where job_id = $1', [rows[0].id]);
  return toJob(rows[0]);
}

/**
 * Deletes, oldest first, at most `limit` results of jobs that ended more
 * than `days` whole days ago (retention; the jobs go once their results
 * have gone: {@link deleteOldJobs}); resolves to how many went.
 *
 * @example
 * ```ts
 * await deleteOldJobResults(tx, 30, 1000);
 * ```
 */
export async function deleteOldJobResults(sql: SqlQueryable, days: number, limit: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `with old as (
        select id from passmint_jobs where finished_at < now() - $1 * interval '1 day' order by finished_at limit 100),
      gone as (
        delete from passmint_job_results r where (r.job_id, r.n) in (
          select r2.job_id, r2.n from passmint_job_results r2 where r2.job_id in (select id from old) limit $2)
        returning 1)
     select count(*)::int as n from gone`,
    [days, limit],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Deletes at most `limit` jobs that ended more than `days` whole days ago
 * and have no results left, and uploads that never completed (a day old);
 * resolves to how many went.
 *
 * @example
 * ```ts
 * await deleteOldJobs(tx, 30, 1000);
 * ```
 */
export async function deleteOldJobs(sql: SqlQueryable, days: number, limit: number): Promise<number> {
  const rows = await sql.query<{ n: number }>(
    `with gone as (delete from passmint_jobs where id in (
        (select j.id from passmint_jobs j
          where j.finished_at < now() - $1 * interval '1 day'
            and not exists (select 1 from passmint_job_results r where r.job_id = j.id)
          order by j.finished_at limit $2)
        union all
        (select j.id from passmint_jobs j where j.state = 'uploading' and j.created_at < now() - interval '1 day' order by j.created_at limit $2))
      returning 1) select count(*)::int as n from gone`,
    [days, limit],
  );
  return rows[0]?.n ?? 0;
}
