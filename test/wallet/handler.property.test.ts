import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RUNS } from '../arbitraries.js';
import { authenticationToken, deviceLibraryIdentifier, passTypeIdentifier, pushToken, serialNumber, walletFixture } from './fixtures.js';

// Whatever arrives, the handler answers with a status it documents, never
// 500 (its lookups do not fail here), never a stack trace.
const STATUSES = new Set([200, 201, 204, 304, 400, 401, 404, 405, 413, 414]);
const segment = fc.oneof(
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.constantFrom(
    '%',
    '%zz',
    '%C0%AF',
    '%ED%A0%80',
    '%00',
    '%2F',
    '..',
    '.',
    '',
    'v1',
    'devices',
    'registrations',
    'passes',
    'log',
    passTypeIdentifier,
    serialNumber,
    deviceLibraryIdentifier,
    '__proto__',
    'constructor',
  ),
  fc.stringMatching(/^[A-Za-z0-9._~%-]{0,10}$/),
);
const path = fc.oneof(
  fc.array(segment, { maxLength: 7 }).map((parts) => `/${parts.join('/')}`),
  fc.tuple(segment, segment, segment).map(([a, b, c]) => `/v1/devices/${a}/registrations/${b}/${c}`),
  fc.tuple(segment, segment).map(([a, b]) => `/v1/devices/${a}/registrations/${b}`),
  fc.tuple(segment, segment).map(([a, b]) => `/v1/passes/${a}/${b}`),
  fc.constant('/v1/log'),
);
const query = fc.oneof(
  fc.constant(''),
  fc.string({ maxLength: 12 }).map((text) => `?passesUpdatedSince=${encodeURIComponent(text)}`),
  fc.constantFrom('?passesUpdatedSince=%zz', '?passesUpdatedSince=0', '?a=b&passesUpdatedSince=1'),
);
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH');
const body = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 40 }),
  fc.constantFrom(`{"pushToken":"${pushToken}"}`, '{"pushToken":"zz"}', '{"logs":["a"]}', '{"logs":[1]}', '{"__proto__":{"x":1}}', 'null', '[]', '{', '\u0000'),
  fc.json({ maxDepth: 3 }),
);
const headers = fc.record(
  {
    authorization: fc.oneof(
      fc.constant(`ApplePass ${authenticationToken}`),
      fc.string({ maxLength: 20 }).map((text) => `ApplePass ${text.replace(/[^\x21-\x7e]/g, '')}`),
      fc.constantFrom('Bearer x', 'ApplePass', 'applepass  ' + authenticationToken),
    ),
    'if-modified-since': fc.oneof(
      fc.constantFrom('Mon, 23 Nov 2026 09:30:15 GMT', 'Sun, 06 Nov 1994 08:49:37 GMT', 'garbage', 'Mon, 31 Feb 2026 00:00:00 GMT'),
      fc.string({ maxLength: 30 }).map((text) => text.replace(/[^\x20-\x7e]/g, '')),
    ),
    'content-type': fc.constantFrom('application/json', 'text/plain', ''),
  },
  { requiredKeys: [] },
);

describe('createWalletHandler on any request', () => {
  test('answers a documented status, never 500, never throws, never leaks a stack', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, headers, body, async (verb, where, search, sent, payload) => {
        const { handler } = walletFixture({ maxBodyBytes: 64 });
        const hasBody = payload !== undefined && verb !== 'GET' && verb !== 'HEAD';
        const response = await handler(
          new Request(`https://passes.example.com${where}${search}`, { method: verb, headers: sent, ...(hasBody ? { body: payload } : {}) }),
        );
        expect(STATUSES.has(response.status)).toBe(true);
        const text = await response.text();
        expect(text).not.toMatch(/\bat [\w.<>]+ \(|Error:|node:internal/);
        if (response.status >= 400 && verb !== 'HEAD') expect(JSON.parse(text)).toMatchObject({ status: response.status });
        expect(({} as Record<string, unknown>)['x']).toBeUndefined();
      }),
      { numRuns: RUNS },
    );
  });
});
