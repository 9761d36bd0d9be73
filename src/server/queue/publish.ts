// Publishing a template (`POST /v1/templates/{id}/publish`): every pass of
// the template rendered again at its current version, a batch at a time in
// creation order, a new version only where the pass changed — with the
// pushes, Google objects, update tags and `pass.updated` events of any
// change — and the batch's results and the job's cursor in the same
// transaction. The dry run renders without writing.
import type { JsonObject, Pass } from '../../types.js';
import { ServiceProblem } from '../../http/problem.js';
import { fileChanges, setRenderedVersion, addPassResults, jobCursor, setJobCursor, type PassChange, type PassResult } from '../db/programs.js';
import { countPasses, listPasses, lockPassPage, type PassRecord } from '../db/passes.js';
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
}

/** Passes rendered between two turns of the event loop given to live requests. */
const RENDERS_BETWEEN_YIELDS = 20;

/** What became of one pass. */
type Outcome =
  | { readonly status: 'changed'; readonly pass: Pass }
  | { readonly status: 'unchanged' }
  | { readonly status: 'failed'; readonly problem: ServiceProblem };

/** The file changes of a template (see `fileChanges`), oldest first. */
type FileChanges = readonly { readonly version: number; readonly created: Date }[];

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
  return filesStale || JSON.stringify(pass) !== JSON.stringify(record.pass) ? { status: 'changed', pass } : { status: 'unchanged' };
}

/**
 * The publish kind's runner.
 *
 * @example
 * ```ts
 * const runner = createPublishRunner(db, { render: (t, v, ids, origin) => builder.build(new Request(origin), t, v, ids), pushes: true, google: false });
 * ```
 */
export function createPublishRunner(db: SqlDatabase, options: PublishRunnerOptions): JobRunner {
  const batchSize = options.batchSize ?? 100;

  const batch = async (tx: SqlQueryable, jobSeq: number, templateId: number, done: number, origin: string) => {
    // The template as it is now (a change mid-publish: the rest goes at the newer version).
    const template = await findTemplate(tx, templateId);
    if (template === undefined) throw new JobFailure('The template was deleted.');
    const files = await fileChanges(tx, templateId);
    const passes = await lockPassPage(tx, { templateId }, await jobCursor(tx, jobSeq), batchSize);
    const changes: PassChange[] = [];
    const same: PassRecord[] = [];
    const results: PassResult[] = [];
    for (const [index, record] of passes.entries()) {
      // Rendering is the batch's CPU: the event loop goes to live requests every few passes.
      if (index % RENDERS_BETWEEN_YIELDS === RENDERS_BETWEEN_YIELDS - 1) await yieldToRequests();
      const outcome = republish(options.render, template, files, record, origin);
      const n = done + index + 1;
      if (outcome.status === 'changed') changes.push({ pass: outcome.pass, renderedVersion: template.version, state: record.state });
      else if (outcome.status === 'unchanged') same.push(record);
      results.push({
        n,
        status: outcome.status,
        serialNumber: record.serialNumber,
        problem: outcome.status === 'failed' ? problemText(outcome.problem) : null,
      });
    }
    await setRenderedVersion(tx, same, template.version);
    await addPassResults(tx, jobSeq, results);
    if (passes.length > 0) await setJobCursor(tx, jobSeq, passes[passes.length - 1]!.seq);
    // The two counters last (update tag, then event number).
    await commitPassChanges(tx, changes, 'pass.updated', options);
    return {
      passes: passes.length,
      outcome: { records: passes.length, created: 0, updated: changes.length, unchanged: same.length, failed: passes.length - changes.length - same.length },
    };
  };

  return {
    async run(run: JobRun) {
      const { job } = run;
      const params = job.params as unknown as PublishParams;
      if (job.template_id === null) throw new JobFailure('The job names no template.');
      const templateId = job.template_id;
      let ended = false;
      while (!ended && !run.stopping()) {
        const going = await run.batch(async (tx, done) => {
          const { passes, outcome } = await batch(tx, job.id, templateId, done, params.origin);
          ended = passes < batchSize;
          return outcome;
        });
        if (!going) return;
        // Between batches the event loop and, on PGlite, the one connection go to live requests first.
        await yieldToRequests();
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
    for (const record of page) {
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
    await yieldToRequests();
  }
  const estimated = total > sampled && sampled > 0;
  const scale = (count: number): number => (estimated ? Math.round((count * total) / sampled) : count);
  const counts = estimated ? { changed: scale(changed), unchanged: scale(unchanged), failed: scale(failed) } : { changed, unchanged, failed };
  if (estimated) counts.unchanged = total - counts.changed - counts.failed;
  return { passes: total, ...counts, sampled, estimated, example, failures };
}
