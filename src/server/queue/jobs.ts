// The job worker: runs the API's long work (imports; the kinds to come reuse
// it) as queued work. A kind brings a runner that works through its input in
// batches; this module claims the job (FOR UPDATE SKIP LOCKED, a lease, on
// any process), commits each batch with the job's cursor and counts, and
// ends the job with its `job.completed` event.
import { createEvent } from '../../webhooks/event.js';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import { addJobProgress, endJob, JOBS, lockRunningJob, releaseJob, retryJob, startJob, type ClaimedJob, type JobCounts, type JobRecord } from '../db/jobs.js';
import { addEvents } from '../db/outbox.js';
import type { SqlDatabase, SqlQueryable } from '../db/sql.js';
import { createQueue } from './queue.js';
import type { Worker } from './queue-worker.js';

/** What one batch did: how many input records it consumed, and what became of them. */
export interface BatchOutcome extends JobCounts {
  readonly records: number;
}

/**
 * A job as its runner sees it: the claimed row, and a way to commit a
 * batch under the job's claim.
 */
export interface JobRun {
  readonly job: ClaimedJob;
  /**
   * Runs `work` in one transaction after locking the job's row under this
   * claim, then adds its outcome to the job's cursor and counts — the
   * batch's changes, their events and the progress commit together, so a
   * batch is never done twice. `work` gets the cursor it starts after.
   * Resolves to `false`, with nothing written, when the job was cancelled
   * or its claim was lost: the runner stops.
   */
  batch(work: (tx: SqlQueryable, done: number) => Promise<BatchOutcome>): Promise<boolean>;
  /** Whether the process is stopping (the runner stops between batches; the job goes on at the next claim). */
  readonly stopping: () => boolean;
}

/** A job that cannot go on (its template is gone): it ends `failed` with this message. */
export class JobFailure extends Error {
  override readonly name = 'JobFailure';
}

/**
 * A kind of job: works through the job's input from its cursor, batch by
 * batch (`run.batch`), and returns when the input is done or `batch` said
 * stop. Throws {@link JobFailure} to fail the job.
 */
export interface JobRunner {
  run(run: JobRun): Promise<void>;
}

/** Options of {@link createJobWorker}. */
export interface JobWorkerOptions {
  /** The runner of each kind, by the kind's name. */
  readonly runners: Readonly<Record<string, JobRunner>>;
  /** Jobs this process runs at once (default 1); 0: none. */
  readonly capacity?: number | undefined;
  readonly pollMs?: number | undefined;
  readonly leaseMs?: number | undefined;
  /** After an unexpected error a job is due again in this many ms times its attempts (default 5000). */
  readonly retryMs?: number | undefined;
  /** Called after a commit that queued events (wakes the delivery workers). */
  readonly onWritten: () => void;
  /** Told about a job that failed by an error of the service's own (it is tried again, three times in all). */
  readonly onError: (error: unknown) => void;
}

/** Tries of a job that fails by an unexpected error before it ends `failed`. */
const MAX_ATTEMPTS = 3;

/**
 * The `job.completed` event of a job as it ended.
 *
 * @example
 * ```ts
 * await addEvents(tx, [jobCompleted(job)]);
 * ```
 */
export function jobCompleted(job: JobRecord): ReturnType<typeof createEvent<'job.completed'>> {
  return createEvent('job.completed', {
    jobId: job.id,
    kind: job.kind,
    state: job.state,
    templateId: job.templateId,
    rows: job.rows,
    created: job.created,
    updated: job.updated,
    unchanged: job.unchanged,
    failed: job.failed,
  });
}

/**
 * Runs jobs: claims a due job (queued, or running under a lease that ran
 * out: a process died mid-job), marks it running, hands it to its kind's
 * runner, and ends it `succeeded` — or `failed` on a {@link JobFailure}, or
 * after three unexpected errors — with `job.completed` in the same
 * transaction. While the database is away the job is left to its lease and
 * taken again when it is back.
 *
 * @example
 * ```ts
 * const jobs = createJobWorker(db, { runners: { import: importRunner }, onWritten: wake, onError: console.error });
 * jobs.start();
 * ```
 */
export function createJobWorker(db: SqlDatabase, options: JobWorkerOptions): Worker {
  const end = async (job: ClaimedJob, lease: string, state: 'succeeded' | 'failed', error: string | null): Promise<void> => {
    await db.transaction(async (tx) => {
      const ended = await endJob(tx, job.id, lease, state, error);
      if (ended !== undefined) await addEvents(tx, [jobCompleted(ended)]);
    });
    options.onWritten();
  };

  return createQueue<ClaimedJob>(db, {
    kind: JOBS,
    capacity: options.capacity ?? 1,
    pollMs: options.pollMs ?? 1000,
    leaseMs: options.leaseMs ?? 60_000,
    async run(job, { lease, stopping }) {
      if (!(await startJob(db, job.id, lease))) return;
      const runner = options.runners[job.kind];
      if (runner === undefined) {
        await end(job, lease, 'failed', `This service does not run jobs of kind ${JSON.stringify(job.kind)}.`);
        return;
      }
      let going = true;
      const run: JobRun = {
        job,
        stopping,
        async batch(work) {
          if (!going) return false;
          const outcome = await db.transaction(async (tx) => {
            const done = await lockRunningJob(tx, job.id, lease);
            if (done === undefined) return undefined;
            const result = await work(tx, done);
            await addJobProgress(tx, job.id, result.records, result);
            return result;
          });
          if (outcome === undefined) going = false;
          else options.onWritten();
          return going;
        },
      };
      try {
        await runner.run(run);
      } catch (error) {
        if (error instanceof JobFailure) {
          await end(job, lease, 'failed', error.message);
          return;
        }
        // Left to its lease: taken again (from its cursor) once the database is back.
        if (isDatabaseUnavailable(error)) throw error;
        options.onError(error);
        const message = 'The job failed by an error of the service (in its log).';
        if (job.attempts + 1 >= MAX_ATTEMPTS) await end(job, lease, 'failed', message);
        else await retryJob(db, job.id, message, (options.retryMs ?? 5000) * (job.attempts + 1), lease);
        return;
      }
      // Stopped early: cancelled or claim lost (whoever holds it now ends it), or the process is stopping (given back).
      if (!going) return;
      if (stopping()) {
        await releaseJob(db, job.id, lease);
        return;
      }
      await end(job, lease, 'succeeded', null);
    },
    onError: options.onError,
  });
}
