// The import job (`POST /v1/templates/{id}/imports`): its stored file read
// from the job's cursor, records rendered a batch at a time outside any
// transaction, then written in one short one — new passes in one multi-row
// statement with their `pass.created` events and deliveries (db/passes.ts),
// changed ones (upsert) as a publish writes them (new versions, pushes,
// Google syncs, update tags, `pass.updated`), each batch's results and the
// job's progress in the same transaction.
import { createProblem, type ProblemCode } from '../../http/problem.js';
import type { JsonObject, Pass } from '../../types.js';
import { createEvent } from '../../webhooks/event.js';
import { queueGoogleObjects } from '../db/google-sync.js';
import { jobInput } from '../db/job-inputs.js';
import { addJobResults, type JobResult } from '../db/job-results.js';
import { findPasses, insertPassColumns, lockPassStates, type NewPassColumns, type PassRecord } from '../db/passes.js';
import type { PassChange } from '../db/programs.js';
import type { SqlDatabase, SqlQueryable } from '../db/sql.js';
import { findTemplate, type TemplateRecord } from '../db/templates.js';
import { ServiceProblem } from '../../http/problem.js';
import { importRecords, type ImportFormat, type ImportRecord } from './imports-file.js';
import { JobFailure, type BatchOutcome, type JobRun, type JobRunner } from './jobs.js';
import { commitPassChanges, keepState, yieldToRequests } from './lifecycle.js';

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
  /** Read and render the next batch while one is written (a database server, whose work is not this process's); default false. */
  readonly readAhead?: boolean | undefined;
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

/** The template changed between a batch's render and its write: the batch is rendered again with the new one. */
class TemplateChanged extends Error {}

/** Records rendered between two turns of the event loop given to live requests. */
const RENDERS_BETWEEN_YIELDS = 20;

/** What a batch does with one record, decided against the pass it names as it was read. */
type Decision =
  | {
      readonly kind: 'create';
      readonly serialNumber: string;
      readonly passTypeIdentifier: string;
      /** The values, the pass and its `pass.created` event as JSON text (made while rendering, between turns of the event loop). */
      readonly values: string;
      readonly pass: string;
      readonly eventId: string;
      readonly event: string;
    }
  | { readonly kind: 'update'; readonly change: PassChange }
  | { readonly kind: 'unchanged'; readonly serialNumber: string }
  | { readonly kind: 'failed'; readonly serialNumber: string | null; readonly problem: string };

/** A batch read and rendered (outside any transaction), to be written. */
interface Prepared {
  readonly template: TemplateRecord;
  readonly records: readonly ImportRecord[];
  /** Upsert: the passes the records name, as read, by serial number. */
  readonly existing: ReadonlyMap<string, PassRecord>;
  readonly decisions: Decision[];
}

/**
 * The import kind's runner. Each batch is read and rendered outside any
 * transaction (the event loop given to live requests every few records),
 * then written in one short transaction: new passes with their events and
 * deliveries in one statement, changed ones (upsert) a statement per kind
 * of write, the results and the job's progress — a few statements a batch
 * however many records it has.
 *
 * @example
 * ```ts
 * const runner = createImportRunner(db, { render: (t, v, ids, origin) => builder.build(new Request(origin), t, v, ids), pushes: false, google: false });
 * ```
 */
