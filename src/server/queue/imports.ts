// The import job (`POST /v1/templates/{id}/imports`): its stored file read
// from the job's cursor, records rendered and written a batch at a time —
// new passes in one multi-row statement with their `pass.created` events and
// deliveries (db/passes.ts), changed ones through the pieces a
// `PUT …/values` uses (new version, pushes, Google sync, `pass.updated`) —
// each batch's results and the job's progress in the same transaction.
import { createProblem, type ProblemCode } from '../../http/problem.js';
import type { JsonObject, Pass } from '../../types.js';
import { createEvent } from '../../webhooks/event.js';
import { markPassUpdated } from '../db/devices.js';
import { queueGoogleObject } from '../db/google-sync.js';
import { jobInput } from '../db/job-inputs.js';
import { addJobResults, type JobResult } from '../db/job-results.js';
import { addEvents } from '../db/outbox.js';
import { findPass, insertPassesWithEvents, updatePass, type NewPass, type PassRecord } from '../db/passes.js';
import { queuePushes } from '../db/pushes.js';
import type { SqlDatabase, SqlQueryable } from '../db/sql.js';
import { findTemplate, type TemplateRecord } from '../db/templates.js';
import { ServiceProblem } from '../../http/problem.js';
import { importRecords, type ImportFormat, type ImportRecord } from './imports-file.js';
import { JobFailure, type BatchOutcome, type JobRun, type JobRunner } from './jobs.js';
import { keepState } from './lifecycle.js';

/** An import's parameters, as its job keeps them. */
export interface ImportParams {
  /** `create`: every record a new pass; `upsert`: a record naming an existing pass's serial number changes its values. */
  readonly mode: 'create' | 'upsert';
  readonly format: ImportFormat;
  /** A CSV file's header. */
  readonly columns: readonly string[];
  /** The origin of the request that uploaded it (a pass's `webServiceURL` without a public URL). */
  readonly origin: string;
}

/** The identifiers a pass is rendered with (as the pass builder takes them). */
export interface RenderIds {
  readonly serialNumber?: string | undefined;
  readonly authenticationToken?: string | undefined;
  readonly webServiceURL?: string | undefined;
}

/** Options of {@link createImportRunner}. */
export interface ImportRunnerOptions {
  /** Renders a pass as a create or a `PUT …/values` does (the service's pass builder); throws a ServiceProblem for values that do not fit. */
  readonly render: (template: TemplateRecord, values: JsonObject, ids: RenderIds, origin: string) => Pass;
  /** Queue APNs pushes for changed passes. */
  readonly pushes: boolean;
  /** Queue Google Wallet syncs for new and changed passes. */
  readonly google: boolean;
  /** Records per batch (one transaction each); default 200. */
  readonly batchSize?: number | undefined;
}

/** Most issues a problem lists (as an answer's body does). */
const MAX_ISSUES = 100;

/**
 * The RFC 9457 body a route answers for a problem (as `problemResponse`
 * writes it), as JSON text: what a failed record's result carries.
 *
 * @example
 * ```ts
 * problemText(new ServiceProblem(409, 'pass-exists', 'A pass "M-1" of this type exists.'));
 * ```
 */
export function problemText(problem: ServiceProblem): string {
  const { issues } = problem;
  const more = issues === undefined || issues.length <= MAX_ISSUES ? '' : ` (${issues.length} issues; the first ${MAX_ISSUES} are listed)`;
  const body = createProblem(problem.code as ProblemCode, problem.status, problem.detail + more);
  return JSON.stringify(issues === undefined ? body : { ...body, issues: issues.slice(0, MAX_ISSUES) });
}

/** The template changed between a batch's render and its insert: the batch is written again with the new one. */
class TemplateChanged extends Error {}

/** Lets the requests waiting for the event loop (or, on PGlite, the one connection) go first. */
const yieldToRequests = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The import kind's runner.
 *
 * @example
 * ```ts
 * const runner = createImportRunner(db, { render: (t, v, ids, origin) => builder.build(new Request(origin), t, v, ids), pushes: false, google: false });
 * ```
 */
