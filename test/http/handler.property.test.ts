import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { bearerAuth } from '../../src/http/bearer-auth.js';
import { createPassHandler } from '../../src/http/handler.js';
import { RUNS } from '../arbitraries.js';
import { apiKey, makePass, makeTemplate } from './fixtures.js';

// Whatever arrives, the handler answers with a status it documents, and a 5xx
// body never shows internals (the lookups throw messages that must not leak).
const handler = createPassHandler({
  authenticate: bearerAuth([apiKey]),
  findPass: (passTypeIdentifier, serialNumber) => {
    if (serialNumber.length % 3 === 0) throw new Error('secret internal detail');
    return serialNumber.length % 3 === 1 ? makePass(passTypeIdentifier, serialNumber) : undefined;
  },
  findTemplate: (id) => {
    if (id % 2 === 0) return Promise.reject(new Error('secret internal detail'));
    return makeTemplate(id);
  },
});

const STATUSES = new Set([200, 304, 400, 401, 404, 405, 406, 414, 500]);
const segment = fc.oneof(
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.constantFrom('%', '%zz', '%C0%AF', '%ED%A0%80', '..', '.', '', '%2F', 'passjson', 'v1', 'passes', 'templates', '1', '0', '-1', '1e3'),
  fc.stringMatching(/^[A-Za-z0-9._~%-]{0,10}$/),
);
const path = fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join('/')}`);
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH');
const headers = fc.record(
  {
    authorization: fc.oneof(
      fc.constant(`Bearer ${apiKey}`),
      fc.string({ maxLength: 20 }).map((text) => `Bearer ${text.replace(/[^\x21-\x7e]/g, '')}`),
      fc.constant('Basic x'),
    ),
    accept: fc.constantFrom('application/json', '*/*', 'text/html', 'application/json;q=0', 'application/*', ''),
    'if-none-match': fc.constantFrom('*', '"x"', 'W/"x"', ''),
  },
  { requiredKeys: [] },
);

describe('createPassHandler on any request', () => {
  test('answers a documented status, never throws, never leaks internals', async () => {
    await fc.assert(
      fc.asyncProperty(path, method, headers, async (pathname, verb, given) => {
        const request = new Request(`http://127.0.0.1${pathname}`, { method: verb, headers: given });
        const response = await handler(request);
        expect(STATUSES.has(response.status)).toBe(true);
        const body = await response.text();
        expect(body).not.toContain('secret internal detail');
        expect(body).not.toMatch(/\bat .*\.(ts|js):\d+/);
        if (response.status >= 400) {
          expect(response.headers.get('content-type')).toBe('application/problem+json');
          if (verb !== 'HEAD') expect((JSON.parse(body) as { status: number }).status).toBe(response.status);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
