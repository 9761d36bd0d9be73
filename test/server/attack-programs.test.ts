// Attacks on running a pass program: a bulk void whose filter comes as a body (ignored, it would void
// every pass for good), and filters PostgreSQL cannot hold (a NUL, a year out of its range) in the
// search and the bulk void: each a 4xx naming the parameter, nothing voided, never a 500.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

const TEMPLATE = {
  name: 'Program',
  formatVersion: 1,
  passType: 'pass.com.example.program',
  description: { generic: { primaryFields: [{ key: 'n', value: '${n}' }] } },
  placeholder: ['n'],
};

describe.each(ENGINES)('attacks on programs ($name)', (engine) => {
  let database: TestDatabase;
  let service: Service;
  let id: number;

  beforeAll(async () => {
    database = await engine.open();
    service = await startService(database);
    id = (await service.call('POST', '/v1/templates', TEMPLATE)).body.id;
    for (const serial of ['P-1', 'P-2']) {
      expect((await service.call('POST', `/v1/templates/${id}/passes`, { serialNumber: serial, values: { n: serial } })).status).toBe(201);
    }
  });

  afterAll(async () => {
    await service?.close();
    await database?.dispose();
  });

  const states = async (): Promise<string[]> =>
    (await service.call('GET', `/v1/passes?templateId=${id}`)).body.items.map((item: { state: string }) => item.state);

  test('a bulk void with its filter in a body is a 422 and voids nothing (a body `{}` is no filter: it is taken)', async () => {
    const refused = await service.call('POST', `/v1/templates/${id}/passes/void`, { serialNumber: 'P-1' });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('invalid-body');
    expect(await states()).toEqual(['active', 'active']);
    const filtered = await service.call('POST', `/v1/templates/${id}/passes/void?serialNumber=nobody`, {});
    expect(filtered.status).toBe(202);
    expect(filtered.body.rows).toBe(0);
  });

  test.each([
    ['serialNumber=%00', 'serialNumber'],
    ['values.n=a%00', 'values.n'],
    ['updatedSince=0000-01-01T00:00:00Z', 'updatedSince'],
    ['updatedSince=9999-12-31T23:00:00-05:00', 'updatedSince'],
  ])('?%s is a 400 naming `%s` in the search and the bulk void, never a 500', async (query, name) => {
    for (const [method, path] of [
      ['GET', `/v1/passes?templateId=${id}&${query}`],
      ['POST', `/v1/templates/${id}/passes/void?${query}`],
    ] as const) {
      const answer = await service.call(method, path);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('invalid-query');
      expect(answer.body.detail).toContain(`\`${name}\``);
    }
    expect(await states()).toEqual(['active', 'active']);
  });

  test('a message whose header, body or filter holds a NUL (or a year out of range) is a 422 naming it, nothing sent', async () => {
    const made = await service.call('POST', '/v1/templates', {
      ...TEMPLATE,
      name: 'With messages',
      placeholder: ['n', 'messageTitle', 'message'],
      description: {
        generic: {
          primaryFields: [{ key: 'n', value: '${n}' }],
          backFields: [{ key: 'message', label: '${messageTitle}', value: '${message}', changeMessage: '%@' }],
        },
      },
    });
    expect(made.status).toBe(201);
    const withMessages = made.body.id;
    const pass = await service.call('POST', `/v1/templates/${withMessages}/passes`, { serialNumber: 'M-1', values: { n: 'm', messageTitle: '', message: '' } });
    expect(pass.status).toBe(201);
    for (const [body, where] of [
      [{ header: 'a\u0000', body: 'b' }, '/header'],
      [{ header: 'a', body: '\u0000' }, '/body'],
      [{ header: 'a', body: 'b', filter: { serialNumber: '\u0000' } }, '/filter'],
      [{ header: 'a', body: 'b', filter: { updatedSince: '0000-01-01T00:00:00Z' } }, '/filter'],
    ] as const) {
      const answer = await service.call('POST', `/v1/templates/${withMessages}/messages`, body);
      expect(answer.status).toBe(422);
      expect(answer.body.code).toBe('invalid-body');
      expect(answer.body.detail.startsWith(where)).toBe(true);
    }
    expect((await service.call('GET', `/v1/templates/${withMessages}/messages`)).body.items).toEqual([]);
  });

  test.each([
    [{ passTypeIdentifier: 'pass.com.example.program\u0000', serialNumber: 'P-1' }, '/passes/0/passTypeIdentifier'],
    [{ passTypeIdentifier: 'pass.com.example.program', serialNumber: 'P-1\u0000' }, '/passes/0/serialNumber'],
  ])('a bundle naming a pass with a NUL is a 422 at %j, not a 500', async (pass, where) => {
    const answer = await service.call('POST', '/v1/bundles', { passes: [pass] });
    expect(answer.status).toBe(422);
    expect(answer.body.code).toBe('invalid-body');
    expect(answer.body.detail.startsWith(where)).toBe(true);
  });
});