export function createImportRunner(db: SqlDatabase, options: ImportRunnerOptions): JobRunner {
  const batchSize = options.batchSize ?? 200;

  const templateOf = async (sql: SqlQueryable, id: number | null): Promise<TemplateRecord> => {
    const found = id === null ? undefined : await findTemplate(sql, id);
    if (found === undefined) throw new JobFailure('The template was deleted.');
    return found;
  };

  /** Writes one batch in the job's transaction; resolves to what it did. */
  const write = async (
    tx: SqlQueryable,
    jobSeq: number,
    template: TemplateRecord,
    params: ImportParams,
    batch: readonly ImportRecord[],
  ): Promise<BatchOutcome> => {
    const passType = template.template.passType;
    const results = new Map<number, JobResult>();
    const failed = (record: ImportRecord, problem: ServiceProblem, serialNumber = record.serialNumber): void => {
      results.set(record.row, { n: record.row, status: 'failed', serialNumber: serialNumber ?? null, problem: problemText(problem) });
    };
    // Upsert: the passes the batch names, locked in serial order (two imports never wait on each other in a circle).
    const existing = new Map<string, PassRecord>();
    if (params.mode === 'upsert') {
      const serials = [
        ...new Set(batch.flatMap((record) => (record.serialNumber === undefined || record.problem !== undefined ? [] : [record.serialNumber]))),
      ].sort();
      for (const serial of serials) {
        const pass = await findPass(tx, passType, serial, true);
        if (pass !== undefined) existing.set(serial, pass);
      }
    }
    const creates: { record: ImportRecord; item: NewPass }[] = [];
    const updates: { record: ImportRecord; current: PassRecord; pass: Pass }[] = [];
    const templates = new Map<number, TemplateRecord>([[template.template.id, template]]);
    for (const record of batch) {
      if (record.problem !== undefined) {
        failed(record, record.problem);
        continue;
      }
      const current = record.serialNumber === undefined ? undefined : existing.get(record.serialNumber);
      try {
        if (current === undefined) {
          const pass = options.render(template, record.values, { serialNumber: record.serialNumber }, params.origin);
          const event = createEvent('pass.created', { serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier });
          creates.push({ record, item: { templateId: template.template.id, templateVersion: template.version, values: record.values, pass, event } });
          continue;
        }
        // A pass of the same type made from another template is not this import's to change (a key limited to
        // this template would reach the other's passes): it is taken, as for a create.
        if (current.templateId !== template.template.id) {
          failed(record, new ServiceProblem(409, 'pass-exists', `A pass ${JSON.stringify(current.serialNumber)} of this type exists.`));
          continue;
        }
        // As a PUT …/values: a voided pass's values cannot change; an expired one keeps its expiry.
        if (current.state === 'voided') {
          failed(record, new ServiceProblem(409, 'pass-voided', `The pass ${JSON.stringify(current.serialNumber)} is voided: its values cannot change.`));
          continue;
        }
        // The pass's own template, its serial number and token kept.
        let own = templates.get(current.templateId);
        if (own === undefined) {
          own = await findTemplate(tx, current.templateId);
          if (own === undefined) throw new ServiceProblem(404, 'template-not-found', "The pass's template is gone.");
          templates.set(current.templateId, own);
        }
        const rendered = options.render(
          own,
          record.values,
          {
            serialNumber: current.serialNumber,
            authenticationToken: current.pass.authenticationToken,
            webServiceURL: typeof current.pass.webServiceURL === 'string' ? current.pass.webServiceURL : undefined,
          },
          params.origin,
        );
        const pass = keepState(rendered, current.state, current.pass);
        // A new version only where the pass changed.
        if (JSON.stringify(pass) === JSON.stringify(current.pass)) {
          results.set(record.row, { n: record.row, status: 'unchanged', serialNumber: current.serialNumber, problem: null });
        } else updates.push({ record, current, pass });
      } catch (error) {
        if (!(error instanceof ServiceProblem)) throw error;
        failed(record, error);
      }
    }

    // Changed passes first, as a PUT …/values changes one (the update tag's counter, then the events'), and every
    // transaction here takes the two counters in that order.
    const updated: ReturnType<typeof createEvent<'pass.updated'>>[] = [];
    for (const { record, current, pass } of updates) {
      await updatePass(tx, record.values, pass);
      if (options.pushes) await queuePushes(tx, current.passTypeIdentifier, current.serialNumber);
      if (options.google) await queueGoogleObject(tx, current.passTypeIdentifier, current.serialNumber);
      await markPassUpdated(tx, current.passTypeIdentifier, current.serialNumber);
      updated.push(createEvent('pass.updated', { serialNumber: current.serialNumber, passTypeIdentifier: current.passTypeIdentifier }));
      results.set(record.row, { n: record.row, status: 'updated', serialNumber: current.serialNumber, problem: null });
    }
    if (creates.length > 0) {
      const inserted = await insertPassesWithEvents(
        tx,
        creates.map((create) => create.item),
      );
      if (inserted.length < creates.length) {
        // Left out: a serial number taken, or the template changed since it was read (then the batch goes again).
        const now = await templateOf(tx, template.template.id);
        if (now.version !== template.version) throw new TemplateChanged();
      }
      const made = new Set(inserted.map((row) => row.i));
      for (const [index, { record, item }] of creates.entries()) {
        const serialNumber = item.pass.serialNumber;
        if (made.has(index + 1)) {
          results.set(record.row, { n: record.row, status: 'created', serialNumber, problem: null });
          if (options.google) await queueGoogleObject(tx, item.pass.passTypeIdentifier, serialNumber);
        } else failed(record, new ServiceProblem(409, 'pass-exists', `A pass ${JSON.stringify(serialNumber)} of this type exists.`), serialNumber);
      }
    }
    await addEvents(tx, updated);
    const ordered = batch.map((record) => results.get(record.row)!);
    await addJobResults(tx, jobSeq, ordered);
    const count = (status: JobResult['status']): number => ordered.filter((result) => result.status === status).length;
    return { records: batch.length, created: count('created'), updated: count('updated'), unchanged: count('unchanged'), failed: count('failed') };
  };

  return {
    async run(run: JobRun) {
      const { job } = run;
      const params = job.params as unknown as ImportParams;
      let template = await templateOf(db, job.template_id);
      const records = importRecords(jobInput(db, job.id), params.format, params.columns, job.done)[Symbol.asyncIterator]();
      let held: ImportRecord | undefined;
      let ended = false;
      try {
        while (!run.stopping()) {
          // A batch: up to batchSize records, cut before a serial number it already has (the two go in order, one per batch).
          const batch: ImportRecord[] = [];
          const serials = new Set<string>();
          while (batch.length < batchSize) {
            let record = held;
            held = undefined;
            if (record === undefined) {
              const next = await records.next();
              if (next.done === true) {
                ended = true;
                break;
              }
              record = next.value;
            }
            if (record.serialNumber !== undefined && serials.has(record.serialNumber)) {
              held = record;
              break;
            }
            if (record.serialNumber !== undefined) serials.add(record.serialNumber);
            batch.push(record);
          }
          if (batch.length === 0) return;
          let going: boolean | undefined;
          for (let tries = 0; going === undefined; tries++) {
            try {
              going = await run.batch(async (tx, done) => {
                if (done !== batch[0]!.row - 1) throw new Error(`import job ${job.public_id}: the cursor is ${done}, the batch starts at row ${batch[0]!.row}`);
                return write(tx, job.id, template, params, batch);
              });
            } catch (error) {
              if (!(error instanceof TemplateChanged) || tries >= 5) throw error;
              template = await templateOf(db, job.template_id);
            }
          }
          if (!going || ended) return;
          await yieldToRequests();
        }
      } finally {
        await records.return?.(undefined);
      }
    },
  };
}
