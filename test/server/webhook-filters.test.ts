// Webhook event filters: a registration takes `events` (default every type);
// the fan-out makes deliveries only for registrations that take the event's
// type; unknown types are 422; the list is shown and can be changed.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { openApiChecker, recordAnswers, type Answer } from './openapi-check.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const TEMPLATE = {
  name: 'Filters',
  formatVersion: 1,
  passType: 'pass.com.example.filters',
  description: { generic: { primaryFields: [{ key: 'n', value: '${name}' }] } },
  placeholder: ['name'],
};

for (const engine of ENGINES) {
  describe(`webhook event filters on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    const answers: Answer[] = [];
    let receiver: Receiver;
    let templateId: number;

    const register = async (path: string, events?: unknown) => {
      const created = await service.call('POST', '/v1/webhooks', { url: `${receiver.url}${path}`, ...(events === undefined ? {} : { events }) });
      if (created.status === 201) receiver.secrets.set(path, [created.body.secret]);
      return created;
    };
    const typesAt = (path: string) =>
      receiver.received.filter((item) => item.path === path && item.event.type !== 'webhook.verify').map((item) => item.event.type);

    beforeAll(async () => {
      database = await engine.open();
      service = recordAnswers(await startService(database), answers);
      receiver = await startReceiver();
      templateId = (await service.call('POST', '/v1/templates', TEMPLATE)).body.id;
    });
    afterAll(async () => {
      await service?.close();
      await receiver?.close();
      await database?.dispose();
    });

    test('a receiver subscribed to pass.updated only gets no pass.created', async () => {
      const all = await register('/all');
      const updates = await register('/updates', ['pass.updated']);
      expect([all.status, all.body.events, all.body.state]).toEqual([201, null, 'enabled']);
      expect([updates.status, updates.body.events, updates.body.state]).toEqual([201, ['pass.updated'], 'enabled']);
      expect((await service.call('GET', `/v1/webhooks/${updates.body.id}`)).body.events).toEqual(['pass.updated']);

      // One pass alone, and several at once (the batched insert's fan-out).
      expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { serialNumber: 'F-1', values: { name: 'A' } })).status).toBe(201);
      await Promise.all(
        ['F-2', 'F-3', 'F-4'].map((serialNumber) => service.call('POST', `/v1/templates/${templateId}/passes`, { serialNumber, values: { name: 'B' } })),
      );
      expect((await service.call('PUT', '/v1/passes/pass.com.example.filters/F-1/values', { name: 'A2' })).status).toBe(200);
      await eventually(() => typesAt('/updates').length === 1 && typesAt('/all').length === 5, 10_000, 'the deliveries');
      expect(typesAt('/updates')).toEqual(['pass.updated']);
      expect(typesAt('/all').sort()).toEqual(['pass.created', 'pass.created', 'pass.created', 'pass.created', 'pass.updated']);
      // No delivery was even queued for the filtered registration.
      const deliveries = (await service.call('GET', `/v1/webhooks/${updates.body.id}/deliveries`)).body.items;
      expect(deliveries.map((delivery: { eventType: string }) => delivery.eventType)).toEqual(['pass.updated']);

      // A replay to every registration keeps to the filters.
      const created = (await service.call('GET', '/v1/events?limit=100')).body.items.find((event: { type: string }) => event.type === 'pass.created');
      const replay = await service.call('POST', `/v1/events/${created.id}/replay`, {});
      expect([replay.status, replay.body.queued]).toEqual([202, 1]);
    });

    test('the list can be changed, and back to every type', async () => {
      const hook = await register('/changing', ['pass.created']);
      const changed = await service.call('PUT', `/v1/webhooks/${hook.body.id}/events`, { events: ['pass.updated', 'job.completed'] });
      expect([changed.status, changed.body.events]).toEqual([200, ['pass.updated', 'job.completed']]);
      expect((await service.call('POST', `/v1/templates/${templateId}/passes`, { serialNumber: 'F-5', values: { name: 'C' } })).status).toBe(201);
      expect((await service.call('PUT', '/v1/passes/pass.com.example.filters/F-5/values', { name: 'C2' })).status).toBe(200);
      await eventually(() => typesAt('/changing').length === 1, 10_000, 'the update');
      expect(typesAt('/changing')).toEqual(['pass.updated']);
      const every = await service.call('PUT', `/v1/webhooks/${hook.body.id}/events`, { events: null });
      expect([every.status, every.body.events]).toEqual([200, null]);
      const unset = await service.call('PUT', `/v1/webhooks/${hook.body.id}/events`);
      expect([unset.status, unset.body.events]).toEqual([200, null]);
    });

    test('unknown, empty, repeated or malformed types are 422, and nothing is registered', async () => {
      const before = (await service.call('GET', '/v1/webhooks')).body.items.length;
      for (const events of [['pass.exploded'], [], ['pass.updated', 'pass.updated'], 'pass.updated', [7]]) {
        const refused = await register('/refused', events);
        expect([JSON.stringify(events), refused.status, refused.body.code]).toEqual([JSON.stringify(events), 422, 'invalid-body']);
      }
      expect((await service.call('GET', '/v1/webhooks')).body.items.length).toBe(before);
      const hook = (await service.call('GET', '/v1/webhooks')).body.items[0];
      const refused = await service.call('PUT', `/v1/webhooks/${hook.id}/events`, { events: ['nope'] });
      expect([refused.status, refused.body.code]).toEqual([422, 'invalid-body']);
      const missing = await service.call('PUT', '/v1/webhooks/00000000-0000-4000-8000-000000000000/events', { events: null });
      expect(missing.status).toBe(404);
    });

    test('the answers match the OpenAPI document', async () => {
      const check = await openApiChecker(service.url);
      expect(answers.map(check).filter((problem) => problem !== undefined)).toEqual([]);
    });
  });
}
