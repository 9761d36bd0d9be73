import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { PassmintError } from '../../src/errors.js';
import { ApiError, bearerAuth, createPassClient, createPassHandler, type FetchLike, type PassClient } from '../../src/http/index.js';
import type { Pass, PassTemplate } from '../../src/types.js';
import { apiKey, makePass, makeTemplate } from './fixtures.js';
import { serve, type Served } from './serve.js';

const passType = 'pass.com.example.member';
const received: [string, string][] = [];
let release: (() => void) | undefined;

const handler = createPassHandler({
  authenticate: bearerAuth([apiKey]),
  findPass: async (passTypeIdentifier, serialNumber) => {
    received.push([passTypeIdentifier, serialNumber]);
    if (serialNumber === 'hang') await new Promise<void>((resolve) => (release = resolve));
    if (serialNumber === 'boom') throw new Error('secret');
    return serialNumber === 'missing' ? undefined : makePass(passTypeIdentifier, serialNumber);
  },
  findTemplate: (id) => (id === 404 ? undefined : makeTemplate(id)),
  basePath: '/api',
});

let served: Served;
let client: PassClient;
beforeAll(async () => {
  served = await serve(handler);
  client = createPassClient({ baseUrl: `${served.origin}/api/`, apiKey });
});
afterAll(async () => {
  release?.();
  await served.close();
});
beforeEach(() => {
  received.length = 0;
});

/** A fetch that answers every call with the same response and records what it was asked. */
function fake(makeResponse: () => Response): { fetch: FetchLike; calls: { url: string; init: RequestInit }[] } {
  const calls: { url: string; init: RequestInit }[] = [];
  return {
    calls,
    fetch: async (url, init) => {
      calls.push({ url, init });
      return makeResponse();
    },
  };
}

function json(body: unknown, status = 200, contentType = 'application/json'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': contentType } });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('round trips through a real server', () => {
  test.each([
    'E5982H-I2',
    'a b',
    'a/b',
    '/leading',
    'trailing/',
    '100%',
    '%2F',
    '%252F',
    'caf\u00e9 \u{1F39F} \u4f1a\u54e1',
    '?query#hash&and+plus=',
    '../../etc/passwd',
    '.hidden',
    '...',
    "!*'();:@$,",
    '\\back\\slash',
    '\t\n',
  ])('serial number %j arrives exactly and comes back', async (serialNumber) => {
    const pass: Pass = await client.getPassJson(passType, serialNumber);
    expect(pass).toEqual(makePass(passType, serialNumber));
    expect(received).toEqual([[passType, serialNumber]]);
  });

  test('a pass type identifier with a slash arrives exactly (validatePass only warns about it)', async () => {
    const pass = await client.getPassJson('pass.com.example/member', 'x');
    expect(received).toEqual([['pass.com.example/member', 'x']]);
    expect(pass.passTypeIdentifier).toBe('pass.com.example/member');
  });

  test('a template comes back typed', async () => {
    const template: PassTemplate = await client.getTemplate(7);
    expect(template).toEqual(makeTemplate(7));
    expect((await client.getTemplate(Number.MAX_SAFE_INTEGER)).id).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('ApiError from the handler', () => {
  test('an unknown pass', async () => {
    const error = await apiError(client.getPassJson(passType, 'missing'));
    expect(error).toBeInstanceOf(PassmintError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.status).toBe(404);
    expect(error.code).toBe('pass-not-found');
    expect(error.problem).toEqual({
      type: 'https://passmint.dev/problems/pass-not-found',
      title: 'Pass not found',
      status: 404,
      detail: `No pass with serial number "missing" and type "${passType}" exists.`,
      code: 'pass-not-found',
    });
    expect(error.message).toBe(`404 Pass not found: No pass with serial number "missing" and type "${passType}" exists`);
    expect(error.issues).toEqual([]);
  });

  test('an unknown template', async () => {
    const error = await apiError(client.getTemplate(404));
    expect([error.status, error.problem.code]).toEqual([404, 'template-not-found']);
  });

  test('a wrong key', async () => {
    const wrong = createPassClient({ baseUrl: `${served.origin}/api`, apiKey: 'not-the-key' });
    const error = await apiError(wrong.getTemplate(1));
    expect([error.status, error.problem.code]).toEqual([401, 'invalid-credentials']);
  });

  test('a failing lookup', async () => {
    const error = await apiError(client.getPassJson(passType, 'boom'));
    expect([error.status, error.problem.code, error.problem.detail]).toEqual([500, 'internal-error', 'The server could not answer this request.']);
  });

  test('a base URL without the base path', async () => {
    const lost = createPassClient({ baseUrl: served.origin, apiKey });
    const error = await apiError(lost.getTemplate(1));
    expect([error.status, error.problem.code]).toEqual([404, 'not-found']);
  });
});

describe('ApiError from other servers', () => {
  test('a body that is not a problem gets a made-up http-error problem', async () => {
    const { fetch } = fake(() => new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } }));
    const error = await apiError(createPassClient({ baseUrl: 'https://passes.example.com', apiKey, fetch }).getTemplate(1));
    expect(error.status).toBe(502);
    expect(error.problem).toEqual({
      type: 'https://passmint.dev/problems/http-error',
      title: 'HTTP error',
      status: 502,
      detail: 'The server answered 502 Bad Gateway without a problem body.',
      code: 'http-error',
    });
  });

  test('a JSON error without problem members is completed, keeping its own members', async () => {
    const { fetch } = fake(() => json({ message: 'slow down', retryAfter: 30 }, 429));
    const error = await apiError(createPassClient({ baseUrl: 'https://passes.example.com', apiKey, fetch }).getTemplate(1));
    expect(error.status).toBe(429);
    expect(error.message).toBe('429 HTTP error');
    expect(error.problem).toEqual({
      message: 'slow down',
      retryAfter: 30,
      type: 'about:blank',
      title: 'HTTP error',
      status: 429,
      detail: '',
      code: 'http-error',
    });
  });

  test('a foreign problem keeps its type, code and extensions', async () => {
    const problem = { type: 'https://example.com/probs/quota', title: 'Quota', status: 403, detail: 'Out of quota', code: 'quota', balance: 0 };
    const { fetch } = fake(() => json(problem, 403, 'application/problem+json'));
    const error = await apiError(createPassClient({ baseUrl: 'https://passes.example.com', apiKey, fetch }).getTemplate(1));
    expect(error.problem).toEqual(problem);
    expect(error.code).toBe('quota');
  });

  test('an unreadable JSON error body is an http-error', async () => {
    const { fetch } = fake(() => new Response('{"type":', { status: 500, headers: { 'content-type': 'application/problem+json' } }));
    const error = await apiError(createPassClient({ baseUrl: 'https://passes.example.com', apiKey, fetch }).getTemplate(1));
    expect([error.status, error.problem.code, error.problem.detail]).toEqual([500, 'http-error', 'The server answered 500 without a problem body.']);
  });
});

