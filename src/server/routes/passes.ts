import { pkpassHeaders } from '../../pkpass/mime.js';
import { createEvent } from '../../webhooks/event.js';
import { readJson } from '../http/body.js';
import { BytesResponse } from '../http/bytes-response.js';
import { type Kit, json, noContent } from './kit.js';
import { owePassToGoogle } from '../db/google-sync.js';
import { addEvents } from '../db/outbox.js';
import { ServiceProblem } from '../http/problem.js';
import { page, readPage, templateIdOf } from '../http/paging.js';
import type { Route } from '../http/router.js';
import { sameSecret } from '../http/same-secret.js';
import * as store from '../db/store.js';
import { markPassUpdated } from '../db/devices.js';

/** Passes: list, read, change values, the seed's passjson, the signed download, delete. */
export function passRoutes(kit: Kit): Route[] {
  const { context, db, builder, guard, seed, eventBatch, commitEvents, pack, passOf, templateAt, valuesOf, passSummary, passResource } = kit;
  return [
    {
      pattern: '/v1/passes',
      methods: {
        GET: async ({ request, url }) => {
          const query = readPage(url, 'after');
          const templateText = url.searchParams.get('templateId');
          const templateId = templateText === null ? undefined : templateIdOf(templateText);
          if (templateText !== null && templateId === undefined) throw new ServiceProblem(400, 'invalid-query', '`templateId` must be a template id.');
          const items = await store.listPasses(db, query, templateId);
          return json(page(items, query, (item) => item.seq, (item) => passSummary(request, item)));
        },
      },
    },
    {
      pattern: '/v1/passes/:type/:serial',
      methods: {
        GET: async ({ request, params }) => json(passResource(request, await passOf(params[0]!, params[1]!))),
        DELETE: async ({ params }) => {
          const deleted = await db.transaction(async (tx) => {
            const found = await store.deletePass(tx, params[0]!, params[1]!);
            // Google keeps the holder's copy: the queue marks it no longer valid.
            if (found) await owePassToGoogle(context, tx, params[0]!, params[1]!);
            return found;
          });
          if (!deleted) await passOf(params[0]!, params[1]!);
          if (context.google !== undefined) context.notify();
          return noContent();
        },
      },
    },
    {
      pattern: '/v1/passes/:type/:serial/values',
      methods: {
        GET: async ({ params }) => json((await passOf(params[0]!, params[1]!)).values),
        PUT: async ({ request, params }) => {
          const values = valuesOf(await readJson(request, context.maxBodyBytes));
          let record: store.PassRecord | undefined;
          await commitEvents(async (tx) => {
            const current = await store.findPass(tx, params[0]!, params[1]!, true);
            if (current === undefined) return;
            // The copy in memory when it is the version the pass's row was read with (no second query).
            const template = await templateAt(tx, current.templateId, current.templateVersion);
            if (template === undefined) throw new ServiceProblem(404, 'template-not-found', 'The pass\'s template is gone.');
            // Serial number and token never change across updates (Wallet keeps them).
            const pass = builder.build(request, template, values, {
              serialNumber: current.serialNumber,
              authenticationToken: current.pass.authenticationToken,
              // Without a public URL, not the origin this request came through (an internal name moved the pass's web service).
              webServiceURL: typeof current.pass.webServiceURL === 'string' ? current.pass.webServiceURL : undefined,
            });
            record = await store.updatePass(tx, values, pass);
            if (context.pushes) await store.queuePushes(tx, current.passTypeIdentifier, current.serialNumber);
            await owePassToGoogle(context, tx, current.passTypeIdentifier, current.serialNumber);
            // The two counters last (update tag, then event number): their rows are held until the commit, and every other update waits for them.
            await markPassUpdated(tx, current.passTypeIdentifier, current.serialNumber);
            await addEvents(tx, [createEvent('pass.updated', { serialNumber: current.serialNumber, passTypeIdentifier: current.passTypeIdentifier })]);
          });
          if (record === undefined) await passOf(params[0]!, params[1]!);
          return json(passResource(request, record!));
        },
      },
    },
    {
      pattern: '/v1/passes/:type/:serial/passjson',
      methods: { GET: ({ request }) => seed(request), HEAD: ({ request }) => seed(request) },
      public: ['GET', 'HEAD'],
    },
    {
      pattern: '/v1/passes/:type/:serial/pkpass',
      methods: {
        GET: async ({ request, params, url }) => {
          const token = url.searchParams.get('token');
          // A link opened by anyone: rates per address and per token, before any work (an API key's call is not limited).
          if (token !== null) guard.admit(request, token);
          const record = await store.findPass(db, params[0]!, params[1]!);
          // The pass's own token opens its download link (what a phone has); otherwise the API key.
          const byToken = token !== null && record?.pass.authenticationToken !== undefined && sameSecret(token, record.pass.authenticationToken);
          if (!byToken && !(await context.authenticate(request))) {
            throw new ServiceProblem(401, token === null ? 'missing-credentials' : 'invalid-credentials', 'Send an API key, or open the pass\'s download link.', {
              headers: { 'www-authenticate': 'Bearer' },
            });
          }
          if (record === undefined) await passOf(params[0]!, params[1]!);
          const bytes = await pack(record!);
          // The same version fetched again by the same client (address and token, or API key) within the window adds no event.
          const client = `${guard.addressOf(request) ?? ''}\u0000${byToken ? token : 'api-key'}`;
          if (!guard.repeats.repeated(`${record!.passTypeIdentifier}\u0000${record!.serialNumber}\u0000${record!.version}\u0000${client}`)) {
            // A download changes nothing: its event is written in the background with others', not awaited
            // (see createEventBatch for what that trades).
            eventBatch.add(createEvent('pass.downloaded', { serialNumber: record!.serialNumber, passTypeIdentifier: record!.passTypeIdentifier }));
          }
          return new BytesResponse(bytes, { status: 200, headers: { ...pkpassHeaders(`${safeName(record!.serialNumber)}.pkpass`), 'last-modified': record!.updated.toUTCString() } });
        },
      },
      public: ['GET'],
    },
  ];
}

/** A file name for Content-Disposition: the serial number's safe characters. */
function safeName(serialNumber: string): string {
  const name = serialNumber.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
  return name === '' ? 'pass' : name;
}
