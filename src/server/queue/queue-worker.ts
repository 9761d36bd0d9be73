// The runner every kind of queued work shares (webhook deliveries, APNs
// pushes, Google syncs): claim due jobs under a lease, run each on its own,
// keep the leases alive while they run, back off while the database is away.
// What it claims and extends comes from the queue module (queue.ts).
import { isDatabaseUnavailable } from '../db/database-errors.js';

/**
 * A loop that works through a durable queue; every process runs one per
 * kind of work and any number share a database.
 *
 * @example
 * ```ts
 * const server = await createServer({ databaseUrl, workers: false });
 * while ((await server.deliveries.runOnce()) > 0); // deliver what is due, then stop
 * ```
 */
export interface Worker {
  /** Starts the loop (idempotent). */
  start(): void;
  /** Looks for work now instead of at the next poll. */
  wake(): void;
  /** Claims and processes one batch; resolves to how many it processed. */
  runOnce(): Promise<number>;
  /** Stops claiming, and waits for the jobs in flight. */
  stop(): Promise<void>;
}

/**
 * What a queue worker is made of.
 *
 * @example
 * ```ts
 * const spec: QueueSpec<{ id: number }> = {
 *   capacity: 16, pollMs: 1000, leaseMs: 60_000,
 *   claim: (limit, lease) => claim(db, PUSHES, limit, 60_000, lease, owner),
 *   run: async (job, lease) => { … },
 *   extend: (claims) => extend(db, PUSHES, claims.map((c) => ({ id: c.job.id, lease: c.lease })), 60_000),
 *   onError: console.error,
 * };
 * ```
 */
export interface QueueSpec<TJob> {
  /** Most jobs in flight at once. */
  readonly capacity: number;
  /** How often an idle worker looks for due jobs, in ms. */
  readonly pollMs: number;
  /** How long a claim lasts, in ms; claims in flight are extended every third of it. */
  readonly leaseMs: number;
  /** Claims up to `limit` due jobs under the claim id `lease`. */
  claim(limit: number, lease: string): Promise<TJob[]>;
  /**
   * Does one job and records its outcome (see {@link retryWhileUnavailable}).
   * With `follow` it may resolve to a next job it claimed (under the claim id
   * it names) while recording, which then runs in the same slot.
   */
  run(job: TJob, lease: string, stopping: () => boolean, follow: boolean): Promise<Claim<TJob> | undefined | void>;
  /** Pushes back the end of the given claims by `leaseMs` (their jobs are still running). */
  extend(claims: readonly Claim<TJob>[]): Promise<void>;
  /**
   * After a failed claim: frees this process's claims other than `keep` (the
   * claim ids of the jobs in flight). A claim can be made and its answer lost
   * with the connection; without this it would wait for its lease to run out.
   */
  releaseLost?(keep: readonly string[]): Promise<void>;
  /** Told about failed rounds: each error, and a database outage once (not every poll). */
  readonly onError: (error: unknown) => void;
}

/** A job in flight and the claim id it was taken under. */
export interface Claim<TJob> {
  readonly job: TJob;
  readonly lease: string;
}

/** The longest wait between claims while the database is away, in ms. */
const MAX_BACKOFF_MS = 5000;

/**
 * Runs a queue: as soon as a job ends its slot is filled again, so a slow
 * or hanging job (a receiver that does not answer) holds only its own slot
 * and never the others'; it is not a batch that waits for its slowest
 * member. While a job runs its lease is extended, so no other process
 * takes it however long it takes. When the database cannot be reached the
 * worker waits longer and longer (up to 5 s) between tries, reports the
 * outage once, and carries on by itself when the database is back.
 *
 * @example
 * ```ts
 * const worker = createQueueWorker(spec); // see QueueSpec
 * worker.start();
 * await worker.stop(); // waits for the jobs in flight
 * ```
 */
