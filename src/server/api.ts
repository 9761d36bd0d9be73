import { timingSafeEqual } from 'node:crypto';
import { createPassHandler } from '../http/handler.js';
import { PackError } from '../pkpass/pack-error.js';
import { packPass } from '../pkpass/pack.js';
import { pkpassHeaders } from '../pkpass/mime.js';
import { prepareFiles } from '../pkpass/prepare.js';
import { validateTemplate } from '../template/validate.js';
import type { JsonObject, PassTemplate } from '../types.js';
import { createWalletHandler } from '../wallet/handler.js';
import { checkWebhookUrl } from '../webhooks/check-webhook-url.js';
import { createEvent } from '../webhooks/event.js';
import { verifyEndpoint } from '../webhooks/handshake.js';
import { generateWebhookSecret } from '../webhooks/secret.js';
import { WebhookError } from '../webhooks/webhook-error.js';
import { isObject, readBody, readJson } from './body.js';
import { baseUrl, type ServiceContext } from './context.js';
import { addEvents } from './outbox.js';
import { createPassBuilder } from './pass-builder.js';
import { ServiceProblem, problemResponse } from './problem.js';
import { isUuid, page, readPage, templateIdOf } from './query.js';
import { createRouter, type Route, type RouteCall } from './router.js';
import * as store from './store.js';
import { createSqlWalletStore, markPassUpdated } from './wallet-store.js';

const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers } });

const noContent = (): Response => new Response(null, { status: 204 });

const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

const MAX_SERIAL = 256;

/**
 * The service's Fetch handler: the API under `/v1/`, the seed's two GETs,
 * and Apple's web service under `/wallet/`. Every answer to a client's
 * mistake is an RFC 9457 problem; a 500 shows nothing of the error.
 */
