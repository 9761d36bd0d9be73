import type { Pass } from '../../types.js';
import { createEvent } from '../../webhooks/event.js';
import { isObject, readBody, readJson } from '../http/body.js';
import { baseUrl } from '../context.js';
import { type Kit, json, noContent } from './kit.js';
import { oweClassToGoogle, owePassToGoogle, oweTemplateFilesToGoogle } from '../db/google-sync.js';
import { addEvents } from '../db/outbox.js';
import { fileIssues } from '../build/prepare-queue.js';
import { ServiceProblem } from '../http/problem.js';
import { page, readPage } from '../http/paging.js';
import type { Route } from '../http/router.js';
import * as store from '../db/store.js';
import { isForeignKeyViolation } from '../db/templates.js';

const MAX_SERIAL = 256;

/** Templates, their files, and passes made from them. */
export function templateRoutes(kit: Kit): Route[] {
  const { context, db, builder, seed, commitEvents, templateOf, cachedTemplateOf, freshTemplateOf, passBatch, checkedTemplate, valuesOf, passLinks, passResource } = kit;
  return [
    {
      pattern: '/v1/templates',
      methods: {
        GET: async ({ url }) => {
          const query = readPage(url, 'after');
          const items = await store.listTemplates(db, query);
          return json(page(items, query, (item) => item.template.id, (item) => item.template));
        },
        POST: async ({ request }) => {
          const body = await readJson(request, context.maxBodyBytes);
          // Checked with a stand-in id first, so a refused template takes no id.
          checkedTemplate(body, 1);
          const id = await store.nextTemplateId(db);
          const record = await store.insertTemplate(db, checkedTemplate(body, id));
          return json(record.template, 201, { location: `${baseUrl(context, request)}/v1/templates/${id}` });
        },
      },
    },
    {
      pattern: '/v1/templates/:id',
      methods: {
        GET: ({ request }) => seed(request),
        HEAD: ({ request }) => seed(request),
        PUT: async ({ request, params }) => {
          const current = await templateOf(params[0]!);
          const template = checkedTemplate(await readJson(request, context.maxBodyBytes), current.template.id);
          let record: store.TemplateRecord | undefined;
          await commitEvents(async (tx) => {
            record = await store.updateTemplate(tx, template);
            if (record !== undefined) await oweClassToGoogle(context, tx, record.template.id);
          });
          if (record === undefined) throw new ServiceProblem(404, 'template-not-found', 'The template was deleted meanwhile.');
          return json(record.template);
        },
        DELETE: async ({ params }) => {
          const current = await templateOf(params[0]!);
          const result = await store.deleteTemplate(db, current.template.id);
          if (result === 'in-use') throw new ServiceProblem(409, 'template-in-use', 'Passes were made from this template; delete them first.');
          return noContent();
        },
      },
      public: ['GET', 'HEAD'], // the seed's handler checks the key itself
    },
    {
      pattern: '/v1/templates/:id/files',
      methods: {
        GET: async ({ params }) => {
          const record = await templateOf(params[0]!);
          return json({ items: await store.templateFileSizes(db, record.template.id) });
        },
      },
    },
    {
      pattern: '/v1/templates/:id/files/*',
      methods: {
        PUT: async ({ request, params }) => {
          const record = await templateOf(params[0]!);
          const path = params.slice(1).join('/');
          const bytes = await readBody(request, context.maxFileBytes);
          // Checked (path, PNG, strings), not compressed: that is done once per template version, off the hot path.
          const issues = await fileIssues(path, bytes);
          if (issues.some((issue) => issue.severity === 'error')) throw new ServiceProblem(422, 'invalid-file', 'The file cannot be packed.', { issues });
          const { maxTemplateFiles: maxFiles, maxTemplateBytes: maxBytes } = context.limits;
          let outcome: Awaited<ReturnType<typeof store.putTemplateFile>> = 'template-missing';
          await commitEvents(async (tx) => {
            outcome = await store.putTemplateFile(tx, record.template.id, path, bytes, { maxFiles, maxBytes });
            if (outcome === 'stored') await oweTemplateFilesToGoogle(context, tx, record.template.id);
            // Refused: nothing of this transaction stays (the version bump goes too).
            else if (outcome !== 'template-missing') throw bundleLimitProblem(outcome, maxFiles, maxBytes);
          });
          if (outcome === 'template-missing') throw new ServiceProblem(404, 'template-not-found', 'The template was deleted meanwhile.');
          return json({ path, size: bytes.byteLength }, 201);
        },
        DELETE: async ({ params }) => {
          const record = await templateOf(params[0]!);
          const path = params.slice(1).join('/');
          let deleted = false;
          await commitEvents(async (tx) => {
            deleted = await store.deleteTemplateFile(tx, record.template.id, path);
            if (deleted) await oweTemplateFilesToGoogle(context, tx, record.template.id);
          });
          if (!deleted) throw new ServiceProblem(404, 'file-not-found', `The template has no file ${JSON.stringify(path)}.`);
          return noContent();
        },
      },
    },
    {
      pattern: '/v1/templates/:id/passes',
      methods: {
        POST: async ({ request, params }) => {
          let template = await cachedTemplateOf(params[0]!);
          const body = await readJson(request, context.maxBodyBytes);
          if (!isObject(body)) throw new ServiceProblem(422, 'invalid-body', 'Send { "values": { … } }, and optionally a "serialNumber".');
          const serialNumber = body['serialNumber'];
          if (serialNumber !== undefined && (typeof serialNumber !== 'string' || serialNumber.length === 0 || serialNumber.length > MAX_SERIAL || /[\u0000-\u001f\u007f]/.test(serialNumber))) {
            throw new ServiceProblem(422, 'invalid-body', `"serialNumber" is a string of 1 to ${MAX_SERIAL} characters without control characters.`);
          }
          // A lone surrogate has no UTF-8: stored, it became U+FFFD, and the serial changed at the first update.
          if (typeof serialNumber === 'string' && /\p{Cs}/u.test(serialNumber)) {
            const message = '"serialNumber" has a lone surrogate (half of a UTF-16 pair), which no URL or database can keep';
            throw new ServiceProblem(422, 'invalid-body', `${message}.`, { issues: [{ severity: 'error', code: 'unsafe-serial-number', message, path: '/serialNumber' }] });
          }
          const values = valuesOf(body['values'] ?? {});
          let pass: Pass;
          try {
            pass = builder.build(request, template, values, { serialNumber });
          } catch (error) {
            // What the copy in memory refuses is checked again against the stored template.
            if (!(error instanceof ServiceProblem)) throw error;
            template = await freshTemplateOf(params[0]!);
            pass = builder.build(request, template, values, { serialNumber });
          }
          // Many creates share one statement and one commit; Google's queue is written the one-by-one way.
          const event = createEvent('pass.created', { serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier });
          let record = context.google === undefined ? await passBatch.insert({ templateId: template.template.id, templateVersion: template.version, values, pass, event }) : undefined;
          if (record !== undefined) return json(passResource(request, record), 201, { location: passLinks(request, record)['self']! });
          // Not inserted there: the template changed or went since it was read, or the serial number is taken.
          const fresh = await freshTemplateOf(params[0]!);
          if (fresh.version !== template.version) pass = builder.build(request, (template = fresh), values, { serialNumber });
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
          return json(passResource(request, record), 201, { location: passLinks(request, record)['self']! });
        },
      },
    },
  ];
}

/** The problem for an upload past a template's file count (422) or total size (413), naming the limit. */
function bundleLimitProblem(outcome: 'too-many-files' | 'bundle-too-large', maxFiles: number, maxBytes: number): ServiceProblem {
  return outcome === 'too-many-files'
    ? new ServiceProblem(422, 'too-many-files', `A template has at most ${maxFiles} files (limit maxTemplateFiles); delete one before adding another.`)
    : new ServiceProblem(413, 'bundle-too-large', `A template's files are at most ${maxBytes} bytes together (limit maxTemplateBytes); this file would pass that.`);
}