export function createImportRunner(db: SqlDatabase, options: ImportRunnerOptions): JobRunner {
  const batchSize = options.batchSize ?? 200;
  const readAhead = options.readAhead ?? false;

  const templateOf = async (sql: SqlQueryable, id: number | null): Promise<TemplateRecord> => {
    const found = id === null ? undefined : await findTemplate(sql, id);
    if (found === undefined) throw new JobFailure('The template was deleted.');
    return found;
  };

  const failed = (serialNumber: string | undefined, problem: ServiceProblem): Decision => ({
    kind: 'failed',
    serialNumber: serialNumber ?? null,
    problem: problemText(problem),
  });

  /** Renders one record: a new pass, or (upsert) a new version of `current`, the pass of its serial number. */
  const decide = (template: TemplateRecord, params: ImportParams, record: ImportRecord, current: PassRecord | undefined): Decision => {
    if (record.problem !== undefined) return failed(record.serialNumber, record.problem);
    try {
      if (current === undefined) {
        const pass = options.render(template, record.values, { serialNumber: record.serialNumber }, params.origin);
        const event = createEvent('pass.created', { serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier });
        return {
          kind: 'create',
          serialNumber: pass.serialNumber,
          passTypeIdentifier: pass.passTypeIdentifier,
          values: JSON.stringify(record.values),
          pass: JSON.stringify(pass),
          eventId: event.id,
          event: JSON.stringify(event),
        };
      }
      // A pass of the same type made from another template is not this import's to change (a key limited to
      // this template would reach the other's passes): it is taken, as for a create.
      if (current.templateId !== template.template.id) {
        return failed(record.serialNumber, new ServiceProblem(409, 'pass-exists', `A pass ${JSON.stringify(current.serialNumber)} of this type exists.`));
      }
      // As a PUT …/values: a voided pass's values cannot change; an expired one keeps its expiry.
      if (current.state === 'voided') {
        return failed(
          record.serialNumber,
          new ServiceProblem(409, 'pass-voided', `The pass ${JSON.stringify(current.serialNumber)} is voided: its values cannot change.`),
        );
      }
      // Its serial number and token kept.
      const rendered = options.render(
        template,
        record.values,
        {
          serialNumber: current.serialNumber,
          authenticationToken: current.pass.authenticationToken,
          webServiceURL: typeof current.pass.webServiceURL === 'string' ? current.pass.webServiceURL : undefined,
        },
        params.origin,
      );
      const pass = keepState(rendered, current.state, current.pass);
      const json = JSON.stringify(pass);
      // A new version only where the pass changed.
      if (json === JSON.stringify(current.pass)) return { kind: 'unchanged', serialNumber: current.serialNumber };
      return { kind: 'update', change: { pass, json, renderedVersion: template.version, state: current.state, values: record.values } };
    } catch (error) {
      if (!(error instanceof ServiceProblem)) throw error;
      return failed(record.serialNumber, error);
    }
  };

  /** The serial numbers an upsert batch looks up (those of records that can be made). */
  const serialsOf = (params: ImportParams, records: readonly ImportRecord[]): string[] =>
    params.mode !== 'upsert'
      ? []
      : records.flatMap((record) => (record.serialNumber === undefined || record.problem !== undefined ? [] : [record.serialNumber]));

  /** Reads the passes a batch names (upsert) and renders its records, giving the event loop to live requests every few. */
  const prepare = async (template: TemplateRecord, params: ImportParams, records: readonly ImportRecord[]): Promise<Prepared> => {
    const serials = serialsOf(params, records);
    const existing = new Map((await findPasses(db, template.template.passType, serials)).map((pass) => [pass.serialNumber, pass]));
    const decisions: Decision[] = [];
    for (const [index, record] of records.entries()) {
      if (index % RENDERS_BETWEEN_YIELDS === RENDERS_BETWEEN_YIELDS - 1) await yieldToRequests();
      decisions.push(decide(template, params, record, record.serialNumber === undefined ? undefined : existing.get(record.serialNumber)));
    }
    return { template, records, existing, decisions };
  };

  /** Writes a prepared batch in the job's transaction; resolves to what it did. */
  const write = async (tx: SqlQueryable, jobSeq: number, params: ImportParams, prepared: Prepared): Promise<BatchOutcome> => {
    const { template, records, existing } = prepared;
    const decisions = [...prepared.decisions];
    const templateId = template.template.id;
    // Upsert: the passes the batch names, locked; a record whose pass changed (or came, or went) since it was read is decided again.
    const serials = serialsOf(params, records);
    if (serials.length > 0) {
      const now = new Map((await lockPassStates(tx, template.template.passType, serials)).map((row) => [row.serialNumber, row]));
      const moved = new Set(
        serials.filter((serial) => {
          const row = now.get(serial);
          const read = existing.get(serial);
          if (row === undefined || read === undefined) return (row === undefined) !== (read === undefined);
          return row.version !== read.version || row.state !== read.state || row.templateId !== read.templateId;
        }),
      );
      if (moved.size > 0) {
        const fresh = new Map((await findPasses(tx, template.template.passType, [...moved])).map((pass) => [pass.serialNumber, pass]));
        for (const [index, record] of records.entries()) {
          if (record.serialNumber !== undefined && moved.has(record.serialNumber))
            decisions[index] = decide(template, params, record, fresh.get(record.serialNumber));
        }
      }
      // Changed passes are written as rendered from this version of the template: it must still be the current one.
      if (decisions.some((decision) => decision.kind === 'update') && (await templateOf(tx, templateId)).version !== template.version)
        throw new TemplateChanged();
    }

    // Changed passes first, as a PUT …/values changes one (the update tag's counter, then the events'), and every
    // transaction here takes the two counters in that order.
    const changes = decisions.flatMap((decision) => (decision.kind === 'update' ? [decision.change] : []));
    await commitPassChanges(tx, changes, 'pass.updated', options);

    const creates = decisions.flatMap((decision, index) => (decision.kind === 'create' ? [{ decision, index }] : []));
    if (creates.length > 0) {
      const columns: NewPassColumns = {
        types: [],
        serials: [],
        templateIds: [],
        templateVersions: [],
        values: [],
        passes: [],
        eventIds: [],
        events: [],
      };
      for (const { decision } of creates) {
        columns.types.push(decision.passTypeIdentifier);
        columns.serials.push(decision.serialNumber);
        columns.templateIds.push(templateId);
        columns.templateVersions.push(template.version);
        columns.values.push(decision.values);
        columns.passes.push(decision.pass);
        columns.eventIds.push(decision.eventId);
        columns.events.push(decision.event);
      }
      const inserted = await insertPassColumns(tx, columns);
      // Left out: a serial number taken, or the template changed since it was read (then the batch goes again).
      if (inserted.length < creates.length && (await templateOf(tx, templateId)).version !== template.version) throw new TemplateChanged();
      const made = new Set(inserted.map((row) => row.i));
      const keys: { passTypeIdentifier: string; serialNumber: string }[] = [];
      for (const [n, { decision, index }] of creates.entries()) {
        if (made.has(n + 1)) keys.push({ passTypeIdentifier: decision.passTypeIdentifier, serialNumber: decision.serialNumber });
        else
          decisions[index] = failed(
            decision.serialNumber,
            new ServiceProblem(409, 'pass-exists', `A pass ${JSON.stringify(decision.serialNumber)} of this type exists.`),
          );
      }
      if (options.google) await queueGoogleObjects(tx, keys);
    }

    const counts = { created: 0, updated: 0, unchanged: 0, failed: 0 };
    const results: JobResult[] = records.map((record, index) => {
      const decision = decisions[index]!;
      switch (decision.kind) {
        case 'create':
          counts.created++;
          return { n: record.row, status: 'created', serialNumber: decision.serialNumber, problem: null };
        case 'update':
          counts.updated++;
          return { n: record.row, status: 'updated', serialNumber: decision.change.pass.serialNumber, problem: null };
        case 'unchanged':
          counts.unchanged++;
          return { n: record.row, status: 'unchanged', serialNumber: decision.serialNumber, problem: null };
        default:
          counts.failed++;
          return { n: record.row, status: 'failed', serialNumber: decision.serialNumber, problem: decision.problem };
      }
    });
    await addJobResults(tx, jobSeq, results);
    return { records: records.length, ...counts };
  };

  return {
    async run(run: JobRun) {
      const { job } = run;
      const params = job.params as unknown as ImportParams;
      let template = await templateOf(db, job.template_id);
      const records = importRecords(jobInput(db, job.id), params.format, params.columns, job.done)[Symbol.asyncIterator]();
      let held: ImportRecord | undefined;
      let ended = false;
      /** The next batch: up to batchSize records, cut before a serial number it already has (the two go in order, one per batch). */
      const nextBatch = async (): Promise<ImportRecord[]> => {
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
        return batch;
      };
      /** The next batch, read and rendered; `undefined` after the last. */
      const following = async (): Promise<Prepared | undefined> => {
        if (ended) return undefined;
        const batch = await nextBatch();
        return batch.length === 0 ? undefined : prepare(template, params, batch);
      };
      /** Writes a batch (rendered again when the template changed since); `started` is called once its transaction is under way. */
      const writeBatch = async (first: Prepared, started: () => void): Promise<boolean> => {
        let prepared = first;
        for (let tries = 0; ; tries++) {
          const batch = prepared;
          const writing = run.batch(async (tx, done) => {
            const row = batch.records[0]!.row;
            if (done !== row - 1) throw new Error(`import job ${job.public_id}: the cursor is ${done}, the batch starts at row ${row}`);
            return write(tx, job.id, params, batch);
          });
          if (tries === 0) started();
          try {
            return await writing;
          } catch (error) {
            if (!(error instanceof TemplateChanged) || tries >= 5) throw error;
            template = await templateOf(db, job.template_id);
            prepared = await prepare(template, params, batch.records);
          }
        }
      };
      let next: Promise<Prepared | undefined> | undefined = following();
      try {
        for (;;) {
          const prepared = await next;
          next = undefined;
          if (prepared === undefined || run.stopping()) return;
          // Read ahead (PostgreSQL): the next batch is read and rendered here while the database writes this one.
          const going = await writeBatch(prepared, () => {
            if (readAhead) next = following();
          });
          if (!going) return;
          if (!readAhead) {
            // Between batches the event loop and, on PGlite, the one connection go to live requests first.
            await yieldToRequests();
            next = following();
          }
        }
      } finally {
        // A batch read and not written (the job stopped): nothing of it was stored.
        await next?.catch(() => undefined);
        await records.return?.(undefined);
      }
    },
  };
}
