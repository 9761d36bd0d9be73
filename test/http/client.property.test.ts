import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiError, createPassClient, createPassHandler, type PassClient } from '../../src/http/index.js';
import { validatePass } from '../../src/pass/validate.js';
import { validateTemplate } from '../../src/template/validate.js';
import { pathSegmentText, RUNS } from '../arbitraries.js';
import { apiKey, makePass, makeTemplate } from './fixtures.js';
import { serve, type Served } from './serve.js';

let received: [string, string] | undefined;
const handler = createPassHandler({
  authenticate: (request) => request.headers.get('authorization') === `Bearer ${apiKey}`,
  findPass: (passTypeIdentifier, serialNumber) => {
    received = [passTypeIdentifier, serialNumber];
    return passTypeIdentifier.startsWith('pass.com.example.') ? makePass(passTypeIdentifier, serialNumber) : undefined;
  },
  findTemplate: () => undefined,
});

let served: Served;
let client: PassClient;
beforeAll(async () => {
  served = await serve(handler);
  client = createPassClient({ baseUrl: served.origin, apiKey });
});
afterAll(async () => {
  await served.close();
});

describe('what the client asks for is exactly what findPass receives', () => {
  test('any two identifiers, over HTTP', async () => {
    await fc.assert(
      fc.asyncProperty(pathSegmentText, pathSegmentText, async (passTypeIdentifier, serialNumber) => {
        received = undefined;
        const error = await client.getPassJson(passTypeIdentifier, serialNumber).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(received).toEqual([passTypeIdentifier, serialNumber]);
        if (!passTypeIdentifier.startsWith('pass.com.example.')) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).problem.code).toBe('pass-not-found');
        }
      }),
      { numRuns: RUNS },
    );
  });

  // In process (the client's fetch calls the handler directly): the transport is covered above.
  test('and the pass comes back unchanged', async () => {
    const direct = createPassClient({
      baseUrl: 'http://passes.test',
      apiKey,
      fetch: (url, init) => handler(new Request(url, init)),
    });
    const passType = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/).map((name) => `pass.com.example.${name}`);
    await fc.assert(
      fc.asyncProperty(passType, pathSegmentText, async (passTypeIdentifier, serialNumber) => {
        received = undefined;
        const pass = await direct.getPassJson(passTypeIdentifier, serialNumber);
        expect(received).toEqual([passTypeIdentifier, serialNumber]);
        expect(pass).toEqual(makePass(passTypeIdentifier, serialNumber));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('whatever a server answers, the client gives a validated object or an ApiError', () => {
  const member = fc.oneof(fc.anything(), fc.string(), fc.integer(), fc.double(), fc.constant(null));
  const problemLike = fc
    .record(
      {
        type: member,
        title: member,
        status: member,
        detail: member,
        code: member,
        issues: fc.oneof(member, fc.array(member, { maxLength: 4 })),
      },
      { requiredKeys: [] },
    )
    .chain((value) => {
      const text = JSON.stringify(value) ?? 'null';
      // Sometimes with a "__proto__" member, written as text: an object literal would set the prototype instead.
      return fc.oneof(
        fc.constant(text),
        fc.jsonValue().map((proto) => `{"__proto__":${JSON.stringify(proto)}${text === '{}' ? '}' : `,${text.slice(1)}`}`),
      );
    });
  const body = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.jsonValue().map((value) => JSON.stringify(value)),
    problemLike,
    fc.constant(JSON.stringify(makePass('pass.com.example.member', 's'))),
    fc.constant(JSON.stringify(makeTemplate(7))),
    fc.constant(JSON.stringify({ ...makePass('pass.com.example.member', 's'), formatVersion: 2 })),
  );
  const contentType = fc.constantFrom('application/json', 'application/problem+json', 'text/plain', 'text/html', 'application/json; charset=utf-8', '');
  // A status the Fetch API can carry: 200–599.
  const status = fc.integer({ min: 200, max: 599 });

  test('any status, any content type, any body: a pass validatePass accepts, or an ApiError — never anything else', async () => {
    await fc.assert(
      fc.asyncProperty(status, contentType, body, fc.boolean(), async (code, type, text, askTemplate) => {
        const client = createPassClient({
          baseUrl: 'https://passes.example.com',
          apiKey,
          fetch: async () => {
            const nullBody = code === 204 || code === 205 || code === 304;
            return new Response(nullBody ? null : text, { status: code, headers: type === '' ? {} : { 'content-type': type } });
          },
        });
        const outcome = await (askTemplate ? client.getTemplate(7) : client.getPassJson('pass.com.example.member', 's')).then(
          (value: unknown) => ({ value }),
          (error: unknown) => ({ error }),
        );
        if ('value' in outcome) {
          expect(code >= 200 && code <= 299).toBe(true);
          expect((askTemplate ? validateTemplate(outcome.value) : validatePass(outcome.value)).ok).toBe(true);
        } else {
          expect(outcome.error).toBeInstanceOf(ApiError);
          const error = outcome.error as ApiError;
          expect(error.status).toBe(code);
          expect(typeof error.problem.code).toBe('string');
          expect(typeof error.problem.detail).toBe('string');
          expect(Number.isInteger(error.problem.status)).toBe(true);
          expect(Array.isArray(error.issues)).toBe(true);
          expect(typeof error.message).toBe('string');
        }
      }),
      { numRuns: RUNS },
    );
    // Nothing leaked onto Object.prototype from a "__proto__" member.
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});
