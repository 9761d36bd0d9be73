import { checkWebhookUrl } from '../../webhooks/check-webhook-url.js';
import { generateWebhookSecret } from '../../webhooks/secret.js';
import { WebhookError } from '../../webhooks/webhook-error.js';
import { sealWebhookSecret } from '../db/secrets.js';
import * as store from '../db/store.js';
import { isObject, readJson, readOptionalJson } from '../http/body.js';
import { page, readPage } from '../http/paging.js';
import { ServiceProblem } from '../../http/problem.js';
import { baseUrl } from './context.js';
import { defineRoute, type Route } from './define.js';
import { badPage, jsonAnswer, jsonBody, location, paging, problemAnswer } from './docs.js';
import { found, webhookOf } from './lookups.js';
import { deliveryResource, webhookResource } from './resources.js';
import { json } from './responses.js';
import { object, page as pageOf, ref, string, WEBHOOK_EVENT_TYPES } from './schemas.js';
import { verifyWebhook } from './webhook-verify.js';

/** Webhook registrations: create (with the handshake), read, verify again, disable, rotate, deliveries. */
export const webhookRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/webhooks',
    auth: 'read',
    summary: 'List webhook registrations',
    query: paging,
    responses: {
      200: jsonAnswer(
        pageOf('Webhook'),
        'A page of registrations, oldest first unless read `before` a cursor (secrets are shown at creation and rotation only).',
      ),
      400: badPage,
    },
    handler: async ({ url }, { db }) => {
      const query = readPage(url, 'after');
      const items = await store.listWebhooks(db, query);
      return json(page(items, query, (item) => item.seq, webhookResource));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/webhooks',
    auth: 'admin',
    summary: 'Register a webhook',
    description: 'Sends the `webhook.verify` handshake; a receiver that answers it is enabled.',
    body: jsonBody(ref('NewWebhook')),
    responses: {
      201: jsonAnswer(ref('WebhookVerification'), 'The registration, its secret (shown this once), and how the handshake went.', location),
      409: problemAnswer('The service has no secret key to seal the secret with (`secret-key-missing`): nothing is stored.'),
      422: problemAnswer('Not a URL the service delivers to (`invalid-webhook-url`), or `events` naming a type the service does not send (`invalid-body`).'),
    },
    handler: async ({ request }, { context, db }) => {
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
      const events = eventTypesOf(body['events']);
      const secret = chosenSecret(body['secret']) ?? generateWebhookSecret();
      // Stored sealed under the secret key; a service without one stores nothing (409 secret-key-missing).
      const record = await store.insertWebhook(db, url, sealWebhookSecret(context.secretBox, secret), events);
      // The secret is shown here and at rotation only, never in a read or a list.
      return json({ ...(await verifyWebhook(context, db, record)), secret }, 201, {
        location: `${baseUrl(context, request)}/v1/webhooks/${record.id}`,
      });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/webhooks/{id}',
    auth: 'read',
    summary: 'Read a webhook registration',
    responses: { 200: jsonAnswer(ref('Webhook'), 'The registration.'), 404: problemAnswer('No such registration.') },
    handler: async ({ params }, { db }) => json(webhookResource(await webhookOf(db, params.id))),
  }),
  defineRoute({
    method: 'PUT',
    path: '/v1/webhooks/{id}/events',
    auth: 'admin',
    summary: 'Choose the event types a registration receives',
    description: 'From the next event on. `{"events": null}` (or an empty body) receives every type; `webhook.verify` is always sent.',
    body: jsonBody(object({ events: ref('WebhookEvents') }, []), false),
    responses: {
      200: jsonAnswer(ref('Webhook'), 'The registration with its event types.'),
      404: problemAnswer('No such registration.'),
      422: problemAnswer('`events` naming a type the service does not send, empty, or not a list (`invalid-body`).'),
    },
    handler: async ({ request, params }, { context, db }) => {
      const record = await webhookOf(db, params.id);
      const body = await readOptionalJson(request, context.maxBodyBytes);
      if (body !== undefined && !isObject(body))
        throw new ServiceProblem(422, 'invalid-body', 'Send { "events": ["pass.updated", …] }, or { "events": null } for every type.');
      const updated = await found(
        store.setWebhookEvents(db, record.id, eventTypesOf(body?.['events'])),
        'webhook-not-found',
        `No webhook registration ${JSON.stringify(params.id)} exists.`,
      );
      return json(webhookResource(updated));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/webhooks/{id}/verify',
    auth: 'admin',
    summary: 'Send the handshake again',
    responses: { 200: jsonAnswer(ref('WebhookVerification'), 'How the handshake went.'), 404: problemAnswer('No such registration.') },
    handler: async ({ params }, { context, db }) => json(await verifyWebhook(context, db, await webhookOf(db, params.id))),
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/webhooks/{id}/disable',
    auth: 'admin',
    summary: 'Disable a webhook registration',
    responses: { 200: jsonAnswer(ref('Webhook'), 'The registration, disabled.'), 404: problemAnswer('No such registration.') },
    handler: async ({ params }, { db }) => {
      const record = await webhookOf(db, params.id);
      const updated = await db.transaction((tx) => store.setWebhookState(tx, record.id, 'disabled', 'disabled by the holder'));
      return json(webhookResource(updated ?? record));
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/webhooks/{id}/secret',
    auth: 'admin',
    summary: 'Rotate the signing secret',
    description:
      'Without a body the service makes the new secret; send `{"secret": …}` to choose it (configure the receiver with it first). The old secret signs nothing from now on.',
    body: jsonBody(object({ secret: string('16 to 256 visible ASCII characters without spaces.') }, []), false),
    responses: {
      200: jsonAnswer(ref('Webhook'), 'The registration with its new secret (shown this once).'),
      404: problemAnswer('No such registration.'),
      409: problemAnswer('The service has no secret key to seal the secret with (`secret-key-missing`): the old secret stays.'),
      422: problemAnswer('A chosen secret that is not 16 to 256 visible ASCII characters, or a body that is not an object (`invalid-body`).'),
    },
    // Rotation: the new secret (given as { "secret": … }, or made) signs every delivery from now on, the old one none;
    // it is in this answer only. Give it to the receiver first (receiveWebhook accepts a list) to lose no delivery.
    handler: async ({ request, params }, { context, db }) => {
      const record = await webhookOf(db, params.id);
      const body = await readOptionalJson(request, context.maxBodyBytes);
      if (body !== undefined && !isObject(body)) throw new ServiceProblem(422, 'invalid-body', 'Send nothing, or { "secret": "…" } to choose the new secret.');
      const secret = chosenSecret(body?.['secret']) ?? generateWebhookSecret();
      const updated = await found(
        store.setWebhookSecret(db, record.id, sealWebhookSecret(context.secretBox, secret)),
        'webhook-not-found',
        `No webhook registration ${JSON.stringify(params.id)} exists.`,
      );
      return json({ ...webhookResource(updated), secret });
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries',
    auth: 'read',
    summary: "A registration's deliveries",
    query: paging,
    responses: {
      200: jsonAnswer(pageOf('Delivery'), 'Newest first unless read `after` a cursor, each with its attempts.'),
      400: badPage,
      404: problemAnswer('No such registration.'),
    },
    handler: async ({ params, url }, { db }) => {
      const record = await webhookOf(db, params.id);
      const query = readPage(url, 'before');
      const items = await store.listDeliveries(db, { webhookId: record.id }, query);
      return json(page(items, query, (item) => item.id, deliveryResource));
    },
  }),
];

// A receiver that checks signatures must know the secret before the handshake
// reaches it: a caller may choose the secret (and configure its receiver first);
// otherwise the service makes one, and the registration may stay pending until
// POST /v1/webhooks/{id}/verify.
const SECRET = /^[\x21-\x7e]{16,256}$/;

/** The event types asked for, without repeats; `null` (every type) when left out or null; 422 for an unknown type. */
function eventTypesOf(events: unknown): string[] | null {
  if (events === undefined || events === null) return null;
  if (!Array.isArray(events) || events.length === 0 || events.length > WEBHOOK_EVENT_TYPES.length) {
    throw new ServiceProblem(422, 'invalid-body', '"events" is a non-empty list of event types (or null for every type).');
  }
  const unknown = events.find((type) => typeof type !== 'string' || !WEBHOOK_EVENT_TYPES.includes(type));
  if (unknown !== undefined || events.length !== new Set(events).size) {
    throw new ServiceProblem(
      422,
      'invalid-body',
      unknown === undefined
        ? '"events" names a type twice.'
        : `"events": ${JSON.stringify(unknown)} is not an event type the service sends (${WEBHOOK_EVENT_TYPES.join(', ')}).`,
    );
  }
  return events as string[];
}

function chosenSecret(secret: unknown): string | undefined {
  if (secret === undefined) return undefined;
  if (typeof secret !== 'string' || !SECRET.test(secret)) {
    throw new ServiceProblem(
      422,
      'invalid-body',
      'A "secret" you choose is 16 to 256 visible ASCII characters without spaces; leave it out and the service makes one.',
    );
  }
  return secret;
}

/** The library's message, with the service's own switch named where it names the library's option. */
function serviceMessage(error: WebhookError): string {
  return error.code === 'private-address'
    ? error.message.replace(
        '(allowPrivateNetworks lets it)',
        '(start passmint serve with --allow-private-webhooks, or give createServer delivery.allowPrivateNetworks, to allow them)',
      )
    : error.message;
}
