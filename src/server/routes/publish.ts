import { ServiceProblem } from '../../http/problem.js';
import { insertJob, queueJob } from '../db/jobs.js';
import { countPasses } from '../db/passes.js';
import { dryRunPublish, type PublishParams } from '../queue/publish.js';
import { baseUrl } from './context.js';
import { defineRoute, type Route } from './define.js';
import { jsonAnswer, location, problemAnswer, queryParameter } from './docs.js';
import { jobResource } from './jobs.js';
import { json } from './responses.js';
import { object, ref } from './schemas.js';

/** Most passes a dry run renders; a template with more gets counts scaled from its oldest this many. */
export const DRY_RUN_SAMPLE = 1000;

/** Publishing a template to every pass made from it. */
export const publishRoutes: readonly Route[] = [
  defineRoute({
    method: 'POST',
    path: '/v1/templates/{id}/publish',
    auth: 'passes',
    summary: 'Publish the template to every pass',
    description:
      "Renders every pass of the template again at the template's current version, as a job (`GET /v1/jobs/{id}`): a pass whose pass.json (or whose template's files) changed gets a new version, with the pushes, Google Wallet update and `pass.updated` event of any change; the others keep theirs. Passes whose values no longer render keep their version and are named in the job's results with the problem. " +
      `\`?dryRun=true\` answers at once with what a publish would do and changes nothing: it renders at most the oldest ${DRY_RUN_SAMPLE} passes (with more, the counts are scaled to all and \`estimated\` is true).`,
    query: [queryParameter('dryRun', '`true`: count what would change and show one example; nothing is written.', { enum: ['true', 'false'] })],
    responses: {
      200: jsonAnswer(
        object(
          {
            passes: { type: 'integer', description: "The template's passes." },
            changed: { type: 'integer' },
            unchanged: { type: 'integer' },
            failed: { type: 'integer', description: 'Passes whose values no longer render.' },
            sampled: { type: 'integer', description: 'Passes rendered.' },
            estimated: { type: 'boolean', description: 'The counts are scaled from the passes rendered.' },
            example: {
              type: ['object', 'null'],
              description: 'The first pass that would change: `{ serialNumber, before, after }` (pass.json now and after).',
            },
            failures: { type: 'array', items: { type: 'object' }, description: 'At most 10 passes that would fail, `{ serialNumber, problem }`.' },
          },
          ['passes', 'changed', 'unchanged', 'failed', 'sampled', 'estimated', 'example', 'failures'],
        ),
        'A dry run: what a publish would do.',
      ),
      202: jsonAnswer(ref('Job'), 'The publish, queued: a job of kind `publish`.', location),
      400: problemAnswer('A `dryRun` other than `true` or `false`, or another parameter (`invalid-query`).'),
      404: problemAnswer('No such template.'),
    },
    handler: async ({ request, params, url }, { context, db, builder, templates }) => {
      for (const name of url.searchParams.keys()) {
        if (name !== 'dryRun') throw new ServiceProblem(400, 'invalid-query', `Unknown parameter \`${name}\`: a publish takes only \`dryRun\`.`);
      }
      const dryRun = url.searchParams.get('dryRun') ?? 'false';
      if (dryRun !== 'true' && dryRun !== 'false') throw new ServiceProblem(400, 'invalid-query', '`dryRun` is `true` or `false`.');
      const template = await templates.fresh(params.id);
      const origin = baseUrl(context, request);
      if (dryRun === 'true') {
        return json(await dryRunPublish(db, template, (t, values, ids) => builder.build(request, t, values, ids), origin, DRY_RUN_SAMPLE));
      }
      const settings: PublishParams = { origin, version: template.version };
      const job = await db.transaction(async (tx) => {
        const { seq } = await insertJob(tx, 'publish', template.template.id, { ...settings });
        return queueJob(tx, seq, await countPasses(tx, { templateId: template.template.id }), { ...settings });
      });
      return json(jobResource(job), 202, { location: `${origin}/v1/jobs/${job.id}` });
    },
  }),
];
