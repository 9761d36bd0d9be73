import { isObject, readOptionalJson } from '../http/body.js';
import { type Kit, json } from './kit.js';
import { ServiceProblem } from '../http/problem.js';
import { isUuid, page, readPage } from '../http/paging.js';
import type { Route } from '../http/router.js';
import * as store from '../db/store.js';

/** Events with their deliveries and attempts, and replays. */
export function eventRoutes(kit: Kit): Route[] {
  const { context, db, commitEvents, webhookOf, eventOf, deliveryResource } = kit;
  return [
    {
      pattern: '/v1/events',
      methods: {
        GET: async ({ url }) => {
          const query = readPage(url, 'before');
          const items = await store.listEvents(db, query);
          return json(page(items, query, (item) => item.seq, (item) => JSON.parse(item.body) as unknown));
        },
      },
    },
    {
      pattern: '/v1/events/:id',
      methods: {
        // One event fans out to every registration: its deliveries come a page at a time, like every list.
        GET: async ({ url, params }) => {
          const query = readPage(url, 'after');
          const event = await eventOf(params[0]!);
          const deliveries = await store.listDeliveries(db, { eventSeq: event.seq }, query);
          const { items, next } = page(deliveries, query, (delivery) => delivery.id, deliveryResource);
          return json({ event: JSON.parse(event.body) as unknown, deliveries: items, next });
        },
      },
    },
    {
      pattern: '/v1/events/:id/replay',
      methods: {
        POST: async ({ request, params }) => {
          const event = await eventOf(params[0]!);
          const body = (await readOptionalJson(request, context.maxBodyBytes)) ?? {};
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
}
