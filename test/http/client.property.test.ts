import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiError, createPassClient, createPassHandler, type PassClient } from '../../src/http/index.js';
import { pathSegmentText, RUNS } from '../arbitraries.js';
import { apiKey, makePass } from './fixtures.js';
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
