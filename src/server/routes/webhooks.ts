import { checkWebhookUrl } from '../../webhooks/check-webhook-url.js';
import { generateWebhookSecret } from '../../webhooks/secret.js';
import { WebhookError } from '../../webhooks/webhook-error.js';
import { isObject, readJson, readOptionalJson } from '../http/body.js';
import { baseUrl } from '../context.js';
import { type Kit, json } from './kit.js';
import { ServiceProblem } from '../http/problem.js';
import { page, readPage } from '../http/paging.js';
import type { Route } from '../http/router.js';
import * as store from '../db/store.js';

/** Webhook registrations: create (with the handshake), read, verify again, disable, rotate, deliveries. */
export function webhookRoutes(kit: Kit): Route[] {
  const { context, db, webhookOf, webhookResource, deliveryResource, verify } = kit;
  return [
    {
      pattern: '/v1/webhooks',
      methods: {
        GET: async ({ url }) => {
          const query = readPage(url, 'after');
          const items = await store.listWebhooks(db, query);
          return json(page(items, query, (item) => item.seq, webhookResource));
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
            if (error instanceof WebhookError) throw new ServiceProblem(422, 'invalid-webhook-url', serviceMessage(error));
            throw error;
          }
          const record = await store.insertWebhook(db, url, chosenSecret(body['secret']) ?? generateWebhookSecret());
          // The secret is shown here and at rotation only, never in a read or a list.
          return json({ ...(await verify(record)), secret: record.secret }, 201, { location: `${baseUrl(context, request)}/v1/webhooks/${record.id}` });
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
        // Rotation: the new secret (given as { "secret": … }, or made) signs every delivery from now on, the old one none;
        // it is in this answer only. Give it to the receiver first (receiveWebhook accepts a list) to lose no delivery.
        POST: async ({ request, params }) => {
          const record = await webhookOf(params[0]!);
          const body = await readOptionalJson(request, context.maxBodyBytes);
          if (body !== undefined && !isObject(body)) throw new ServiceProblem(422, 'invalid-body', 'Send nothing, or { "secret": "…" } to choose the new secret.');
          const secret = chosenSecret(body?.['secret']) ?? generateWebhookSecret();
          const updated = await store.setWebhookSecret(db, record.id, secret);
          if (updated === undefined) throw new ServiceProblem(404, 'webhook-not-found', `No webhook registration ${JSON.stringify(params[0]!)} exists.`);
          return json({ ...webhookResource(updated), secret });
        },
      },
    },
    {
      pattern: '/v1/webhooks/:id/deliveries',
      methods: {
        GET: async ({ params, url }) => {
          const record = await webhookOf(params[0]!);
          const query = readPage(url, 'before');
          const items = await store.listDeliveries(db, { webhookId: record.id }, query);
          return json(page(items, query, (item) => item.id, deliveryResource));
        },
      },
    },
  ];
}

// A receiver that checks signatures must know the secret before the handshake
// reaches it: a caller may choose the secret (and configure its receiver first);
// otherwise the service makes one, and the registration may stay pending until
// POST /v1/webhooks/{id}/verify.
const SECRET = /^[\x21-\x7e]{16,256}$/;

function chosenSecret(secret: unknown): string | undefined {
  if (secret === undefined) return undefined;
  if (typeof secret !== 'string' || !SECRET.test(secret)) {
    throw new ServiceProblem(422, 'invalid-body', 'A "secret" you choose is 16 to 256 visible ASCII characters without spaces; leave it out and the service makes one.');
  }
  return secret;
}

/** The library's message, with the service's own switch named where it names the library's option. */
function serviceMessage(error: WebhookError): string {
  return error.code === 'private-address'
    ? error.message.replace('(allowPrivateNetworks lets it)', '(start passmint serve with --allow-private-webhooks, or give createServer delivery.allowPrivateNetworks, to allow them)')
    : error.message;
}