export function createServiceHandler(context: ServiceContext): (request: Request) => Promise<Response> {
  const { db } = context;
  const builder = createPassBuilder(context);

  const commitEvents = async (work: (tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) => Promise<void>): Promise<void> => {
    await db.transaction(work);
    context.notify();
  };

  const seed = createPassHandler({
    authenticate: context.authenticate,
    findPass: async (passTypeIdentifier, serialNumber) => (await store.findPass(db, passTypeIdentifier, serialNumber))?.pass,
    findTemplate: async (id) => (id <= 2_147_483_647 ? (await store.findTemplate(db, id))?.template : undefined),
    onError: context.onError,
  });

  const pack = async (record: store.PassRecord): Promise<Uint8Array> => {
    const signer = context.signer;
    if (signer === undefined) {
      throw new ServiceProblem(409, 'signing-not-configured', 'The service has no pass signing certificate (start it with --cert, --key and --wwdr).');
    }
    const template = await store.findTemplate(db, record.templateId);
    if (template === undefined) throw new ServiceProblem(404, 'template-not-found', 'The pass\'s template is gone.');
    try {
      return await packPass(record.pass, await builder.files(template), signer, { allowHttp: record.pass.webServiceURL?.startsWith('http:') === true });
    } catch (error) {
      if (error instanceof PackError) throw new ServiceProblem(422, 'cannot-pack', error.message, { issues: error.issues });
      throw error;
    }
  };

  const wallet = createWalletHandler({
    store: createSqlWalletStore(db),
    basePath: '/wallet',
    findPass: async (passTypeIdentifier, serialNumber) => {
      const record = await store.findPass(db, passTypeIdentifier, serialNumber);
      if (record === undefined || record.pass.authenticationToken === undefined) return undefined;
      return { authenticationToken: record.pass.authenticationToken, lastModified: record.updated, pkpass: () => pack(record) };
    },
    onEvent: (event) => commitEvents((tx) => addEvents(tx, [event])),
    onError: context.onError,
  });

  // --- helpers -------------------------------------------------------------
  const templateOf = async (text: string): Promise<store.TemplateRecord> => {
    const id = templateIdOf(text);
    const record = id === undefined ? undefined : await store.findTemplate(db, id);
    if (record === undefined) throw new ServiceProblem(404, 'template-not-found', `No template ${JSON.stringify(text)} exists.`);
    return record;
  };

  const passOf = async (passTypeIdentifier: string, serialNumber: string): Promise<store.PassRecord> => {
    const record = await store.findPass(db, passTypeIdentifier, serialNumber);
    if (record === undefined) throw new ServiceProblem(404, 'pass-not-found', `No pass ${JSON.stringify(serialNumber)} of type ${JSON.stringify(passTypeIdentifier)} exists.`);
    return record;
  };

  const webhookOf = async (id: string): Promise<store.WebhookRecord> => {
    const record = isUuid(id) ? await store.findWebhook(db, id) : undefined;
    if (record === undefined) throw new ServiceProblem(404, 'webhook-not-found', `No webhook registration ${JSON.stringify(id)} exists.`);
    return record;
  };

  const eventOf = async (id: string): Promise<store.EventRecord> => {
    const record = isUuid(id) ? await store.findEvent(db, id) : undefined;
    if (record === undefined) throw new ServiceProblem(404, 'event-not-found', `No event ${JSON.stringify(id)} exists.`);
    return record;
  };

  const checkedTemplate = (body: unknown, id: number): PassTemplate => {
    if (!isObject(body)) throw new ServiceProblem(422, 'invalid-template', 'A template is a JSON object.');
    const template = { ...body, id };
    const report = validateTemplate(template);
    if (!report.ok) throw new ServiceProblem(422, 'invalid-template', 'The template has errors.', { issues: report.issues });
    // The pass type becomes a key column: PostgreSQL text holds no NUL, and no identifier needs a control character.
    if (/[\u0000-\u001f\u007f]/.test(String(body['passType']))) {
      throw new ServiceProblem(422, 'invalid-template', 'The template has errors.', {
        issues: [{ severity: 'error', code: 'invalid-template', message: '`passType` must not contain control characters', path: '/passType' }],
      });
    }
    return template as unknown as PassTemplate;
  };

  const valuesOf = (body: unknown): JsonObject => {
    if (!isObject(body)) throw new ServiceProblem(422, 'invalid-values', 'Values are a JSON object: placeholder name → value.');
    return body as JsonObject;
  };

  const passLinks = (request: Request, record: store.PassRecord): Record<string, string> => {
    const base = `${baseUrl(context, request)}/v1/passes/${encodeURIComponent(record.passTypeIdentifier)}/${encodeURIComponent(record.serialNumber)}`;
    const token = record.pass.authenticationToken;
    return {
      self: base,
      passjson: `${base}/passjson`,
      // A link a phone can open: the pass's own token stands in for the API key.
      pkpass: `${base}/pkpass${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`,
    };
  };

  const passSummary = (request: Request, record: store.PassRecord) => ({
    passTypeIdentifier: record.passTypeIdentifier,
    serialNumber: record.serialNumber,
    templateId: record.templateId,
    version: record.version,
    created: iso(record.created),
    updated: iso(record.updated),
    links: passLinks(request, record),
  });

  const passResource = (request: Request, record: store.PassRecord) => ({ ...passSummary(request, record), values: record.values });

  const webhookResource = (record: store.WebhookRecord) => ({
    id: record.id,
    url: record.url,
    state: record.state,
    stateReason: record.stateReason,
    secret: record.secret,
    created: iso(record.created),
    updated: iso(record.updated),
  });

  const deliveryResource = (delivery: store.DeliveryRecord) => ({
    id: String(delivery.id),
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    webhookId: delivery.webhookId,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: iso(delivery.nextAttemptAt),
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    deliveredAt: iso(delivery.deliveredAt),
    history: delivery.history.map((attempt) => ({ ...attempt, at: iso(attempt.at) })),
  });

  const verify = async (record: store.WebhookRecord) => {
    const check = await verifyEndpoint(record.url, record.secret, {
      allowPrivateNetworks: context.webhooks.allowPrivateNetworks,
      ...(context.webhooks.timeoutMs === undefined ? {} : { timeoutMs: context.webhooks.timeoutMs }),
      ...(context.webhooks.fetch === undefined ? {} : { fetch: context.webhooks.fetch }),
    });
    const updated = check.verified ? await store.setWebhookState(db, record.id, 'enabled', null) : record;
    return {
      ...webhookResource(updated ?? record),
      verification: check.verified
        ? { verified: true, status: check.status }
        : { verified: false, reason: check.reason, ...(check.status === undefined ? {} : { status: check.status }), error: check.error },
    };
  };

  // --- routes --------------------------------------------------------------
  const routes: Route[] = [
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
          const record = await store.updateTemplate(db, template);
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
          if (!(await store.putTemplateFile(db, record.template.id, path, bytes))) {
            throw new ServiceProblem(404, 'template-not-found', 'The template was deleted meanwhile.');
          }
          return json({ path, size: bytes.byteLength }, 201);
        },
        DELETE: async ({ params }) => {
          const record = await templateOf(params[0]!);
          const path = params.slice(1).join('/');
          if (!(await store.deleteTemplateFile(db, record.template.id, path))) {
            throw new ServiceProblem(404, 'file-not-found', `The template has no file ${JSON.stringify(path)}.`);
          }
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
          await commitEvents(async (tx) => {
            record = await store.insertPass(tx, template.template.id, values, pass);
            if (record === undefined) return;
            await addEvents(tx, [createEvent('pass.created', { serialNumber: pass.serialNumber, passTypeIdentifier: pass.passTypeIdentifier })]);
          });
          if (record === undefined) throw new ServiceProblem(409, 'pass-exists', `A pass ${JSON.stringify(pass.serialNumber)} of this type exists.`);
          return json(passResource(request, record), 201, { location: passLinks(request, record)['self']! });
        },
      },
    },
    {
      pattern: '/v1/passes',
      methods: {
        GET: async ({ request, url }) => {
          const { limit, cursor } = readPage(url, 'after');
          const templateText = url.searchParams.get('templateId');
          const templateId = templateText === null ? undefined : templateIdOf(templateText);
          if (templateText !== null && templateId === undefined) throw new ServiceProblem(400, 'invalid-query', '`templateId` must be a template id.');
          const items = await store.listPasses(db, cursor ?? 0, limit, templateId);
          return json(page(items, limit, (item) => item.seq, (item) => passSummary(request, item)));
        },
      },
    },
    {
      pattern: '/v1/passes/:type/:serial',
      methods: {
        GET: async ({ request, params }) => json(passResource(request, await passOf(params[0]!, params[1]!))),
        DELETE: async ({ params }) => {
          if (!(await store.deletePass(db, params[0]!, params[1]!))) await passOf(params[0]!, params[1]!);
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
            const template = await store.findTemplate(tx, current.templateId);
            if (template === undefined) throw new ServiceProblem(404, 'template-not-found', 'The pass\'s template is gone.');
            // Serial number and token never change across updates (Wallet keeps them).
            const pass = builder.build(request, template, values, {
              serialNumber: current.serialNumber,
              authenticationToken: current.pass.authenticationToken,
            });
            record = await store.updatePass(tx, values, pass);
            await markPassUpdated(tx, current.passTypeIdentifier, current.serialNumber);
            if (context.pushes) await store.queuePushes(tx, current.passTypeIdentifier, current.serialNumber);
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
          const record = await store.findPass(db, params[0]!, params[1]!);
          // The pass's own token opens its download link (what a phone has); otherwise the API key.
          const byToken = token !== null && record?.pass.authenticationToken !== undefined && sameText(token, record.pass.authenticationToken);
          if (!byToken && !(await context.authenticate(request))) {
            throw new ServiceProblem(401, token === null ? 'missing-credentials' : 'invalid-credentials', 'Send an API key, or open the pass\'s download link.', {
              headers: { 'www-authenticate': 'Bearer' },
            });
          }
          if (record === undefined) await passOf(params[0]!, params[1]!);
          const bytes = await pack(record!);
          await commitEvents((tx) =>
            addEvents(tx, [createEvent('pass.downloaded', { serialNumber: record!.serialNumber, passTypeIdentifier: record!.passTypeIdentifier })]),
          );
          return new Response(bytes as Uint8Array<ArrayBuffer>, { status: 200, headers: { ...pkpassHeaders(`${safeName(record!.serialNumber)}.pkpass`), 'last-modified': record!.updated.toUTCString() } });
        },
      },
      public: ['GET'],
    },
    {
      pattern: '/v1/webhooks',
      methods: {
        GET: async ({ url }) => {
          const { limit, cursor } = readPage(url, 'after');
          const items = await store.listWebhooks(db, cursor ?? 0, limit);
          return json(page(items, limit, (item) => item.seq, webhookResource));
        },
        POST: async ({ request }) => {
          const body = await readJson(request, context.maxBodyBytes);
          if (!isObject(body) || typeof body['url'] !== 'string' || body['url'].length > 2048) {
            throw new ServiceProblem(422, 'invalid-body', 'Send { "url": "https://…" } (at most 2048 characters).');
          }
          let url: string;
          try {
            url = checkWebhookUrl(body['url'], { allowPrivateNetworks: context.webhooks.allowPrivateNetworks });
          } catch (error) {
            if (error instanceof WebhookError) throw new ServiceProblem(422, 'invalid-webhook-url', error.message);
            throw error;
          }
          const record = await store.insertWebhook(db, url, generateWebhookSecret());
          return json(await verify(record), 201, { location: `${baseUrl(context, request)}/v1/webhooks/${record.id}` });
        },
      },
    },
    {
      pattern: '/v1/webhooks/:id',
      methods: { GET: async ({ params }) => json(webhookResource(await webhookOf(params[0]!))) },
    },
    {
      pattern: '/v1/webhooks/:id/verify',
      methods: { POST: async ({ params }) => json(await verify(await webhookOf(params[0]!))) },
    },
    {
      pattern: '/v1/webhooks/:id/disable',
      methods: {
        POST: async ({ params }) => {
          const record = await webhookOf(params[0]!);
          const updated = await db.transaction((tx) => store.setWebhookState(tx, record.id, 'disabled', 'disabled by the holder'));
          return json(webhookResource(updated ?? record));
        },
      },
    },
    {
      pattern: '/v1/webhooks/:id/secret',
      methods: {
        POST: async ({ params }) => {
          const record = await webhookOf(params[0]!);
          const updated = await store.setWebhookSecret(db, record.id, generateWebhookSecret());
          return json(webhookResource(updated ?? record));
        },
      },
    },
    {
      pattern: '/v1/webhooks/:id/deliveries',
      methods: {
        GET: async ({ params, url }) => {
          const record = await webhookOf(params[0]!);
          const { limit, cursor } = readPage(url, 'before');
          const items = await store.listDeliveries(db, { webhookId: record.id, before: cursor ?? Number.MAX_SAFE_INTEGER, limit });
          return json(page(items, limit, (item) => item.id, deliveryResource));
        },
      },
    },
    {
      pattern: '/v1/events',
      methods: {
        GET: async ({ url }) => {
          const { limit, cursor } = readPage(url, 'before');
          const items = await store.listEvents(db, cursor ?? Number.MAX_SAFE_INTEGER, limit);
          return json(page(items, limit, (item) => item.seq, (item) => JSON.parse(item.body) as unknown));
        },
      },
    },
    {
      pattern: '/v1/events/:id',
      methods: {
        GET: async ({ params }) => {
          const event = await eventOf(params[0]!);
          const deliveries = await store.listDeliveries(db, { eventSeq: event.seq });
          return json({ event: JSON.parse(event.body) as unknown, deliveries: deliveries.map(deliveryResource) });
        },
      },
    },
    {
      pattern: '/v1/events/:id/replay',
      methods: {
        POST: async ({ request, params }) => {
          const event = await eventOf(params[0]!);
          const body = request.headers.get('content-length') === '0' || request.body === null ? {} : await readJson(request, context.maxBodyBytes);
          const webhookId = isObject(body) ? body['webhookId'] : undefined;
          if (!isObject(body) || (webhookId !== undefined && (typeof webhookId !== 'string' || !isUuid(webhookId)))) {
            throw new ServiceProblem(422, 'invalid-body', 'Send nothing, or { "webhookId": "<id>" } to replay to one registration.');
          }
          if (webhookId !== undefined) {
            const webhook = await webhookOf(webhookId);
            if (webhook.state !== 'enabled') throw new ServiceProblem(409, 'webhook-disabled', 'Only an enabled registration receives events.');
          }
          let queued = 0;
          await commitEvents(async (tx) => {
            queued = await store.replayEvent(tx, event.seq, webhookId);
          });
          return json({ queued }, 202);
        },
      },
    },
  ];

  const api = createRouter(routes, context.authenticate);

  return async (request) => {
    const head = request.method === 'HEAD';
    try {
      const path = new URL(request.url).pathname;
      if (path === '/wallet' || path.startsWith('/wallet/')) return await wallet(request);
      return await api(request);
    } catch (error) {
      if (error instanceof ServiceProblem) return problemResponse(error, head);
      context.onError(error);
      return problemResponse(new ServiceProblem(500, 'internal-error', 'The service failed to answer; the error is in its log.'), head);
    }
  };
}

/** Constant-time text comparison (the download link's token). */
function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A file name for Content-Disposition: the serial number's safe characters. */
function safeName(serialNumber: string): string {
  const name = serialNumber.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
  return name === '' ? 'pass' : name;
}
