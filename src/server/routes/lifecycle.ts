import { ServiceProblem } from '../../http/problem.js';
import { insertJob, queueJob } from '../db/jobs.js';
import { isObject, readOptionalJson } from '../http/body.js';
import { countPasses, findPass, type PassFilter, type PassRecord } from '../db/passes.js';
import type { PassChange } from '../db/programs.js';
import { commitPassChanges, expiredPass, voidedPass, type PassChangeEvent, type VoidParams } from '../queue/lifecycle.js';
import { baseUrl } from './context.js';
import { defineRoute, type Route } from './define.js';
import { jsonAnswer, location, problemAnswer, queryParameter } from './docs.js';
import { jobResource } from './jobs.js';
import { found, noPass } from './lookups.js';
import { readPassQuery } from './pass-query.js';
import { passResource } from './resources.js';
import { json } from './responses.js';
import { ref } from './schemas.js';
import type { Services } from './services.js';

/** What a lifecycle call does to a pass. */
type Action = 'void' | 'expire' | 'reactivate';

const EVENTS: Readonly<Record<Action, PassChangeEvent>> = { void: 'pass.voided', expire: 'pass.expired', reactivate: 'pass.reactivated' };

const voidedProblem = (record: PassRecord): ServiceProblem =>
  new ServiceProblem(409, 'pass-voided', `The pass ${JSON.stringify(record.serialNumber)} is voided: a voided pass is final.`);

/**
 * The pass's new version for `action`, or `undefined` when it is in that
 * state already (nothing to do).
 */
async function changeOf(
  action: Action,
  current: PassRecord,
  request: Request,
  services: Services,
  tx: Parameters<typeof findPass>[0],
): Promise<PassChange | undefined> {
  if (action === 'void') return current.state === 'voided' ? undefined : { pass: voidedPass(current.pass), renderedVersion: null, state: 'voided' };
  if (current.state === 'voided') throw voidedProblem(current);
  if (action === 'expire')
    return current.state === 'expired' ? undefined : { pass: expiredPass(current.pass, new Date()), renderedVersion: null, state: 'expired' };
  if (current.state === 'active') return undefined;
  // Reactivated: rendered again from its values, as a PUT …/values renders (the expirationDate it was expired with is gone).
  const template = await services.templates.at(tx, current.templateId, current.templateVersion);
  if (template === undefined) throw new ServiceProblem(404, 'template-not-found', "The pass's template is gone.");
  const pass = services.builder.build(request, template, current.values, {
    serialNumber: current.serialNumber,
    authenticationToken: current.pass.authenticationToken,
    webServiceURL: typeof current.pass.webServiceURL === 'string' ? current.pass.webServiceURL : undefined,
  });
  return { pass, renderedVersion: template.version, state: 'active' };
}

const lifecycleRoute = (action: Action, summary: string, description: string, conflict: string): Route =>
  defineRoute({
    method: 'POST',
    path: `/v1/passes/{type}/{serial}/${action}`,
    auth: 'passes',
    summary,
    description,
    responses: {
      200: jsonAnswer(ref('Pass'), 'The pass (as it was, when it was in that state already).'),
      404: problemAnswer('No such pass.'),
      ...(action === 'void' ? {} : { 409: problemAnswer(conflict) }),
      ...(action === 'reactivate' ? { 422: problemAnswer('Its values no longer render with the template (`invalid-values`).') } : {}),
    },
    handler: async ({ request, params }, services) => {
      const { context, commitEvents } = services;
      let record: PassRecord | undefined;
      await commitEvents(async (tx) => {
        const current = await findPass(tx, params.type, params.serial, true);
        if (current === undefined) return;
        const change = await changeOf(action, current, request, services, tx);
        if (change === undefined) {
          record = current;
          return;
        }
        await commitPassChanges(tx, [change], EVENTS[action], { pushes: context.pushes, google: context.google !== undefined });
        record = await findPass(tx, params.type, params.serial);
      });
      return json(passResource(context, request, await found(record, 'pass-not-found', noPass(params.type, params.serial))));
    },
  });

