import { cancelJob, findJob, listJobs, type JobRecord } from '../db/jobs.js';
import { jobResults } from '../db/job-results.js';
import { addEvents } from '../db/outbox.js';
import type { SqlQueryable } from '../db/sql.js';
import { isUuid, page, readPage } from '../http/paging.js';
import { ServiceProblem } from '../../http/problem.js';
import { jobCompleted } from '../queue/jobs.js';
import { defineRoute, type Route } from './define.js';
import { badPage, bytesAnswer, jsonAnswer, paging, problemAnswer } from './docs.js';
import { found } from './lookups.js';
import { json } from './responses.js';
import { page as pageOf, ref } from './schemas.js';
import { mayUseTemplate } from './template-access.js';

/**
 * A job as the API shows it.
 *
 * @example
 * ```ts
 * jobResource(job); // { id: '3f0c…', kind: 'import', state: 'running', templateId: 7, rows: 40000, created: 1200, … }
 * ```
 */
export function jobResource(job: JobRecord): Record<string, unknown> {
  return {
    id: job.id,
    kind: job.kind,
    state: job.state,
    templateId: job.templateId,
    ...(typeof job.params['mode'] === 'string' ? { mode: job.params['mode'] } : {}),
    rows: job.rows,
    created: job.created,
    updated: job.updated,
    unchanged: job.unchanged,
    failed: job.failed,
    // A publish or a bulk void: the passes given a new version.
    ...(job.kind === 'publish' || job.kind === 'void' ? { changed: job.updated } : {}),
    error: job.error,
    queuedAt: job.createdAt.toISOString(),
    startedAt: job.startedAt?.toISOString() ?? null,
    finishedAt: job.finishedAt?.toISOString() ?? null,
  };
}

/**
 * A job by its id; 404 `job-not-found`.
 *
 * @example
 * ```ts
 * const job = await jobOf(db, params.id);
 * ```
 */
export const jobOf = (db: SqlQueryable, id: string): Promise<JobRecord> =>
  found(isUuid(id) ? findJob(db, id) : undefined, 'job-not-found', `No job ${JSON.stringify(id)} exists.`);

/** Results read from the database per round of the results stream. */
const RESULTS_PAGE = 1000;

const encoder = new TextEncoder();

/** Jobs: list, read, cancel, and the results stream. */
export const jobRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/jobs',
    auth: 'read',
    // A key limited to templates sees only their jobs.
    templates: 'filtered',
    summary: 'List jobs',
    description: 'For a key limited to templates, only their jobs: a page may then hold fewer than `limit` (and none) while `next` goes on.',
    query: paging,
    responses: { 200: jsonAnswer(pageOf('Job'), 'A page of jobs, newest first unless read `after` a cursor.'), 400: badPage },
    handler: async ({ url, caller }, { db }) => {
      const query = readPage(url, 'before');
      const items = await listJobs(db, query);
      if ((caller?.templateIds ?? null) === null) return json(page(items, query, (item) => item.seq, jobResource));
      // The page as read (its cursor), shown only with the jobs of the key's templates.
      const { next } = page(
        items,
        query,
        (item) => item.seq,
        () => undefined,
      );
      return json({ items: items.filter((item) => item.templateId !== null && mayUseTemplate(caller, item.templateId)).map(jobResource), next });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/jobs/{id}',
    auth: 'read',
    summary: 'Read a job',
    description: 'Its state and counts; `created + updated + unchanged + failed` of `rows` records are done.',
    responses: { 200: jsonAnswer(ref('Job'), 'The job.'), 404: problemAnswer('No such job.') },
    handler: async ({ params }, { db }) => json(jobResource(await jobOf(db, params.id))),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/jobs/{id}/cancel',
    auth: 'passes',
    summary: 'Cancel a job',
    description: 'Stops the job after the batch in flight: what its committed batches did stays (see its results). Sends `job.completed`.',
    responses: {
      200: jsonAnswer(ref('Job'), 'The job, cancelled (or cancelled already).'),
      404: problemAnswer('No such job.'),
      409: problemAnswer('The job has ended (`job-ended`).'),
    },
    handler: async ({ params }, { db, commitEvents }) => {
      const job = await jobOf(db, params.id);
      if (job.state === 'cancelled') return json(jobResource(job));
      let cancelled: JobRecord | undefined;
      await commitEvents(async (tx) => {
        cancelled = await cancelJob(tx, job.id);
        if (cancelled !== undefined) await addEvents(tx, [jobCompleted(cancelled)]);
      });
      if (cancelled !== undefined) return json(jobResource(cancelled));
      const now = await jobOf(db, params.id);
      if (now.state === 'cancelled') return json(jobResource(now));
      throw new ServiceProblem(409, 'job-ended', `The job has ended (${now.state}); only a queued or running job can be cancelled.`);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/jobs/{id}/results',
    auth: 'read',
    summary: "A job's results",
    description:
      'JSON lines, one per record in the input\'s order: `{ "row", "status": "created" | "updated" | "unchanged" | "failed", "serialNumber", "problem"? }`, `problem` the RFC 9457 body the single-pass route would have answered. While the job runs, the records done so far.',
    responses: {
      200: bytesAnswer('application/x-ndjson', 'One JSON object per line.', ref('JobResult')),
      404: problemAnswer('No such job.'),
    },
    handler: async ({ params }, { db }) => {
      const job = await jobOf(db, params.id);
      let after = 0;
      // Read a page at a time as the client takes them: a million results are never held.
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const results = await jobResults(db, job.seq, after, RESULTS_PAGE);
            if (results.length > 0) {
              after = results[results.length - 1]!.n;
              let text = '';
              for (const result of results) {
                text += `{"row":${result.n},"status":${JSON.stringify(result.status)},"serialNumber":${JSON.stringify(result.serialNumber)}${result.problem === null ? '' : `,"problem":${result.problem}`}}\n`;
              }
              controller.enqueue(encoder.encode(text));
            }
            if (results.length < RESULTS_PAGE) controller.close();
          },
        },
        { highWaterMark: 0 },
      );
      return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' } });
    },
  }),
];