export function createQueueWorker<TJob>(spec: QueueSpec<TJob>): Worker {
  let running = false;
  let woken = false;
  let wakeUp: (() => void) | undefined;
  let loop: Promise<void> | undefined;
  let failures = 0;
  // Each slot's job now (a slot's job changes when a job hands it the next).
  const inFlight = new Map<Promise<void>, { job: TJob; lease: string }>();
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });

  const wake = (): void => {
    woken = true;
    wakeUp?.();
  };

  const extendLeases = (): void => {
    if (inFlight.size === 0) return;
    // A lost heartbeat is made up by the next; a lease is always longer than two of them.
    spec.extend([...inFlight.values()]).catch((error: unknown) => {
      if (!isDatabaseUnavailable(error)) spec.onError(error);
    });
  };

  /** Runs a job, then (`follow`) each job it hands on, in the one slot `current` tracks. */
  const runJob = async (current: { job: TJob; lease: string }, follow: boolean): Promise<void> => {
    for (;;) {
      let next: Claim<TJob> | undefined | void;
      try {
        next = await spec.run(current.job, current.lease, () => !running, follow);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) spec.onError(error);
        return;
      }
      if (next === undefined) return;
      current.job = next.job;
      current.lease = next.lease;
    }
  };

  const launch = (jobs: readonly TJob[], lease: string, follow = true): Promise<void>[] => {
    if (jobs.length === 0) return [];
    if (heartbeat === undefined) {
      heartbeat = setInterval(extendLeases, Math.min(2_147_483_647, Math.max(10, Math.floor(spec.leaseMs / 3))));
      heartbeat.unref();
    }
    return jobs.map((job) => {
      const current = { job, lease };
      const task: Promise<void> = runJob(current, follow).finally(() => {
        inFlight.delete(task);
        if (inFlight.size === 0 && heartbeat !== undefined) {
          clearInterval(heartbeat);
          heartbeat = undefined;
        }
        wake(); // a slot is free, and the job's registration may have its next job due
      });
      inFlight.set(task, current);
      return task;
    });
  };

  /** Claims for the free slots; resolves to how many jobs it claimed, or -1 after a failure (already waited for). */
  const claimRound = async (free: number): Promise<number> => {
    try {
      if (failures > 0) await spec.releaseLost?.([...new Set([...inFlight.values()].map((claim) => claim.lease))]);
      const lease = crypto.randomUUID();
      const jobs = await spec.claim(free, lease);
      if (failures > 0) failures = 0;
      launch(jobs, lease);
      return jobs.length;
    } catch (error) {
      const unavailable = isDatabaseUnavailable(error);
      if (running && (!unavailable || failures === 0)) spec.onError(error);
      failures++;
      if (running) await sleep(unavailable ? Math.min(MAX_BACKOFF_MS, Math.max(spec.pollMs, 100) * 2 ** (failures - 1)) : spec.pollMs);
      return -1;
    }
  };

  const run = async (): Promise<void> => {
    while (running) {
      woken = false;
      const free = spec.capacity - inFlight.size;
      const claimed = free > 0 ? await claimRound(free) : 0;
      if (!running) break;
      if (claimed < 0 || (claimed > 0 && claimed === free)) continue; // more may be due: claim again at once
      if (!woken) await sleep(spec.pollMs);
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    wake,
    async runOnce() {
      const lease = crypto.randomUUID();
      const jobs = await spec.claim(spec.capacity, lease);
      // One round: the jobs claimed, none handed on.
      await Promise.all(launch(jobs, lease, false));
      return jobs.length;
    },
    async stop() {
      running = false;
      wakeUp?.();
      await loop;
      await Promise.all([...inFlight.keys()]);
    },
  };
}

/**
 * Runs `work` (recording a job's outcome) again and again while the
 * database cannot be reached, a second apart, so an outcome known here —
 * a webhook the receiver accepted — is written once the database is back,
 * and the job is not done a second time. Gives up ten seconds after
 * `stopping()` turns true (a shutdown during an outage): the lease then
 * runs out and the job is done again.
 *
 * @example
 * ```ts
 * await retryWhileUnavailable(() => endPush(db, id, 'sent', null), () => stopped);
 * ```
 */
export async function retryWhileUnavailable<TResult>(work: () => Promise<TResult>, stopping: () => boolean): Promise<TResult> {
  let stopSeenAt: number | undefined;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      if (stopping()) {
        stopSeenAt ??= Date.now();
        if (Date.now() - stopSeenAt > 10_000) throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