describe('invalid-response', () => {
  const baseUrl = 'https://passes.example.com';

  test('a 2xx body that is not JSON', async () => {
    const { fetch } = fake(() => new Response('<html>captive portal</html>', { status: 200 }));
    const error = await apiError(createPassClient({ baseUrl, apiKey, fetch }).getPassJson(passType, '1'));
    expect([error.status, error.problem.code, error.problem.detail]).toEqual([200, 'invalid-response', 'The body of the response is not JSON.']);
  });

  test('a 2xx pass that fails validatePass carries its issues', async () => {
    const broken = { ...makePass(passType, '1'), formatVersion: 2 };
    const { fetch } = fake(() => json(broken));
    const error = await apiError(createPassClient({ baseUrl, apiKey, fetch }).getPassJson(passType, '1'));
    expect([error.status, error.problem.code]).toEqual([200, 'invalid-response']);
    expect(error.issues.some((issue) => issue.severity === 'error' && issue.path === '/formatVersion')).toBe(true);
    expect(error.problem.issues).toBe(error.issues);
    expect(error.problem.detail).toBe('The server sent a pass that validatePass rejects.');
    expect(error.message).toMatch(/^200 Invalid response: The server sent a pass that validatePass rejects: .+ at \/formatVersion/);
  });

  test('a 2xx template that fails validateTemplate carries its issues', async () => {
    const { fetch } = fake(() => json({ ...makeTemplate(3), placeholder: 'name' }));
    const error = await apiError(createPassClient({ baseUrl, apiKey, fetch }).getTemplate(3));
    expect(error.problem.code).toBe('invalid-response');
    expect(error.issues.some((issue) => issue.severity === 'error')).toBe(true);
  });

  test('a 2xx body that is null or an array', async () => {
    for (const body of [null, [], 'text', 42]) {
      const { fetch } = fake(() => json(body));
      const error = await apiError(createPassClient({ baseUrl, apiKey, fetch }).getTemplate(3));
      expect(error.problem.code).toBe('invalid-response');
    }
  });

  test('a valid pass, but not the one asked for', async () => {
    const { fetch } = fake(() => json(makePass(passType, 'other')));
    const error = await apiError(createPassClient({ baseUrl, apiKey, fetch }).getPassJson(passType, 'mine'));
    expect([error.problem.code, error.problem.detail]).toEqual([
      'invalid-response',
      `The server sent pass "other" of type "${passType}", not the one asked for.`,
    ]);
  });

  test('a valid template, but not the one asked for', async () => {
    const { fetch } = fake(() => json(makeTemplate(8)));
    const error = await apiError(createPassClient({ baseUrl, apiKey, fetch }).getTemplate(7));
    expect([error.problem.code, error.problem.detail]).toEqual(['invalid-response', 'The server sent template 8, not 7.']);
  });
});

