// Pages go both ways on every list: `after` walks up from a cursor (oldest
// first), `before` walks down (newest first); each page's `next` continues
// in the same direction; the two walks see the same items; a cursor that
// cannot be read — or both at once — is a 400 on every list.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { openApiChecker, recordAnswers, type Answer } from './openapi-check.js';
import { eventually, startReceiver, type Receiver } from './receiver.js';

const TOP = '999999999999999'; // the largest cursor: `before` it is the end of any list

for (const engine of ENGINES) {
  describe(`paging on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    const answers: Answer[] = [];
    let receiver: Receiver;
    const lists: { path: string; key: (item: any) => string; size: number }[] = [];

    beforeAll(async () => {
      database = await engine.open();
      service = recordAnswers(await startService(database), answers);
      receiver = await startReceiver();
      const hooks: string[] = [];
      for (const path of ['/p1', '/p2', '/p3']) {
        const hook = (await service.call('POST', '/v1/webhooks', { url: `${receiver.url}${path}` })).body;
        receiver.secrets.set(path, [hook.secret]);
        hooks.push(hook.id);
      }
      const templateIds: number[] = [];
      for (const name of ['A', 'B', 'C']) {
        const created = await service.call('POST', '/v1/templates', {
          name,
          formatVersion: 1,
          passType: 'pass.com.example.paging',
          description: { generic: { primaryFields: [{ key: 'k', value: '${v}' }] } },
          placeholder: ['v'],
        });
        templateIds.push(created.body.id);
      }
      for (let index = 0; index < 5; index++) {
        const created = await service.call('POST', `/v1/templates/${templateIds[0]}/passes`, { serialNumber: `P-${index}`, values: { v: String(index) } });
        expect(created.status).toBe(201);
      }
      // Every delivery done first, so the lists hold still while they are read.
      await eventually(() => receiver.received.length === 15, 10_000, 'every event at every registration');
      const events = (await service.call('GET', '/v1/events?limit=100')).body.items;
      expect(events.length).toBe(5);
      lists.push(
        { path: '/v1/templates', key: (item) => String(item.id), size: 3 },
        { path: '/v1/passes', key: (item) => item.serialNumber, size: 5 },
        { path: '/v1/webhooks', key: (item) => item.id, size: 3 },
        { path: '/v1/events', key: (item) => item.id, size: 5 },
        { path: `/v1/webhooks/${hooks[0]}/deliveries`, key: (item) => item.id, size: 5 },
        { path: `/v1/events/${events[0].id}`, key: (item) => item.id, size: 3 },
      );
    });

    afterAll(async () => {
      await service?.close();
      await receiver?.close();
      await database?.dispose();
    });

    /** Items of one page: an event's page lists its deliveries. */
    const itemsOf = (body: any): any[] => body.items ?? body.deliveries;

    /** Every item, walking pages of 2 in one direction from a cursor. */
    const walk = async (path: string, direction: 'after' | 'before', from: string, key: (item: any) => string): Promise<string[]> => {
      const seen: string[] = [];
      let cursor = from;
      for (let pages = 0; pages < 10; pages++) {
        const response = await service.call('GET', `${path}?limit=2&${direction}=${cursor}`);
        expect(response.status).toBe(200);
        seen.push(...itemsOf(response.body).map(key));
        if (response.body.next === null) return seen;
        cursor = response.body.next;
      }
      throw new Error(`${path}: more pages than items`);
    };

    test('after and before walk every list both ways and see the same items', async () => {
      for (const { path, key, size } of lists) {
        const up = await walk(path, 'after', '0', key);
        const down = await walk(path, 'before', TOP, key);
        expect(up.length, path).toBe(size);
        expect(new Set(up).size, path).toBe(size);
        expect(down, path).toEqual([...up].reverse());
      }
    });

    test('from a cursor in the middle, after gives what follows it and before what precedes it', async () => {
      for (const { path, key } of lists) {
        const first = await service.call('GET', `${path}?limit=2&after=0`);
        const middle = first.body.next as string; // the cursor of the second item
        const up = await walk(path, 'after', '0', key);
        expect(await walk(path, 'after', middle, key), path).toEqual(up.slice(2));
        expect(await walk(path, 'before', middle, key), path).toEqual([up[0]]);
      }
    });

    test('a cursor that cannot be read, or both cursors, is a 400 invalid-query on every list', async () => {
      for (const { path } of lists) {
        for (const query of ['after=abc', 'after=-1', 'after=1e3', 'before=x', 'before=', 'after=', 'after=1&before=2', `after=${TOP}0`, 'limit=0']) {
          const response = await service.call('GET', `${path}?${query}`);
          expect(response.status, `${path}?${query}`).toBe(400);
          expect(response.body.code, `${path}?${query}`).toBe('invalid-query');
        }
      }
    });

    test('every answer above is as the OpenAPI document says (status documented, body valid)', async () => {
      const check = await openApiChecker(service.url);
      expect(answers.length).toBeGreaterThan(50);
      expect(answers.map(check).filter((problem) => problem !== undefined)).toEqual([]);
    });
  });
}
