import { PackError } from '../pkpass/pack-error.js';
import { prepareFiles } from '../pkpass/prepare.js';
import { createEvent } from '../webhooks/event.js';
import { isObject, readBody, readJson } from './body.js';
import { baseUrl } from './context.js';
import { type Kit, json, noContent } from './kit.js';
import { oweClassToGoogle, owePassToGoogle } from './google-queue.js';
import { addEvents } from './outbox.js';
import { ServiceProblem } from './problem.js';
import { page, readPage } from './query.js';
import type { Route } from './router.js';
import * as store from './store.js';
import { isForeignKeyViolation } from './store-templates.js';

const MAX_SERIAL = 256;

/** Templates, their files, and passes made from them. */
export function templateRoutes(kit: Kit): Route[] {
  const { context, db, builder, seed, commitEvents, templateOf, checkedTemplate, valuesOf, passLinks, passResource } = kit;
  return [
    {
      pattern: '/v1/templates',
      methods: {
        GET: async ({ url }) => {
          const { limit, cursor } = readPage(url, 'after');
          const items = await store.listTemplates(db, cursor ?? 0, limit);
          return json(page(items, limit, (item) => item.template.id, (item) => item.template));
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
          try {
            await prepareFiles({ [path]: bytes });
          } catch (error) {
            if (error instanceof PackError) throw new ServiceProblem(422, 'invalid-file', error.message, { issues: error.issues });
            throw error;
          }
          let stored = false;
          await commitEvents(async (tx) => {
            stored = await store.putTemplateFile(tx, record.template.id, path, bytes);
            if (stored) await oweClassToGoogle(context, tx, record.template.id);
          });
          if (!stored) throw new ServiceProblem(404, 'template-not-found', 'The template was deleted meanwhile.');
          return json({ path, size: bytes.byteLength }, 201);
        },
        DELETE: async ({ params }) => {
          const record = await templateOf(params[0]!);
          const path = params.slice(1).join('/');
          let deleted = false;
          await commitEvents(async (tx) => {
            deleted = await store.deleteTemplateFile(tx, record.template.id, path);
            if (deleted) await oweClassToGoogle(context, tx, record.template.id);
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
          const template = await templateOf(params[0]!);
          const body = await readJson(request, context.maxBodyBytes);
          if (!isObject(body)) throw new ServiceProblem(422, 'invalid-body', 'Send { "values": { … } }, and optionally a "serialNumber".');
          const serialNumber = body['serialNumber'];
          if (serialNumber !== undefined && (typeof serialNumber !== 'string' || serialNumber.length === 0 || serialNumber.length > MAX_SERIAL || /[\u0000-\u001f\u007f]/.test(serialNumber))) {
            throw new ServiceProblem(422, 'invalid-body', `"serialNumber" is a string of 1 to ${MAX_SERIAL} characters without control characters.`);
          }
          const values = valuesOf(body['values'] ?? {});
          const pass = builder.build(request, template, values, { serialNumber });
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
          return json(passResource(request, record), 201, { location: passLinks(request, record)['self']! });
        },
      },
    },
  ];
}
