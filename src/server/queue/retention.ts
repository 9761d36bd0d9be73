import { deleteOldAudit } from '../db/audit.js';
import { rollConsole } from '../db/console-roll.js';
import { deleteFinishedAttempts, deleteFinishedDeliveries } from '../db/deliveries.js';
import { deleteOldEvents } from '../db/events.js';
import { deleteOldGoogleMessages } from '../db/google-messages.js';
import { deleteOldIdempotencyKeys } from '../db/idempotency.js';
import { deleteOldJobResults, deleteOldJobs } from '../db/jobs.js';
import { tryLockForTransaction } from '../db/locks.js';
import { deleteEndedPushes } from '../db/pushes.js';
import type { SqlDatabase, SqlQueryable } from '../db/sql.js';
import type { LogSink } from '../http/log.js';
import { createPeriodic } from './periodic.js';

// Any constant shared by every passmint process: one process deletes at a time.
const RETENTION_LOCK = 0x7061_7372; // 'pasr'

/**
 * Options of {@link createRetention}.
 *
 * @example
 * ```ts
 * const options: RetentionOptions = { days: 30, batchSize: 1000 };
 * ```
 */
export interface RetentionOptions {
  /** Keep events this many whole days; 0 keeps them forever. */
  readonly days: number;
  /** Keep ended jobs (imports) and their results this many whole days (default 30; 0 keeps them). */
  readonly jobDays?: number | undefined;
  /** Keep the audit log's entries this many whole days (default 365; 0 keeps them), whatever `days`. */
  readonly auditDays?: number | undefined;
  /** Most rows one statement deletes; default 1000. */
  readonly batchSize?: number | undefined;
  /** Time between two rounds, in ms; default one hour (the first round runs a minute after start). */
  readonly intervalMs?: number | undefined;
  readonly log?: LogSink | undefined;
}

/** Rows one retention round deleted, by kind. */
export interface RetentionCounts {
  readonly events: number;
  readonly deliveries: number;
  readonly attempts: number;
  /** APNs pushes sent, refused as gone, or given up. */
  readonly pushes: number;
  /** Google Wallet messages recorded as sent or over the daily limit. */
  readonly googleMessages: number;
  /** Idempotency keys past their 24 hours. */
  readonly idempotencyKeys: number;
  /** Results of jobs that ended more than `jobDays` ago. */
  readonly jobResults: number;
  /** Those jobs (and uploads that never completed). */
  readonly jobs: number;
  /** Entries of the audit log older than `auditDays`. */
  readonly audit: number;
}

/**
 * Deletes old events: `runOnce` and a timer that calls it.
 *
 * @example
 * ```ts
 * const retention = createRetention(db, { days: 30 });
 * const { events } = await retention.runOnce();
 * ```
 */
export interface Retention {
  start(): void;
  /** Deletes what is due, batch by batch; resolves to how many rows of each kind went (all zero when another process holds the lock). */
  runOnce(): Promise<RetentionCounts>;
  stop(): Promise<void>;
}

/**
 * Retention of delivered events: every round deletes, oldest first, the
 * attempts, then the deliveries, then the events of events older than
 * `days` whose deliveries all ended (delivered, failed, cancelled — never
 * one still pending), in statements of at most `batchSize` rows, each in its
 * own short transaction that first takes an advisory lock with
 * `pg_try_advisory_xact_lock`: while one process deletes, the others skip
 * their round. The same round deletes APNs pushes that ended (sent, gone,
 * failed) and were last due more than `days` ago, and Google Wallet
 * messages older than `days` (whole days, so the last 24 hours' messages,
 * which count against Google's three a day, always stay), and idempotency
 * keys past their 24 hours (whatever `days`).
 */
export function createRetention(db: SqlDatabase, options: RetentionOptions, onError: (error: unknown) => void = () => undefined): Retention {
  const batch = options.batchSize ?? 1000;
  const interval = options.intervalMs ?? 3_600_000;
  const jobDays = options.jobDays ?? 30;
  const auditDays = options.auditDays ?? 365;

  /** One bounded delete under the lock; `undefined` when another process holds it. */
  const step = (remove: (tx: SqlQueryable, days: number, limit: number) => Promise<number>): Promise<number | undefined> =>
    db.transaction(async (tx) => ((await tryLockForTransaction(tx, RETENTION_LOCK)) ? remove(tx, options.days, batch) : undefined));

  // Oldest first: the attempts, then the deliveries, then the events they belonged to.
  const deletes = {
    attempts: deleteFinishedAttempts,
    deliveries: deleteFinishedDeliveries,
    events: deleteOldEvents,
    pushes: deleteEndedPushes,
    googleMessages: deleteOldGoogleMessages,
    idempotencyKeys: deleteOldIdempotencyKeys,
    // A job's results first (a million rows, a batch at a time), then the job.
    jobResults: (tx: SqlQueryable, _days: number, limit: number) => (jobDays > 0 ? deleteOldJobResults(tx, jobDays, limit) : Promise.resolve(0)),
    jobs: (tx: SqlQueryable, _days: number, limit: number) => (jobDays > 0 ? deleteOldJobs(tx, jobDays, limit) : Promise.resolve(0)),
    audit: (tx: SqlQueryable, _days: number, limit: number) => (auditDays > 0 ? deleteOldAudit(tx, auditDays, limit) : Promise.resolve(0)),
  };

  const runOnce = async (): Promise<RetentionCounts> => {
    const total = { events: 0, deliveries: 0, attempts: 0, pushes: 0, googleMessages: 0, idempotencyKeys: 0, jobResults: 0, jobs: 0, audit: 0 };
    if (options.days <= 0 && auditDays <= 0) return total;
    // Events are deleted only once the console's roll-up has counted them: whatever waits is counted first.
    if (options.days > 0) while (!loop.halted && (await rollConsole(db, batch, true)) >= batch);
    for (;;) {
      let round = 0;
      for (const kind of ['attempts', 'deliveries', 'events', 'pushes', 'googleMessages', 'idempotencyKeys', 'jobResults', 'jobs', 'audit'] as const) {
        // Events kept forever (days 0) keep everything but the audit log's own retention.
        if (options.days <= 0 && kind !== 'audit') continue;
        for (;;) {
          // After stop(), a round under way ends after its current statement.
          if (loop.halted) return total;
          const count = await step(deletes[kind]);
          if (count === undefined) return total;
          total[kind] += count;
          round += count;
          if (count < batch) break;
        }
      }
      if (round === 0) break;
    }
    if (Object.values(total).some((n) => n > 0)) options.log?.({ time: new Date().toISOString(), type: 'retention', ...total });
    return total;
  };

  const loop = createPeriodic(runOnce, { firstMs: Math.min(60_000, interval), intervalMs: interval, onError });

  return {
    start() {
      if (options.days <= 0 && auditDays <= 0) return;
      loop.start();
    },
    runOnce,
    stop: loop.stop,
  };
}
