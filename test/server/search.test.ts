// GET /v1/passes searches: templateId, serialNumber, updatedSince and
// values.NAME=VALUE (several: all must hold), paged by the seq cursor; an
// unknown, repeated or malformed filter is a 400 naming it, never ignored.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';
import { openApiChecker, recordAnswers, type Answer } from './openapi-check.js';

const template = (name: string) => ({
  name,
  formatVersion: 1,
  passType: 'pass.com.example.search',
  description: { storeCard: { primaryFields: [{ key: 'n', value: '${name}' }], secondaryFields: [{ key: 't', value: '${tier} ${points}' }] } },
  placeholder: ['name', 'tier', 'points'],
});

for (const engine of ENGINES) {
  describe(`search on ${engine.name}`, () => {
    let database: TestDatabase;
    let service: Service;
    const answers: Answer[] = [];
    let members: number;
    let guests: number;

    const serials = async (query: string): Promise<string[]> => {
      const answer = await service.call('GET', `/v1/passes?${query}`);
      expect(answer.status).toBe(200);
      return answer.body.items.map((item: { serialNumber: string }) => item.serialNumber);
    };

    beforeAll(async () => {
      database = await engine.open();
      service = recordAnswers(await startService(database), answers);
      members = (await service.call('POST', '/v1/templates', template('Members'))).body.id;
      guests = (await service.call('POST', '/v1/templates', template('Guests'))).body.id;
      const people = [
        ['M-1', members, { name: 'Ada', tier: 'gold', points: 10 }],
        ['M-2', members, { name: 'Grace', tier: 'gold', points: '20' }],
        ['M-3', members, { name: 'Alan', tier: 'silver', points: 10 }],
        ['M-4', members, { name: 'Ada', tier: 'silver', points: 30 }],
        ['G-1', guests, { name: 'Ada', tier: 'gold', points: 10 }],
      ] as const;
      for (const [serialNumber, id, values] of people) {
        expect((await service.call('POST', `/v1/templates/${id}/passes`, { serialNumber, values })).status).toBe(201);
      }
    });
    afterAll(async () => {
      await service?.close();
      await database?.dispose();
    });

    test('by a placeholder value, by two (AND), across templates', async () => {
      expect(await serials(`templateId=${members}&values.tier=gold`)).toEqual(['M-1', 'M-2']);
      expect(await serials(`templateId=${members}&values.tier=silver&values.name=Ada`)).toEqual(['M-4']);
      expect(await serials(`templateId=${members}&values.tier=gold&values.name=Alan`)).toEqual([]);
      expect(await serials('values.name=Ada')).toEqual(['M-1', 'M-4', 'G-1']);
      // Exact: no prefix or case-insensitive match.
      expect(await serials('values.name=ad')).toEqual([]);
      // A value stored as a number matches its text, and one stored as text too.
      expect(await serials(`templateId=${members}&values.points=10`)).toEqual(['M-1', 'M-3']);
      expect(await serials(`templateId=${members}&values.points=20`)).toEqual(['M-2']);
    });

    test('by serial number, by template, by time changed', async () => {
      expect(await serials('serialNumber=G-1')).toEqual(['G-1']);
      expect(await serials(`serialNumber=G-1&templateId=${members}`)).toEqual([]);
      expect(await serials(`templateId=${guests}`)).toEqual(['G-1']);
      const cut = new Date(Date.now() - 1000).toISOString();
      expect((await serials(`updatedSince=${cut}&templateId=${members}`)).length).toBe(4);
      expect(await serials('updatedSince=2999-01-01T00:00:00Z')).toEqual([]);
      // An offset written with + (encoded), and one sent unencoded (a space once decoded).
      expect((await serials('updatedSince=2000-01-01T00:00:00%2B02:00')).length).toBe(5);
      expect((await serials('updatedSince=2000-01-01T00:00:00+02:00')).length).toBe(5);
      // A change moves a pass into the window.
      const before = new Date().toISOString();
      expect((await service.call('PUT', '/v1/passes/pass.com.example.search/M-3/values', { name: 'Alan', tier: 'gold', points: 10 })).status).toBe(200);
      expect(await serials(`updatedSince=${encodeURIComponent(before)}`)).toEqual(['M-3']);
      expect(await serials(`templateId=${members}&values.tier=gold`)).toEqual(['M-1', 'M-2', 'M-3']);
    });

    test('pages of a search keep to the seq cursor', async () => {
      const first = await service.call('GET', '/v1/passes?values.name=Ada&limit=2');
      expect(first.body.items.map((item: { serialNumber: string }) => item.serialNumber)).toEqual(['M-1', 'M-4']);
      const second = await service.call('GET', `/v1/passes?values.name=Ada&limit=2&after=${first.body.next}`);
      expect([second.body.items.map((item: { serialNumber: string }) => item.serialNumber), second.body.next]).toEqual([['G-1'], null]);
      const back = await service.call('GET', '/v1/passes?values.name=Ada&limit=2&before=999999999999999');
      expect(back.body.items.map((item: { serialNumber: string }) => item.serialNumber)).toEqual(['G-1', 'M-4']);
    });

    test('an unknown, repeated or malformed filter is 400 invalid-query naming it', async () => {
      const cases: [string, string][] = [
        ['templateID=1', 'templateID'],
        ['value.name=Ada', 'value.name'],
        [`templateId=${members}&values.colour=red`, 'values.colour'],
        ['values.=x', 'values.'],
        ['values.name=Ada&values.name=Grace', 'values.name'],
        ['templateId=abc', 'templateId'],
        ['updatedSince=yesterday', 'updatedSince'],
        ['updatedSince=2025-02-30T00:00:00Z', 'updatedSince'],
        ['updatedSince=2025-03-01T00:00:00', 'updatedSince'],
        ['serialNumber=', 'serialNumber'],
        ['escapeFormulas=true', 'escapeFormulas'],
      ];
      for (const [query, name] of cases) {
        const answer = await service.call('GET', `/v1/passes?${query}`);
        expect([query, answer.status, answer.body.code]).toEqual([query, 400, 'invalid-query']);
        expect(answer.body.detail).toContain(name);
      }
    });

    test('the answers match the OpenAPI document', async () => {
      const check = await openApiChecker(service.url);
      expect(answers.length).toBeGreaterThan(20);
      expect(answers.map(check).filter((problem) => problem !== undefined)).toEqual([]);
    });
  });
}
