import { dropUpload, insertJob, queueJob } from '../db/jobs.js';
import { ServiceProblem } from '../../http/problem.js';
import { storeUpload, type ImportFormat } from '../queue/imports-file.js';
import type { ImportParams } from '../queue/imports.js';
import { baseUrl } from './context.js';
import { defineRoute, type Route } from './define.js';
import { jsonAnswer, location, problemAnswer, queryParameter } from './docs.js';
import { jobResource } from './jobs.js';
import { json } from './responses.js';
import { ref } from './schemas.js';

/** The format of a body by its media type (`text/csv`; `application/x-ndjson` and its other names), or `undefined`. */
function formatOf(contentType: string | null): ImportFormat | undefined {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/csv') return 'csv';
  if (type === 'application/x-ndjson' || type === 'application/jsonl' || type === 'application/x-jsonlines' || type === 'application/jsonlines')
    return 'ndjson';
  return undefined;
}

/** Imports: a file of records made into passes by a job. */
export const importRoutes: readonly Route[] = [
  defineRoute({
    method: 'POST',
    path: '/v1/templates/{id}/imports',
    auth: 'passes',
    summary: 'Import passes from a file',
    description:
      "The body is the file: CSV (`text/csv`, RFC 4180, a header row naming the columns) or JSON lines (`application/x-ndjson`, one object of values per line). The columns are the template's placeholders and an optional `serialNumber`. The file is checked and stored before the answer; a job then makes the passes (`GET /v1/jobs/{id}`). `?mode=upsert`: a record whose `serialNumber` names an existing pass changes its values as `PUT /v1/passes/{type}/{serial}/values` does (a new version only where the pass changed).",
    query: [
      queryParameter('mode', '`create` (default): every record a new pass; `upsert`: a record naming an existing pass changes it.', {
        enum: ['create', 'upsert'],
      }),
    ],
    body: {
      required: true,
      content: {
        'text/csv': { schema: { type: 'string' } },
        'application/x-ndjson': { schema: { type: 'string' } },
      },
    },
    responses: {
      202: jsonAnswer(ref('Job'), 'The job, queued.', location),
      400: problemAnswer('A `mode` other than `create` or `upsert` (`invalid-query`).'),
      404: problemAnswer('No such template.'),
      413: problemAnswer('The file is larger than the limit (`body-too-large`) or has more rows (`too-many-rows`).'),
      415: problemAnswer('Neither `text/csv` nor `application/x-ndjson`.'),
      422: problemAnswer(
        'Not CSV or JSON lines, not UTF-8, an unknown or missing column (`invalid-import`, naming the line or the column); nothing is stored.',
      ),
    },
    handler: async ({ request, params, url }, { context, db, templates }) => {
      const template = await templates.fresh(params.id);
      const mode = url.searchParams.get('mode') ?? 'create';
      if (mode !== 'create' && mode !== 'upsert') throw new ServiceProblem(400, 'invalid-query', '`mode` is `create` or `upsert`.');
      const format = formatOf(request.headers.get('content-type'));
      if (format === undefined) {
        throw new ServiceProblem(
          415,
          'unsupported-media-type',
          'Send the file as "Content-Type: text/csv" or "Content-Type: application/x-ndjson" (JSON lines).',
        );
      }
      const { maxImportBytes: maxBytes, maxImportRows: maxRows } = context.limits;
      if (Number(request.headers.get('content-length') ?? '0') > maxBytes) {
        throw new ServiceProblem(413, 'body-too-large', `An import is at most ${maxBytes} bytes (limit maxImportBytes).`);
      }
      const origin = baseUrl(context, request);
      const settings: Omit<ImportParams, 'columns'> = { mode, format, origin };
      const { seq } = await insertJob(db, 'import', template.template.id, { ...settings });
      let job: Awaited<ReturnType<typeof queueJob>>;
      try {
        const upload = await storeUpload(db, request.body, { jobSeq: seq, format, placeholders: template.template.placeholder, maxBytes, maxRows });
        job = await queueJob(db, seq, upload.rows, { ...settings, columns: upload.columns } satisfies ImportParams);
      } catch (error) {
        // Refused (or the client left): nothing of it stays.
        await dropUpload(db, seq).catch(() => undefined);
        throw error;
      }
      return json(jobResource(job), 202, { location: `${origin}/v1/jobs/${job.id}` });
    },
  }),
];
