// Publishing a template (`POST /v1/templates/{id}/publish`): every pass of
// the template rendered again at its current version, a batch at a time in
// creation order, a new version only where the pass changed — with the
// pushes, Google objects, update tags and `pass.updated` events of any
// change — and the batch's results and the job's cursor in the same
// transaction. The dry run renders without writing.
import type { JsonObject, Pass } from '../../types.js';
import { ServiceProblem } from '../../http/problem.js';
import { addPassResults, fileChanges, jobCursor, setJobCursor, setRenderedVersion, type PassChange, type PassResult } from '../db/programs.js';
import { countPasses, listPasses, lockPasses, lockPassVersions, type PassRecord } from '../db/passes.js';
import type { SqlDatabase, SqlQueryable } from '../db/sql.js';
import { findTemplate, type TemplateRecord } from '../db/templates.js';
import type { RenderIds } from './imports.js';
import { problemText } from './imports.js';
import { JobFailure, type JobRun, type JobRunner } from './jobs.js';
import { commitPassChanges, keepState, yieldToRequests, type ChangeOutlets } from './lifecycle.js';

/** A publish's parameters, as its job keeps them. */
export interface PublishParams {
  /** The origin of the request that asked for it (a pass's `webServiceURL` without a public URL). */
  readonly origin: string;
  /** The template's version when it was asked for. */
  readonly version: number;
}

/** Renders a pass as a `PUT …/values` does; throws a ServiceProblem for values that no longer fit. */
export type PublishRender = (template: TemplateRecord, values: JsonObject, ids: RenderIds, origin: string) => Pass;

/** Options of {@link createPublishRunner}. */
export interface PublishRunnerOptions extends ChangeOutlets {
  readonly render: PublishRender;
  /** Passes per batch (one transaction each; small, so live requests wait at most one batch); default 100. */
  readonly batchSize?: number | undefined;
  /** Read and render the next batch while one is written (a database server, whose work is not this process's); default false. */
  readonly readAhead?: boolean | undefined;
}

/** Passes rendered between two turns of the event loop given to live requests. */
const RENDERS_BETWEEN_YIELDS = 20;

/** What became of one pass. */
type Outcome =
  | { readonly status: 'changed'; readonly pass: Pass; readonly json: string }
  | { readonly status: 'unchanged' }
  | { readonly status: 'failed'; readonly problem: ServiceProblem };

/** The file changes of a template (see `fileChanges`), oldest first. */
type FileChanges = readonly { readonly version: number; readonly created: Date }[];

/** A batch read and rendered, to be written. */
interface Prepared {
  /** The job's cursor it was read after. */
  readonly cursor: number;
  readonly template: TemplateRecord;
  readonly files: FileChanges;
  readonly read: readonly PassRecord[];
  readonly rendered: readonly Outcome[];
}

/**
 * Renders one pass at `template` (its serial number, token and web service
 * kept, its lifecycle kept) and compares it with the stored one. A pass is
 * changed where its pass.json is, or where the template's files changed
 * since it was rendered (its package is not the same).
 */
function republish(render: PublishRender, template: TemplateRecord, files: FileChanges, record: PassRecord, origin: string): Outcome {
  let pass: Pass;
  try {
    pass = render(
      template,
      record.values,
      {
        serialNumber: record.serialNumber,
        authenticationToken: record.pass.authenticationToken,
        webServiceURL: typeof record.pass.webServiceURL === 'string' ? record.pass.webServiceURL : undefined,
      },
      origin,
    );
  } catch (error) {
    if (!(error instanceof ServiceProblem)) throw error;
    return { status: 'failed', problem: error };
  }
  pass = keepState(pass, record.state, record.pass);
  const rendered = record.renderedVersion;
  // Made before versions were recorded: files changed after its last change.
  const filesStale = files.some(
    (change) => change.version <= template.version && (rendered === null ? change.created > record.updated : change.version > rendered),
  );
  const json = JSON.stringify(pass);
  return filesStale || json !== JSON.stringify(record.pass) ? { status: 'changed', pass, json } : { status: 'unchanged' };
}

