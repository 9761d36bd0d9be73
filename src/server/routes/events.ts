import * as store from '../db/store.js';
import { isObject, readOptionalJson } from '../http/body.js';
import { isUuid, page, readPage } from '../http/paging.js';
import { ServiceProblem } from '../../http/problem.js';
import { defineRoute, type Route } from './define.js';
import { badPage, jsonAnswer, jsonBody, paging, problemAnswer } from './docs.js';
import { eventOf, webhookOf } from './lookups.js';
import { deliveryResource } from './resources.js';
import { json } from './responses.js';
import { nullable, object, page as pageOf, ref, string } from './schemas.js';

/** Events with their deliveries and attempts, and replays. */
export const eventRoutes: readonly Route[] = [
  defineRoute({
    method: 'GET',
    path: '/v1/events',
    auth: 'read',
    summary: 'List events',
    query: paging,
    responses: { 200: jsonAnswer(pageOf('Event'), 'Newest first unless read `after` a cursor.'), 400: badPage },
    handler: async ({ url }, { db }) => {
      const query = readPage(url, 'before');
      const items = await store.listEvents(db, query);
      return json(
        page(
          items,
          query,
          (item) => item.seq,
          (item) => JSON.parse(item.body) as unknown,
        ),
      );
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/events/{id}',
    auth: 'read',
    summary: 'Read an event and its deliveries',
    query: paging,
    responses: {
      200: jsonAnswer(
        object({ event: ref('Event'), deliveries: { type: 'array', items: ref('Delivery') }, next: nullable('string') }),
        'The event, a page of its deliveries (oldest first unless read `before` a cursor).',
      ),
      400: badPage,
      404: problemAnswer('No such event.'),
    },
    // One event fans out to every registration: its deliveries come a page at a time, like every list.
    handler: async ({ url, params }, { db }) => {
      const query = readPage(url, 'after');
      const event = await eventOf(db, params.id);
      const deliveries = await store.listDeliveries(db, { eventSeq: event.seq }, query);
      const { items, next } = page(deliveries, query, (delivery) => delivery.id, deliveryResource);
      return json({ event: JSON.parse(event.body) as unknown, deliveries: items, next });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/v1/events/{id}/replay',
    auth: 'admin',
    summary: 'Deliver an event again',
    body: jsonBody(object({ webhookId: string('Only to this registration.') }, []), false),
    responses: {
      202: jsonAnswer(object({ queued: { type: 'integer', minimum: 0 } }), 'How many deliveries were queued.'),
      404: problemAnswer('No such event or registration.'),
      409: problemAnswer('The registration is not enabled.'),
    },
    handler: async ({ request, params }, { context, db, commitEvents }) => {
      const event = await eventOf(db, params.id);
      const body = (await readOptionalJson(request, context.maxBodyBytes)) ?? {};
      const webhookId = isObject(body) ? body['webhookId'] : undefined;
      if (!isObject(body) || (webhookId !== undefined && (typeof webhookId !== 'string' || !isUuid(webhookId)))) {
        throw new ServiceProblem(422, 'invalid-body', 'Send nothing, or { "webhookId": "<id>" } to replay to one registration.');
      }
      if (webhookId !== undefined) {
        const webhook = await webhookOf(db, webhookId);
        if (webhook.state !== 'enabled') throw new ServiceProblem(409, 'webhook-disabled', 'Only an enabled registration receives events.');
      }
      let queued = 0;
      await commitEvents(async (tx) => {
        queued = await store.replayEvent(tx, event.seq, webhookId);
      });
      return json({ queued }, 202);
    },
  }),
];
