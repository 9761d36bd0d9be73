// A pass's lifecycle (void, expire, reactivate) and the one way a batch of
// changed passes is committed: the new versions, the pushes, the Google
// objects, the update tags Apple's web service lists, and the events — in
// the caller's transaction, one statement per kind of write. The bulk void
// job (`POST /v1/templates/{id}/passes/void`) is here too.
import type { Pass } from '../../types.js';
import { createEvent } from '../../webhooks/event.js';
import { queueGoogleObjects } from '../db/google-sync.js';
import { addEvents } from '../db/outbox.js';
import {
  addPassResults,
  jobCursor,
  markPassesUpdated,
  queuePushesOf,
  setJobCursor,
  writePassChanges,
  type PassChange,
  type PassResult,
} from '../db/programs.js';
import { lockPassPage, type PassFilter, type PassRecord, type PassState } from '../db/passes.js';
import type { SqlQueryable } from '../db/sql.js';
import type { JobRun, JobRunner } from './jobs.js';

/** The events a change of a pass's version may send. */
export type PassChangeEvent = 'pass.updated' | 'pass.voided' | 'pass.expired' | 'pass.reactivated';

/** What the service tells of a change besides its webhooks. */
export interface ChangeOutlets {
  /** Queue APNs pushes to the devices that hold the passes. */
  readonly pushes: boolean;
  /** Owe Google Wallet the passes' objects. */
  readonly google: boolean;
}

/**
 * Commits new versions of passes as a `PUT …/values` does for one: the
 * rows one version up, a push to every device that holds one, the Google
 * objects owed, one update tag (so Apple's web service lists exactly these
 * serial numbers as changed), and one event each — the two counters (tag,
 * then event number) taken last, as every other change takes them.
 *
 * @example
 * ```ts
 * await commitPassChanges(tx, [{ pass, renderedVersion: 4, state: 'active' }], 'pass.updated', { pushes: true, google: false });
 * ```
 */
export async function commitPassChanges(tx: SqlQueryable, changes: readonly PassChange[], event: PassChangeEvent, outlets: ChangeOutlets): Promise<void> {
  if (changes.length === 0) return;
  const keys = changes.map(({ pass }) => ({ passTypeIdentifier: pass.passTypeIdentifier, serialNumber: pass.serialNumber }));
  await writePassChanges(tx, changes);
  if (outlets.pushes) await queuePushesOf(tx, keys);
  if (outlets.google) await queueGoogleObjects(tx, keys);
  await markPassesUpdated(tx, keys);
  await addEvents(
    tx,
    keys.map((key) => createEvent(event, key)),
  );
}

/**
 * A pass rendered again, with its lifecycle kept: a voided pass stays
 * `voided: true`, an expired one keeps the `expirationDate` it was expired
 * with (`current` is the pass as stored).
 *
 * @example
 * ```ts
 * const pass = keepState(builder.build(request, template, values, ids), record.state, record.pass);
 * ```
 */
export function keepState(pass: Pass, state: PassState, current: Pass): Pass {
  if (state === 'active') return pass;
  const expiration = current.expirationDate === undefined ? {} : { expirationDate: current.expirationDate };
  return state === 'voided' ? { ...pass, ...expiration, voided: true } : { ...pass, ...expiration };
}

/**
 * The pass voided: `voided: true` (Wallet shows it as void; Google Wallet's
 * object becomes `INACTIVE`).
 *
 * @example
 * ```ts
 * voidedPass(record.pass).voided; // true
 * ```
 */
export function voidedPass(pass: Pass): Pass {
  return { ...pass, voided: true };
}

/**
 * The pass expired at `now`: its `expirationDate` (W3C date-time, whole
 * seconds, UTC) — Wallet shows it as expired, Google Wallet's object is
 * `EXPIRED`.
 *
 * @example
 * ```ts
 * expiredPass(record.pass, new Date('2026-03-01T10:00:00Z')).expirationDate; // '2026-03-01T10:00:00Z'
 * ```
 */
export function expiredPass(pass: Pass, now: Date): Pass {
  return { ...pass, expirationDate: `${now.toISOString().slice(0, 19)}Z` };
}

/** A bulk void's parameters, as its job keeps them. */
export interface VoidParams {
  readonly filter: {
    readonly serialNumber?: string | undefined;
    readonly updatedSince?: string | undefined;
    readonly values?: readonly (readonly [string, string])[] | undefined;
  };
}

/** Options of {@link createVoidRunner}. */
export interface VoidRunnerOptions extends ChangeOutlets {
  /** Passes per batch (one transaction each); default 100. */
  readonly batchSize?: number | undefined;
}

/** Lets the requests waiting for the event loop (or, on PGlite, the one connection) go first. */
export const yieldToRequests = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The runner of bulk voids: the template's passes that match the job's
 * filter, in creation order from the job's cursor, a batch per transaction
 * (the passes locked, voided, their pushes, Google objects, tags, events,
 * results and the cursor committed together: after a crash the job goes on
 * after the last committed pass, and no pass is voided twice).
 *
 * @example
 * ```ts
 * const runner = createVoidRunner({ pushes: true, google: false });
 * ```
 */
export function createVoidRunner(options: VoidRunnerOptions): JobRunner {
  const batchSize = options.batchSize ?? 100;
  return {
    async run(run: JobRun) {
      const { job } = run;
      const params = job.params as unknown as VoidParams;
      const filter: PassFilter = {
        templateId: job.template_id ?? -1,
        ...(params.filter.serialNumber === undefined ? {} : { serialNumber: params.filter.serialNumber }),
        ...(params.filter.updatedSince === undefined ? {} : { updatedSince: new Date(params.filter.updatedSince) }),
        ...(params.filter.values === undefined ? {} : { values: params.filter.values }),
      };
      let ended = false;
      while (!ended && !run.stopping()) {
        const going = await run.batch(async (tx, done) => {
          const passes = await lockPassPage(tx, filter, await jobCursor(tx, job.id), batchSize);
          ended = passes.length < batchSize;
          return voidBatch(tx, job.id, done, passes, options);
        });
        if (!going) return;
        await yieldToRequests();
      }
    },
  };
}

/** Voids a batch of locked passes; those voided already are `unchanged`. */
async function voidBatch(tx: SqlQueryable, jobSeq: number, done: number, passes: readonly PassRecord[], outlets: ChangeOutlets) {
  const changes: PassChange[] = [];
  const results: PassResult[] = [];
  for (const [index, record] of passes.entries()) {
    const voided = record.state !== 'voided';
    if (voided) changes.push({ pass: voidedPass(record.pass), renderedVersion: null, state: 'voided' });
    results.push({ n: done + index + 1, status: voided ? 'voided' : 'unchanged', serialNumber: record.serialNumber, problem: null });
  }
  await commitPassChanges(tx, changes, 'pass.voided', outlets);
  await addPassResults(tx, jobSeq, results);
  if (passes.length > 0) await setJobCursor(tx, jobSeq, passes[passes.length - 1]!.seq);
  return { records: passes.length, created: 0, updated: changes.length, unchanged: passes.length - changes.length, failed: 0 };
}
