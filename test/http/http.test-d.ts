import { describe, expectTypeOf, test } from 'vitest';
import {
  ApiError,
  bearerAuth,
  createPassClient,
  createPassHandler,
  type Authenticate,
  type PassClient,
  type PassHandler,
  type Problem,
  type ProblemCode,
} from '../../src/http/index.js';
import type { Pass, PassTemplate } from '../../src/types.js';

describe('passmint/http types', () => {
  test('the client returns typed results', () => {
    const client = createPassClient({ baseUrl: 'https://passes.example.com', apiKey: 'key' });
    expectTypeOf(client).toEqualTypeOf<PassClient>();
    expectTypeOf(client.getPassJson('pass.x', '1')).toEqualTypeOf<Promise<Pass>>();
    expectTypeOf(client.getTemplate(1, { signal: AbortSignal.timeout(1000) })).toEqualTypeOf<Promise<PassTemplate>>();
    // @ts-expect-error an id is a number
    void client.getTemplate('1');
    // Limits are numbers, per client and per call.
    createPassClient({ baseUrl: 'https://passes.example.com', apiKey: 'key', timeoutMs: 5000, maxResponseBytes: 65_536 });
    void client.getTemplate(1, { timeoutMs: 2000 });
    // @ts-expect-error a time limit is a number
    createPassClient({ baseUrl: 'https://passes.example.com', apiKey: 'key', timeoutMs: '5s' });
  });

  test('the handler is a Fetch-API function', () => {
    const handler = createPassHandler({
      authenticate: bearerAuth(['key']),
      findPass: async (passTypeIdentifier, serialNumber) => {
        expectTypeOf(passTypeIdentifier).toEqualTypeOf<string>();
        expectTypeOf(serialNumber).toEqualTypeOf<string>();
        return undefined;
      },
      findTemplate: (id) => {
        expectTypeOf(id).toEqualTypeOf<number>();
        return null;
      },
    });
    expectTypeOf(handler).toEqualTypeOf<PassHandler>();
    expectTypeOf(handler).returns.toEqualTypeOf<Promise<Response>>();
    expectTypeOf(bearerAuth('key')).toExtend<Authenticate>();
  });

  test('a lookup must give a Pass or nothing', () => {
    createPassHandler({
      authenticate: () => true,
      // @ts-expect-error a template is not a pass
      findPass: (): PassTemplate | undefined => undefined,
      findTemplate: () => undefined,
    });
  });

  test('ApiError carries the problem', () => {
    const error = new ApiError(404, {
      type: 'https://passmint.dev/problems/not-found',
      title: 'Not found',
      status: 404,
      detail: '',
      code: 'not-found',
    });
    expectTypeOf(error.status).toEqualTypeOf<number>();
    expectTypeOf(error.problem).toEqualTypeOf<Problem>();
    expectTypeOf<'pass-not-found'>().toExtend<ProblemCode>();
    // The codes the client makes up when no usable answer arrived.
    expectTypeOf<'timeout' | 'network-error' | 'response-too-large'>().toExtend<ProblemCode>();
    expectTypeOf(error.problem.code).toExtend<string>();
  });
});