describe('what the client sends', () => {
  test('encoded path segments, the key, Accept, and the caller headers', async () => {
    const { fetch, calls } = fake(() => json(makePass(passType, 'a b/c%')));
    const custom = createPassClient({
      baseUrl: new URL('https://passes.example.com/base//'),
      apiKey,
      fetch,
      headers: { 'user-agent': 'example/1.0', authorization: 'Basic bad', accept: 'text/html' },
    });
    await custom.getPassJson(passType, 'a b/c%');
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe(`https://passes.example.com/base/v1/passes/${passType}/a%20b%2Fc%25/passjson`);
    expect(call?.init.method).toBe('GET');
    const headers = new Headers(call?.init.headers);
    expect(headers.get('authorization')).toBe(`Bearer ${apiKey}`);
    expect(headers.get('accept')).toBe('application/json');
    expect(headers.get('user-agent')).toBe('example/1.0');
    // The client's own signal: its time limit joined with the caller's.
    expect(call?.init.signal).toBeInstanceOf(AbortSignal);
    expect(call?.init.signal?.aborted).toBe(false);
  });

  test('the template id is written in decimal', async () => {
    const { fetch, calls } = fake(() => json(makeTemplate(Number.MAX_SAFE_INTEGER)));
    await createPassClient({ baseUrl: 'http://localhost:8080', apiKey, fetch }).getTemplate(Number.MAX_SAFE_INTEGER);
    expect(calls[0]?.url).toBe('http://localhost:8080/v1/templates/9007199254740991');
  });
});

describe('arguments that cannot be sent reject before any request', () => {
  const { fetch, calls } = fake(() => json({}));
  const offline = createPassClient({ baseUrl: 'https://passes.example.com', apiKey, fetch });

  test.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('getTemplate(%d) is a RangeError', async (id) => {
    expect(await rejection(offline.getTemplate(id))).toBeInstanceOf(RangeError);
    expect(calls).toEqual([]);
  });

  test('getTemplate with a non-number is a TypeError', async () => {
    for (const id of ['1', 1n, null, undefined, {}]) {
      expect(await rejection(offline.getTemplate(id as number))).toBeInstanceOf(TypeError);
    }
    expect(calls).toEqual([]);
  });

  test.each([
    ['', 'x'],
    ['x', ''],
    ['.', 'x'],
    ['x', '.'],
    ['..', 'x'],
    ['x', '..'],
    ['x', 'lone \ud800 surrogate'],
  ])('getPassJson(%j, %j) is a RangeError', async (passTypeIdentifier, serialNumber) => {
    expect(await rejection(offline.getPassJson(passTypeIdentifier, serialNumber))).toBeInstanceOf(RangeError);
    expect(calls).toEqual([]);
  });

  test('getPassJson with a non-string is a TypeError', async () => {
    expect(await rejection(offline.getPassJson(passType, 42 as unknown as string))).toBeInstanceOf(TypeError);
    expect(await rejection(offline.getPassJson(undefined as unknown as string, 'x'))).toBeInstanceOf(TypeError);
    expect(calls).toEqual([]);
  });
});

describe('AbortSignal', () => {
  test('aborting a request in flight rejects with an AbortError', async () => {
    const controller = new AbortController();
    const pending = client.getPassJson(passType, 'hang', { signal: controller.signal });
    while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await rejection(pending);
    expect((error as Error).name).toBe('AbortError');
    release?.();
  });

  test('an aborted signal rejects at once, and the server is never asked', async () => {
    const error = await rejection(client.getTemplate(1, { signal: AbortSignal.abort() }));
    expect((error as Error).name).toBe('AbortError');
    expect(received).toEqual([]);
  });

  test('AbortSignal.timeout rejects with a TimeoutError', async () => {
    const error = await rejection(client.getPassJson(passType, 'hang', { signal: AbortSignal.timeout(30) }));
    expect((error as Error).name).toBe('TimeoutError');
    release?.();
  });
});

describe('createPassClient misuse', () => {
  test.each(['', 'passes.example.com', '/relative', 'ftp://example.com', 'https://example.com/?x=1', 'https://example.com/#x'])(
    'baseUrl %j is a TypeError',
    (baseUrl) => {
      expect(() => createPassClient({ baseUrl, apiKey })).toThrow(TypeError);
    },
  );

  test.each(['', 'two words', 'caf\u00e9', 42])('apiKey %j is a TypeError', (key) => {
    expect(() => createPassClient({ baseUrl: 'https://example.com', apiKey: key as string })).toThrow(TypeError);
  });

  test('fetch must be a function', () => {
    expect(() => createPassClient({ baseUrl: 'https://example.com', apiKey, fetch: 'no' as unknown as FetchLike })).toThrow(TypeError);
  });
});
