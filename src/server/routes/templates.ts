import type { Pass } from '../../types.js';
import { createEvent } from '../../webhooks/event.js';
import { fileIssues } from '../build/prepare-queue.js';
import { oweClassToGoogle, owePassToGoogle, oweTemplateFilesToGoogle } from '../db/google-sync.js';
import { addEvents } from '../db/outbox.js';
import * as store from '../db/store.js';
import { isForeignKeyViolation } from '../db/templates.js';
import { isObject, readBody, readJson } from '../http/body.js';
import { page, readPage } from '../http/paging.js';
import { ServiceProblem } from '../../http/problem.js';
import { serialNumberProblem } from '../http/serial-number.js';
import { baseUrl } from './context.js';
import { defineRoute, type Route } from './define.js';
import { badPage, emptyAnswer, jsonAnswer, jsonBody, location, paging, problemAnswer } from './docs.js';
import { checkedTemplate, valuesOf } from './inputs.js';
import { found, templateOf } from './lookups.js';
import { passLinks, passResource } from './resources.js';
import { json, noContent } from './responses.js';
import { object, page as pageOf, ref } from './schemas.js';
import { templateAnswer } from './signing-warnings.js';
import { checkPassTypeChange, limitedTemplates } from './template-access.js';

/** Templates, their files, and passes made from them. */
export const templateRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/templates',
    auth: 'read',
    // A key limited to templates lists only those.
    templates: 'filtered',
    summary: 'List templates',
    query: paging,
    responses: { 200: jsonAnswer(pageOf('Template'), 'A page of templates, oldest first unless read `before` a cursor.'), 400: badPage },
    handler: async ({ url, caller }, { db }) => {
      const query = readPage(url, 'after');
      const limited = caller?.templateIds ?? null;
      const items = limited === null ? await store.listTemplates(db, query) : await limitedTemplates(limited, query, (id) => store.findTemplate(db, id));
      return json(
        page(
          items,
          query,
          (item) => item.template.id,
          (item) => item.template,
        ),
      );
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/templates',
    auth: 'admin',
    summary: 'Create a template',
    body: jsonBody(ref('TemplateInput')),
    responses: {
      201: jsonAnswer(ref('TemplateAnswer'), 'The template, with its new id, and `warnings` when its passes cannot be signed here.', location),
      422: problemAnswer('The template has errors (`invalid-template`, with `issues`).'),
    },
    handler: async ({ request, caller }, { context, db }) => {
      const body = await readJson(request, context.maxBodyBytes);
      // Checked with a stand-in id first, so a refused template takes no id.
      checkedTemplate(body, 1);
      const id = await store.nextTemplateId(db);
      const record = await db.transaction(async (tx) => {
        await store.changedBy(tx, caller?.id);
        return store.insertTemplate(tx, checkedTemplate(body, id));
      });
      return json(templateAnswer(context, record.template), 201, { location: `${baseUrl(context, request)}/v1/templates/${id}` });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/templates/{id}',
    // The seed's handler checks the key itself.
    auth: { scope: 'read', checkedBy: 'handler' },
    summary: 'Read a template',
    responses: { 200: jsonAnswer(ref('Template'), 'The template.'), 404: problemAnswer('No such template.') },
    handler: ({ request }, { seed }) => seed(request),
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/templates/{id}',
    auth: 'admin',
    summary: 'Replace a template',
    body: jsonBody(ref('TemplateInput')),
    responses: {
      200: jsonAnswer(ref('TemplateAnswer'), 'The template as stored, and `warnings` when its passes cannot be signed here.'),
      403: problemAnswer(
        'A key limited to templates giving the template a pass type none of its templates has (`insufficient-scope`), or a key without the `admin` scope.',
      ),
      404: problemAnswer('No such template.'),
      422: problemAnswer('The template has errors.'),
    },
    handler: async ({ request, params, caller }, { context, db, commitEvents }) => {
      const current = await templateOf(db, params.id);
      const template = checkedTemplate(await readJson(request, context.maxBodyBytes), current.template.id);
      // A key limited to templates keeps to its own pass types (another is another program's certificate).
      await checkPassTypeChange(caller, current.template.passType, template.passType, db);
      let record: store.TemplateRecord | undefined;
      await commitEvents(async (tx) => {
        await store.changedBy(tx, caller?.id);
        record = await store.updateTemplate(tx, template);
        if (record !== undefined) await oweClassToGoogle(context, tx, record.template.id);
      });
      const updated = await found(record, 'template-not-found', 'The template was deleted meanwhile.');
      return json(templateAnswer(context, updated.template));
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/templates/{id}',
    auth: 'admin',
    summary: 'Delete a template',
    responses: { 204: emptyAnswer('Deleted.'), 404: problemAnswer('No such template.'), 409: problemAnswer('Passes were made from it (`template-in-use`).') },
    handler: async ({ params }, { db }) => {
      const current = await templateOf(db, params.id);
      const result = await store.deleteTemplate(db, current.template.id);
      if (result === 'in-use') throw new ServiceProblem(409, 'template-in-use', 'Passes were made from this template; delete them first.');
      return noContent();
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/templates/{id}/files',
    auth: 'read',
    summary: "List a template's files",
    responses: {
      200: jsonAnswer(object({ items: { type: 'array', items: ref('FileInfo') } }), "Each file's path and size."),
      404: problemAnswer('No such template.'),
    },
    handler: async ({ params }, { db }) => {
      const record = await templateOf(db, params.id);
      return json({ items: await store.templateFileSizes(db, record.template.id) });
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/templates/{id}/files/{path+}',
    auth: 'admin',
    summary: 'Add or replace a template file',
    description: "The body is the file's bytes (an image, a `.strings` file). Nested paths keep their `/`.",
    body: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
    responses: {
      201: jsonAnswer(ref('FileInfo'), 'Stored.'),
      404: problemAnswer('No such template.'),
      413: problemAnswer('The file is larger than the limit.'),
      422: problemAnswer('Not a file a pass may hold (`invalid-file`), or a PNG declaring more pixels than passmint signs (`image-too-large`).'),
    },
    handler: async ({ request, params, caller }, { context, db, commitEvents }) => {
      const record = await templateOf(db, params.id);
      const { path } = params;
      const bytes = await readBody(request, context.maxFileBytes);
      // Checked (path, PNG, strings), not compressed: that is done once per template version, off the hot path.
      const issues = await fileIssues(path, bytes);
      // A PNG declaring more pixels than passmint signs (a dimension bomb): its own code, the issue's message naming the file and the limit.
      const tooLarge = issues.find((issue) => issue.code === 'image-too-large');
      if (tooLarge !== undefined) throw new ServiceProblem(422, 'image-too-large', `${tooLarge.message}. Nothing was stored.`, { issues });
      if (issues.some((issue) => issue.severity === 'error')) throw new ServiceProblem(422, 'invalid-file', 'The file cannot be packed.', { issues });
      const { maxTemplateFiles: maxFiles, maxTemplateBytes: maxBytes } = context.limits;
      let outcome: Awaited<ReturnType<typeof store.putTemplateFile>> = 'template-missing';
      await commitEvents(async (tx) => {
        await store.changedBy(tx, caller?.id);
        outcome = await store.putTemplateFile(tx, record.template.id, path, bytes, { maxFiles, maxBytes });
        if (outcome === 'stored') await oweTemplateFilesToGoogle(context, tx, record.template.id);
        // Refused: nothing of this transaction stays (the version bump goes too).
        else if (outcome !== 'template-missing') throw bundleLimitProblem(outcome, maxFiles, maxBytes);
      });
      if (outcome === 'template-missing') throw new ServiceProblem(404, 'template-not-found', 'The template was deleted meanwhile.');
      return json({ path, size: bytes.byteLength }, 201);
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/v1/templates/{id}/files/{path+}',
    auth: 'admin',
    summary: 'Delete a template file',
    responses: { 204: emptyAnswer('Deleted.'), 404: problemAnswer('No such template or file.') },
    handler: async ({ params, caller }, { db, context, commitEvents }) => {
      const record = await templateOf(db, params.id);
      const { path } = params;
      let deleted = false;
      await commitEvents(async (tx) => {
        await store.changedBy(tx, caller?.id);
        deleted = await store.deleteTemplateFile(tx, record.template.id, path);
        if (deleted) await oweTemplateFilesToGoogle(context, tx, record.template.id);
      });
      if (!deleted) throw new ServiceProblem(404, 'file-not-found', `The template has no file ${JSON.stringify(path)}.`);
      return noContent();
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/templates/{id}/passes',
    auth: 'passes',
    // A pass's everyday change, not an administrator's: not in the audit log (docs/audit.md).
    audit: false,
    summary: 'Create a pass from a template',
    body: jsonBody(ref('NewPass')),
    responses: {
      201: jsonAnswer(ref('Pass'), 'The pass, with its links.', location),
      404: problemAnswer('No such template.'),
      409: problemAnswer('A pass with this serial number exists (`pass-exists`).'),
      422: problemAnswer('The values do not fit the template (`invalid-values`, `invalid-pass`, with `issues`).'),
    },
    handler: async ({ request, params }, { context, builder, templates, passBatch, commitEvents }) => {
      let template = await templates.cached(params.id);
      const body = await readJson(request, context.maxBodyBytes);
      if (!isObject(body)) throw new ServiceProblem(422, 'invalid-body', 'Send { "values": { … } }, and optionally a "serialNumber".');
      // One check for a create and an import's record (http/serial-number.ts).
      const serialProblem = serialNumberProblem(body['serialNumber']);
      if (serialProblem !== undefined) throw serialProblem;
      const serialNumber = body['serialNumber'] as string | undefined;
      const values = valuesOf(body['values'] ?? {});
      let pass: Pass;
      try {
        pass = builder.build(request, template, values, { serialNumber });
      } catch (error) {
        // What the copy in memory refuses is checked again against the stored template.
        if (!(error instanceof ServiceProblem)) throw error;
        template = await templates.fresh(params.id);
        pass = builder.build(request, template, values, { serialNumber });
      }
      // Many creates share one statement and one commit; Google's queue is written the one-by-one way.
      const event = createEvent('pass.created', { serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier });
      const batched =
        context.google === undefined
          ? await passBatch.insert({ templateId: template.template.id, templateVersion: template.version, values, pass, event })
          : undefined;
      if (batched !== undefined) return json(passResource(context, request, batched), 201, { location: passLinks(context, request, batched).self });
      // Not inserted there: the template changed or went since it was read, or the serial number is taken.
      const fresh = await templates.fresh(params.id);
      if (fresh.version !== template.version) pass = builder.build(request, (template = fresh), values, { serialNumber });
      let record: store.PassRecord | undefined;
      try {
        await commitEvents(async (tx) => {
          record = await store.insertPass(tx, template.template.id, values, pass);
          if (record === undefined) return;
          await owePassToGoogle(context, tx, pass.passTypeIdentifier, pass.serialNumber);
          await addEvents(tx, [createEvent('pass.created', { serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier })]);
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) throw new ServiceProblem(404, 'template-not-found', 'The template was deleted meanwhile.');
        throw error;
      }
      if (record === undefined) throw new ServiceProblem(409, 'pass-exists', `A pass ${JSON.stringify(pass.serialNumber)} of this type exists.`);
      return json(passResource(context, request, record), 201, { location: passLinks(context, request, record).self });
    },
  }),
];

/** The problem for an upload past a template's file count (422) or total size (413), naming the limit. */
function bundleLimitProblem(outcome: 'too-many-files' | 'bundle-too-large', maxFiles: number, maxBytes: number): ServiceProblem {
  return outcome === 'too-many-files'
    ? new ServiceProblem(422, 'too-many-files', `A template has at most ${maxFiles} files (limit maxTemplateFiles); delete one before adding another.`)
    : new ServiceProblem(
        413,
        'bundle-too-large',
        `A template's files are at most ${maxBytes} bytes together (limit maxTemplateBytes); this file would pass that.`,
      );
}
