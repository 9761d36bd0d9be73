import { pkpassHeaders } from '../../pkpass/mime.js';
import { createEvent } from '../../webhooks/event.js';
import { markPassUpdated } from '../db/devices.js';
import { owePassToGoogle } from '../db/google-sync.js';
import { addEvents } from '../db/outbox.js';
import * as store from '../db/store.js';
import { readJson } from '../http/body.js';
import { BytesResponse } from '../http/bytes-response.js';
import { page } from '../http/paging.js';
import { ServiceProblem } from '../../http/problem.js';
import { sameSecret } from '../http/same-secret.js';
import { defineRoute, type Route } from './define.js';
import { bytesAnswer, emptyAnswer, jsonAnswer, jsonBody, paging, passToken, problemAnswer, queryParameter } from './docs.js';
import { valuesOf } from './inputs.js';
import { found, noPass, passOf } from './lookups.js';
import { keepState } from '../queue/lifecycle.js';
import { exportCsv } from './pass-export.js';
import { readPassQuery, wantsCsv } from './pass-query.js';
import { passLinks, passResource, passSummary } from './resources.js';
import { json, noContent } from './responses.js';
import { page as pageOf, ref } from './schemas.js';
import { passTemplateFor } from './template-access.js';

/** Passes: list, read, change values, the seed's passjson, the signed download, delete. */
export const passRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/passes',
    auth: 'read',
    // A key limited to templates lists, searches and exports only their passes.
    templates: 'filtered',
    summary: 'List, search or export passes',
    description:
      'Filters (all must hold): `templateId`, `serialNumber`, `updatedSince` (an ISO 8601 date-time), and `values.NAME=VALUE` (the exact value of placeholder NAME; several allowed). ' +
      'An unknown parameter is refused. With `Accept: text/csv` (and `templateId`) the answer is every matching pass as CSV, streamed: ' +
      '`serialNumber`, one column per placeholder, `version`, `updated` and the links (`escapeFormulas=true` prefixes cells that start with = + - @ with an apostrophe).',
    query: [
      ...paging,
      queryParameter('templateId', 'Only passes made from this template (required for CSV: its placeholders are the columns).'),
      queryParameter('serialNumber', 'Only the pass(es) with this serial number.'),
      queryParameter('updatedSince', 'Only passes made or changed at or after this time (ISO 8601 date-time with a zone, e.g. `2025-03-01T00:00:00Z`).', {
        type: 'string',
        format: 'date-time',
      }),
      queryParameter(
        'values.NAME',
        "Only passes whose placeholder NAME has exactly this value (write the placeholder's name for NAME; repeat with other names, all must hold). With `templateId`, NAME must be one of its placeholders.",
      ),
      queryParameter(
        'escapeFormulas',
        'CSV only: `true` prefixes an apostrophe to cells that start with `=`, `+`, `-` or `@` (for spreadsheets; the file is then no longer the values as stored).',
        {
          enum: ['true', 'false'],
        },
      ),
    ],
    responses: {
      200: {
        description: 'A page of passes, oldest first unless read `before` a cursor; or, asked for `text/csv`, every matching pass.',
        content: { 'application/json': { schema: pageOf('PassSummary') }, 'text/csv': { schema: { type: 'string' } } },
      },
      400: problemAnswer(
        'A bad cursor or `limit`, an unknown or repeated parameter, a `values.NAME` that is not a placeholder of the template, a bad `templateId` or `updatedSince`, or CSV without `templateId` (`invalid-query`, naming the parameter).',
      ),
      404: problemAnswer('CSV of a template that does not exist (`template-not-found`).'),
    },
    handler: async ({ request, url, caller }, { context, db }) => {
      const csv = wantsCsv(request.headers.get('accept'));
      const asked = readPassQuery(url, csv);
      const { page: query, escapeFormulas } = asked;
      const templateId = passTemplateFor(caller, asked.filter.templateId);
      const filter = templateId === undefined ? asked.filter : { ...asked.filter, templateId };
      const template = filter.templateId === undefined ? undefined : await store.findTemplate(db, filter.templateId);
      if (filter.templateId !== undefined && template !== undefined) {
        const placeholders = new Set(template.template.placeholder);
        for (const [name] of filter.values ?? []) {
          if (!placeholders.has(name)) {
            throw new ServiceProblem(400, 'invalid-query', `\`values.${name}\`: template ${filter.templateId} has no placeholder ${JSON.stringify(name)}.`);
          }
        }
      }
      if (csv) {
        if (template === undefined) throw new ServiceProblem(404, 'template-not-found', `No template ${filter.templateId} exists.`);
        return exportCsv({
          db,
          filter,
          after: query.cursor,
          placeholders: template.template.placeholder,
          escapeFormulas,
          links: (record) => passLinks(context, request, record),
        });
      }
      const items = await store.listPasses(db, query, filter);
      return json(
        page(
          items,
          query,
          (item) => item.seq,
          (item) => passSummary(context, request, item),
        ),
      );
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/passes/{type}/{serial}',
    auth: 'read',
    summary: 'Read a pass',
    responses: { 200: jsonAnswer(ref('Pass'), 'The pass with its values.'), 404: problemAnswer('No such pass.') },
    handler: async ({ request, params }, { context, db }) => json(passResource(context, request, await passOf(db, params.type, params.serial))),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/passes/{type}/{serial}',
    auth: 'passes',
    summary: 'Delete a pass',
    responses: { 204: emptyAnswer('Deleted.'), 404: problemAnswer('No such pass.') },
    handler: async ({ params }, { context, db }) => {
      const { type, serial } = params;
      const deleted = await db.transaction(async (tx) => {
        const gone = await store.deletePass(tx, type, serial);
        // Google keeps the holder's copy: the queue marks it no longer valid.
        if (gone) await owePassToGoogle(context, tx, type, serial);
        return gone;
      });
      if (!deleted) throw new ServiceProblem(404, 'pass-not-found', noPass(type, serial));
      if (context.google !== undefined) context.notify();
      return noContent();
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/passes/{type}/{serial}/values',
    auth: 'read',
    summary: "Read a pass's values",
    responses: { 200: jsonAnswer(ref('Values'), 'Placeholder name → value.'), 404: problemAnswer('No such pass.') },
    handler: async ({ params }, { db }) => json((await passOf(db, params.type, params.serial)).values),
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/passes/{type}/{serial}/values',
    auth: 'passes',
    // A pass's everyday change, not an administrator's: not in the audit log (docs/audit.md).
    audit: false,
    summary: "Change a pass's values",
    description: 'Renders the pass again; Wallet devices are told (APNs) and webhooks receive `pass.updated`.',
    body: jsonBody(ref('Values')),
    responses: {
      200: jsonAnswer(ref('Pass'), 'The changed pass.'),
      404: problemAnswer('No such pass.'),
      409: problemAnswer('The pass is voided: its values cannot change (`pass-voided`).'),
      422: problemAnswer('The values do not fit the template.'),
    },
    handler: async ({ request, params }, { context, builder, templates, commitEvents }) => {
      const values = valuesOf(await readJson(request, context.maxBodyBytes));
      let record: store.PassRecord | undefined;
      await commitEvents(async (tx) => {
        const current = await store.findPass(tx, params.type, params.serial, true);
        if (current === undefined) return;
        if (current.state === 'voided')
          throw new ServiceProblem(409, 'pass-voided', `The pass ${JSON.stringify(current.serialNumber)} is voided: its values cannot change.`);
        // The copy in memory when it is the version the pass's row was read with (no second query).
        const template = await templates.at(tx, current.templateId, current.templateVersion);
        if (template === undefined) throw new ServiceProblem(404, 'template-not-found', "The pass's template is gone.");
        // Serial number and token never change across updates (Wallet keeps them).
        const rendered = builder.build(request, template, values, {
          serialNumber: current.serialNumber,
          authenticationToken: current.pass.authenticationToken,
          // Without a public URL, not the origin this request came through (an internal name moved the pass's web service).
          webServiceURL: typeof current.pass.webServiceURL === 'string' ? current.pass.webServiceURL : undefined,
        });
        // An expired pass stays expired.
        const pass = keepState(rendered, current.state, current.pass);
        record = await store.updatePass(tx, values, pass);
        if (context.pushes) await store.queuePushes(tx, current.passTypeIdentifier, current.serialNumber);
        await owePassToGoogle(context, tx, current.passTypeIdentifier, current.serialNumber);
        // The two counters last (update tag, then event number): their rows are held until the commit, and every other update waits for them.
        await markPassUpdated(tx, current.passTypeIdentifier, current.serialNumber);
        await addEvents(tx, [createEvent('pass.updated', { serialNumber: current.serialNumber, passTypeIdentifier: current.passTypeIdentifier })]);
      });
      const updated = await found(record, 'pass-not-found', noPass(params.type, params.serial));
      return json(passResource(context, request, updated));
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/passes/{type}/{serial}/passjson',
    // The seed's handler checks the key itself.
    auth: { scope: 'read', checkedBy: 'handler' },
    summary: "The pass's pass.json",
    description: 'Unsigned, as rendered; with an API key.',
    responses: { 200: jsonAnswer(ref('PassJson'), 'pass.json.'), 404: problemAnswer('No such pass.') },
    handler: ({ request }, { seed }) => seed(request),
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/passes/{type}/{serial}/pkpass',
    auth: { scope: 'read', checkedBy: 'handler', or: 'pass-token' },
    summary: 'Download the signed .pkpass',
    description:
      "With an API key, or with `?token=` (the pass's own token: the link a phone opens). Rate limited per token and per address when opened by token.",
    query: [passToken],
    responses: {
      200: bytesAnswer('application/vnd.apple.pkpass', 'The signed pass.', { type: 'string', contentMediaType: 'application/vnd.apple.pkpass' }),
      404: problemAnswer('No such pass.'),
      409: problemAnswer('The service has no signing certificate (`signing-not-configured`).'),
      429: problemAnswer('Too many downloads; `Retry-After` says when to try again.'),
    },
    handler: async ({ request, params, url }, { context, db, guard, pack, eventBatch }) => {
      const token = url.searchParams.get('token');
      // A link opened by anyone: rates per address and per token, before any work (an API key's call is not limited).
      if (token !== null) guard.admit(request, token);
      const record = await store.findPass(db, params.type, params.serial);
      // The pass's own token opens its download link (what a phone has); otherwise the API key.
      const byToken = token !== null && record?.pass.authenticationToken !== undefined && sameSecret(token, record.pass.authenticationToken);
      if (!byToken && !(await context.authenticate(request))) {
        throw new ServiceProblem(401, token === null ? 'missing-credentials' : 'invalid-credentials', "Send an API key, or open the pass's download link.", {
          headers: { 'www-authenticate': 'Bearer' },
        });
      }
      const pass = await found(record, 'pass-not-found', noPass(params.type, params.serial));
      const bytes = await pack(pass);
      // The same version fetched again by the same client (address and token, or API key) within the window adds no event.
      const client = `${guard.addressOf(request) ?? ''}\u0000${byToken ? token : 'api-key'}`;
      if (!guard.repeats.repeated(`${pass.passTypeIdentifier}\u0000${pass.serialNumber}\u0000${pass.version}\u0000${client}`)) {
        // A download changes nothing: its event is written in the background with others', not awaited
        // (see createEventBatch for what that trades).
        eventBatch.add(createEvent('pass.downloaded', { serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier }));
      }
      return new BytesResponse(bytes, {
        status: 200,
        headers: { ...pkpassHeaders(`${safeName(pass.serialNumber)}.pkpass`), 'last-modified': pass.updated.toUTCString() },
      });
    },
  }),
];

/** A file name for Content-Disposition: the serial number's safe characters. */
function safeName(serialNumber: string): string {
  const name = serialNumber.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
  return name === '' ? 'pass' : name;
}
