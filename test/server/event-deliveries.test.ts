// GET /v1/events/{id} pages the event's deliveries like every other list
// (`limit` 1–100, default 50, an `after` cursor): an event fans out to every
// registration, and a service with thousands of them must not answer with
// thousands of deliveries, each with its attempts, in one body.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { startReceiver, type Receiver } from './receiver.js';

for (const engine of ENGINES) {
  describe(`an event's deliveries on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    let receiver: Receiver;

    beforeAll(async () => {
      database = await engine.open();
      service = await startService(database);
      receiver = await startReceiver();
    });

    afterAll(async () => {
      await service?.close();
      await receiver?.close();
      await database?.dispose();
    });

    test('come a page at a time, oldest first, every registration once; bad pages are 400', async () => {
      const hooks: string[] = [];
      for (let index = 0; index < 5; index++) {
        const hook = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}/e${index}` });
        expect(hook.body.state).toBe('enabled');
        hooks.push(hook.body.id);
      }
      const { body: template } = await service.call('POST', '/v1/templates', {
        name: 'T',
        formatVersion: 1,
        passType: 'pass.com.example.t',
        description: { generic: { primaryFields: [{ key: 'k', value: '${v}' }] } },
        placeholder: ['v'],
      });
      expect((await service.call('POST', `/v1/templates/${template.id}/passes`, { values: { v: '1' } })).status).toBe(201);
      const [event] = (await service.call('GET', '/v1/events?limit=1')).body.items;
      expect(event.type).toBe('pass.created');

      const pages: { webhookId: string }[][] = [];
      let after = '';
      for (;;) {
        const { status, body } = await service.call('GET', `/v1/events/${event.id}?limit=2${after}`);
        expect(status).toBe(200);
        expect(body.event).toEqual(event);
        pages.push(body.deliveries);
        if (body.next === null) break;
        expect(body.next).toMatch(/^\d+$/);
        after = `&after=${body.next}`;
      }
      expect(pages.map((deliveries) => deliveries.length)).toEqual([2, 2, 1]);
      expect(pages.flat().map((delivery) => delivery.webhookId)).toEqual(hooks);

      // Without `limit`, one page of up to 50 holds them all, and says there is no next.
      const whole = (await service.call('GET', `/v1/events/${event.id}`)).body;
      expect(whole.deliveries.map((delivery: { webhookId: string }) => delivery.webhookId)).toEqual(hooks);
      expect(whole.next).toBeNull();

      for (const query of ['limit=0', 'limit=101', 'limit=x', 'after=-1', 'after=1e3']) {
        const { status, body } = await service.call('GET', `/v1/events/${event.id}?${query}`);
        expect([query, status, body.code]).toEqual([query, 400, 'invalid-query']);
      }
    });
  });
}