/**
 * The publish kind's runner. Each batch is read and rendered outside any
 * transaction (the event loop given to live requests every few renders),
 * then written in one short transaction: the passes locked, any that
 * changed since they were read (or all, if the template did) rendered
 * again, and their versions, pushes, Google objects, tags, events, results
 * and the job's cursor committed together.
 *
 * @example
 * ```ts
 * const runner = createPublishRunner(db, { render: (t, v, ids, origin) => builder.build(new Request(origin), t, v, ids), pushes: true, google: false, batchSize: 250 });
 * ```
 */
export function createPublishRunner(db: SqlDatabase, options: PublishRunnerOptions): JobRunner {
  const batchSize = options.batchSize ?? 100;
  const readAhead = options.readAhead ?? false;

  /** Renders passes; `yields`: give the event loop to live requests every few (not inside a transaction's locks). */
  const renderAll = async (template: TemplateRecord, files: FileChanges, passes: readonly PassRecord[], origin: string, yields: boolean) => {
    const outcomes: Outcome[] = [];
    for (const [index, record] of passes.entries()) {
      if (yields && index % RENDERS_BETWEEN_YIELDS === RENDERS_BETWEEN_YIELDS - 1) await yieldToRequests();
      outcomes.push(republish(options.render, template, files, record, origin));
    }
    return outcomes;
  };

  return {
    async run(run: JobRun) {
      const { job } = run;
      const params = job.params as unknown as PublishParams;
      if (job.template_id === null) throw new JobFailure('The job names no template.');
      const templateId = job.template_id;
      /** Reads the batch after `cursor` and renders it (outside any transaction). */
      const prepare = async (cursor: number): Promise<Prepared> => {
        const template = await findTemplate(db, templateId);
        if (template === undefined) throw new JobFailure('The template was deleted.');
        const files = await fileChanges(db, templateId);
        const read = await listPasses(db, { limit: batchSize, direction: 'after', cursor }, { templateId });
        return { cursor, template, files, read, rendered: await renderAll(template, files, read, params.origin, true) };
      };
      let next: Promise<Prepared> | undefined = prepare(await jobCursor(db, job.id));
      try {
        while (next !== undefined && !run.stopping()) {
          const prepared: Prepared = await next;
          const { cursor, template, files, read, rendered } = prepared;
          const full = read.length === batchSize;
          // Read ahead (a database server): the next batch is read and rendered while this one is written.
          next = readAhead && full ? prepare(read[read.length - 1]!.seq) : undefined;

          const going = await run.batch(async (tx, done) => {
            if ((await jobCursor(tx, job.id)) !== cursor) throw new Error(`publish job ${job.public_id}: its cursor moved while a batch was rendered`);
            // The passes as they are now, locked; the template too (a change since: this batch is rendered again).
            const now = await findTemplate(tx, templateId);
            if (now === undefined) throw new JobFailure('The template was deleted.');
            // Their versions and states now, locked; the full rows only of those changed since they were read.
            const current = new Map((await lockPassVersions(tx, read)).map((row) => [row.seq, row]));
            const moved = read.filter((first) => {
              const row = current.get(first.seq);
              return row !== undefined && (row.version !== first.version || row.state !== first.state);
            });
            const locked = new Map(read.filter((first) => current.has(first.seq)).map((first) => [first.seq, first]));
            for (const record of await lockPasses(tx, moved)) locked.set(record.seq, record);
            const stale = now.version !== template.version;
            const nowFiles = stale ? await fileChanges(tx, templateId) : files;
            const changes: PassChange[] = [];
            const same: PassRecord[] = [];
            const results: PassResult[] = [];
            for (const [index, first] of read.entries()) {
              const record = locked.get(first.seq);
              // Deleted since it was read: nothing to publish.
              if (record === undefined) continue;
              const outcome =
                stale || record.version !== first.version || record.state !== first.state
                  ? republish(options.render, now, nowFiles, record, params.origin)
                  : rendered[index]!;
              if (outcome.status === 'changed') changes.push({ pass: outcome.pass, json: outcome.json, renderedVersion: now.version, state: record.state });
              else if (outcome.status === 'unchanged') same.push(record);
              results.push({
                n: done + results.length + 1,
                status: outcome.status,
                serialNumber: record.serialNumber,
                problem: outcome.status === 'failed' ? problemText(outcome.problem) : null,
              });
            }
            await setRenderedVersion(tx, same, now.version);
            await addPassResults(tx, job.id, results);
            if (read.length > 0) await setJobCursor(tx, job.id, read[read.length - 1]!.seq);
            // The two counters last (update tag, then event number).
            await commitPassChanges(tx, changes, 'pass.updated', options);
            return {
              records: results.length,
              created: 0,
              updated: changes.length,
              unchanged: same.length,
              failed: results.length - changes.length - same.length,
            };
          });
          if (!going) return;
          if (!readAhead && full) {
            // Between batches the event loop and, on PGlite, the one connection go to live requests first.
            await yieldToRequests();
            next = prepare(read[read.length - 1]!.seq);
          }
        }
      } finally {
        // A batch read and not written (the process is stopping): nothing of it was stored.
        await next?.catch(() => undefined);
      }
    },
  };
}