/** Void, expire and reactivate a pass; void a template's passes by filter. */
export const lifecycleRoutes: readonly Route[] = [
  lifecycleRoute(
    'void',
    'Void a pass',
    "A new version with `voided: true` (Wallet shows the pass as void; Google Wallet's object becomes `INACTIVE`), a push to the devices that hold it and `pass.voided`. Final: a voided pass cannot be reactivated and its values cannot change (`409 pass-voided`). Voiding a voided pass changes nothing.",
    '',
  ),
  lifecycleRoute(
    'expire',
    'Expire a pass',
    "A new version whose `expirationDate` is now (Wallet shows the pass as expired; Google Wallet's object becomes `EXPIRED`), a push and `pass.expired`. Its values may still change (the expiry stays); `…/reactivate` undoes it.",
    'The pass is voided (`pass-voided`).',
  ),
  lifecycleRoute(
    'reactivate',
    'Reactivate an expired pass',
    "Renders the expired pass again from its values (its template's own `expirationDate`, if any, applies again): a new version, `ACTIVE` on Google Wallet, a push and `pass.reactivated`. An active pass is left as it is; a voided one cannot be reactivated.",
    'The pass is voided (`pass-voided`): voiding is final.',
  ),
  defineRoute({
    method: 'POST',
    path: '/v1/templates/{id}/passes/void',
    auth: 'passes',
    summary: "Void a template's passes by filter",
    description:
      'A job (`GET /v1/jobs/{id}`, kind `void`) that voids every pass of the template matching the filters of `GET /v1/passes` (`serialNumber`, `updatedSince`, `values.NAME`; all must hold; none: every pass of the template), as `POST …/void` voids one: in creation order, a batch at a time, each pass once. Passes voided already count as `unchanged`. A pass made after the job started is voided too if it matches when the job reaches it.',
    query: [
      queryParameter('serialNumber', 'Only the pass with this serial number.'),
      queryParameter('updatedSince', 'Only passes made or changed at or after this time (ISO 8601 date-time with a zone).', {
        type: 'string',
        format: 'date-time',
      }),
      queryParameter('values.NAME', 'Only passes whose placeholder NAME has exactly this value (repeat with other names; all must hold).'),
    ],
    responses: {
      202: jsonAnswer(ref('Job'), 'The bulk void, queued: a job of kind `void`.', location),
      400: problemAnswer(
        'An unknown or repeated parameter, paging, `templateId` (the path names it), or a `values.NAME` that is not a placeholder (`invalid-query`).',
      ),
      404: problemAnswer('No such template.'),
      422: problemAnswer('A body other than none or `{}` (`invalid-body`): the filters are query parameters.'),
    },
    handler: async ({ request, params, url }, { context, db, templates }) => {
      // The filters are the query's: a filter sent as a body would be ignored, and the job void every pass (for good).
      const body = await readOptionalJson(request, 4096);
      if (body !== undefined && !(isObject(body) && Object.keys(body).length === 0)) {
        throw new ServiceProblem(
          422,
          'invalid-body',
          'No body: give the filters as query parameters (`?serialNumber=…`, `?values.NAME=…`, `?updatedSince=…`).',
        );
      }
      const template = await templates.fresh(params.id);
      for (const name of ['templateId', 'limit', 'after', 'before', 'escapeFormulas']) {
        if (url.searchParams.has(name))
          throw new ServiceProblem(400, 'invalid-query', `\`${name}\` is not taken here: the template is the path's, and the job voids every matching pass.`);
      }
      const { filter } = readPassQuery(url, false);
      const placeholders = new Set(template.template.placeholder);
      for (const [name] of filter.values ?? []) {
        if (!placeholders.has(name))
          throw new ServiceProblem(400, 'invalid-query', `\`values.${name}\`: template ${template.template.id} has no placeholder ${JSON.stringify(name)}.`);
      }
      const settings: VoidParams = {
        filter: {
          ...(filter.serialNumber === undefined ? {} : { serialNumber: filter.serialNumber }),
          ...(filter.updatedSince === undefined ? {} : { updatedSince: filter.updatedSince.toISOString() }),
          ...(filter.values === undefined ? {} : { values: filter.values }),
        },
      };
      const where: PassFilter = { ...filter, templateId: template.template.id };
      const job = await db.transaction(async (tx) => {
        const { seq } = await insertJob(tx, 'void', template.template.id, { ...settings });
        return queueJob(tx, seq, await countPasses(tx, where), { ...settings });
      });
      return json(jobResource(job), 202, { location: `${baseUrl(context, request)}/v1/jobs/${job.id}` });
    },
  }),
];
