// Hostile requests: whatever the path, method, headers and body, the
// service answers — 2xx, or a 4xx problem+json with a stable code — and
// never a 500 (the harness fails the file if the service reported an error).
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { RUNS } from '../arbitraries.js';
import { ENGINES, type TestDatabase } from './databases.js';
import { startService, type Service } from './harness.js';

let database: TestDatabase;
let service: Service;

beforeAll(async () => {
  database = await ENGINES[0]!.open(); // PGlite: the same SQL as PostgreSQL, in memory
  service = await startService(database);
  // Something to find: template 1 and pass S of type pass.com.example.x.
  await service.call('POST', '/v1/templates', {
    name: 'T',
    formatVersion: 1,
    passType: 'pass.com.example.x',
    description: { generic: { primaryFields: [{ key: 'k', value: '${v}' }] } },
    placeholder: ['v'],
  });
  await service.call('POST', '/v1/templates/1/passes', { values: { v: 'x' }, serialNumber: 'S' });
});

afterAll(async () => {
  await service?.close();
  await database?.dispose();
});

const segment = fc.oneof(
  fc.constantFrom(
    'v1',
    'templates',
    'passes',
    'webhooks',
    'events',
    'files',
    'values',
    'passjson',
    'pkpass',
    'replay',
    'verify',
    'disable',
    'secret',
    'deliveries',
    '1',
    '0',
    '-1',
    '99999999999',
    'pass.com.example.x',
    '..',
    '.',
    '%2F',
    '%00',
    '%E0%A4',
    '%ZZ',
    '__proto__',
    'constructor',
    'S',
    'icon.png',
    '00000000-0000-4000-8000-000000000000',
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const path = fc.array(segment, { minLength: 0, maxLength: 6 }).map((parts) => `/${parts.join('/')}`);
const query = fc.oneof(
  fc.constant(''),
  fc.constantFrom('?limit=0', '?limit=101', '?limit=abc', '?after=-1', '?before=1e3', '?templateId=x', '?token=', '?limit=1&after=0'),
);
const body = fc.oneof(
  fc.constant(undefined),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    '{"url": "http://127.0.0.1/x"}',
    '{"values": {"__proto__": {"x": 1}}}',
    '{"name": 1, "formatVersion": 1}',
    '[]',
    'null',
    '{"webhookId": "nope"}',
    '{"values": {"v": [1, {"a": null}]}}',
    '{"v": {"deep": [[[]]]}}',
    '{"values": {"v": "y"}, "serialNumber": ""}',
  ),
);

test('no request makes the service answer 500 or anything but JSON problems for its mistakes', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
      path,
      query,
      body,
      fc.boolean(),
      async (method, target, search, payload, authorized) => {
        const headers: Record<string, string> = authorized ? { authorization: `Bearer ${service.key}` } : {};
        if (payload !== undefined) headers['content-type'] = 'application/json';
        const response = await fetch(`${service.url}${target}${search}`, {
          method,
          headers,
          ...(payload === undefined || method === 'GET' || method === 'HEAD' ? {} : { body: payload }),
        });
        const text = await response.text();
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400 && method !== 'HEAD') {
          expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          expect(JSON.parse(text)).toMatchObject({ status: response.status, code: expect.any(String) });
        }
      },
    ),
    { numRuns: Math.min(RUNS, 300) },
  );
}, 120_000);