/** What a dry run answers. */
export interface DryRun {
  /** The template's passes. */
  readonly passes: number;
  readonly changed: number;
  readonly unchanged: number;
  readonly failed: number;
  /** Passes rendered: all of them, or the oldest `sampled` when there are more (then the counts are estimates). */
  readonly sampled: number;
  readonly estimated: boolean;
  /** The first pass that would change: its pass.json now and after. */
  readonly example: { readonly serialNumber: string; readonly before: Pass; readonly after: Pass } | null;
  /** The first passes (of those rendered, at most 10) whose values no longer render, with the problem. */
  readonly failures: readonly { readonly serialNumber: string; readonly problem: unknown }[];
}

/**
 * Renders the template's oldest `sample` passes as a publish would and
 * writes nothing: the counts of what a publish would do (exact when the
 * template has no more passes than that, otherwise scaled up to all of its
 * passes), and one example.
 *
 * @example
 * ```ts
 * const answer = await dryRunPublish(db, template, render, origin, 1000);
 * ```
 */
export async function dryRunPublish(db: SqlQueryable, template: TemplateRecord, render: PublishRender, origin: string, sample: number): Promise<DryRun> {
  const templateId = template.template.id;
  const total = await countPasses(db, { templateId });
  const files = await fileChanges(db, templateId);
  let changed = 0;
  let unchanged = 0;
  let failed = 0;
  let example: DryRun['example'] = null;
  const failures: { serialNumber: string; problem: unknown }[] = [];
  let cursor = 0;
  let sampled = 0;
  while (sampled < sample) {
    const limit = Math.min(500, sample - sampled);
    const page = await listPasses(db, { limit, direction: 'after', cursor }, { templateId });
    for (const [index, record] of page.entries()) {
      if (index % RENDERS_BETWEEN_YIELDS === RENDERS_BETWEEN_YIELDS - 1) await yieldToRequests();
      const outcome = republish(render, template, files, record, origin);
      if (outcome.status === 'changed') {
        changed++;
        example ??= { serialNumber: record.serialNumber, before: record.pass, after: outcome.pass };
      } else if (outcome.status === 'unchanged') unchanged++;
      else {
        failed++;
        if (failures.length < 10) failures.push({ serialNumber: record.serialNumber, problem: JSON.parse(problemText(outcome.problem)) });
      }
    }
    sampled += page.length;
    if (page.length < limit) break;
    cursor = page[page.length - 1]!.seq;
  }
  const estimated = total > sampled && sampled > 0;
  const scale = (count: number): number => (estimated ? Math.round((count * total) / sampled) : count);
  const counts = estimated ? { changed: scale(changed), unchanged: scale(unchanged), failed: scale(failed) } : { changed, unchanged, failed };
  if (estimated) counts.unchanged = total - counts.changed - counts.failed;
  return { passes: total, ...counts, sampled, estimated, example, failures };
}
