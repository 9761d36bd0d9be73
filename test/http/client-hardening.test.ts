import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { ApiError, createPassClient, type FetchLike } from '../../src/http/index.js';
import { apiKey, makePass } from './fixtures.js';

// The client does not trust the server: a body is read up to a cap, a call
// has a time limit of its own, and whatever comes back is an ApiError or a
// validated object — never a TypeError made from the server's bytes.

const passType = 'pass.com.example.member';
const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/** A raw node:http server on 127.0.0.1: the tests need control below what a handler can do. */
async function rawServer(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ origin: string; closedEarly: () => boolean }> {
  let closedEarly = false;
  const server = createServer((request, response) => {
    response.on('close', () => {
      if (!response.writableFinished) closedEarly = true;
    });
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closedEarly: () => closedEarly };
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

function fakeClient(respond: () => Response | Promise<Response>, options: { timeoutMs?: number; maxResponseBytes?: number } = {}) {
  const fetch: FetchLike = async () => respond();
  return createPassClient({ baseUrl: 'https://passes.example.com', apiKey, fetch, ...options });
}

describe('maxResponseBytes: the body is read up to the cap, then abandoned', () => {
  test('a 2 MB pass with Content-Length is refused before it is read', async () => {
    const { origin } = await rawServer((_, res) => {
      const body = JSON.stringify({ ...makePass(passType, '1'), padding: 'x'.repeat(2_000_000) });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
    });
    const error = await apiError(createPassClient({ baseUrl: origin, apiKey }).getPassJson(passType, '1'));
    expect([error.status, error.code]).toEqual([200, 'response-too-large']);
    expect(error.problem.detail).toBe("The response body is larger than 1048576 bytes (the client's maxResponseBytes).");
  });

  test('an endless chunked body: the client stops at the cap and hangs up', async () => {
    const server = await rawServer((_, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = (): void => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    const client = createPassClient({ baseUrl: server.origin, apiKey, maxResponseBytes: 256 * 1024 });
    const error = await apiError(client.getTemplate(1));
    expect(error.code).toBe('response-too-large');
    // The server notices the hang-up on its next write; wait for it (up to 5 s) rather than a fixed time.
    for (let tries = 0; tries < 500 && !server.closedEarly(); tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.closedEarly()).toBe(true);
  });

  test('an error body over the cap is response-too-large with the HTTP status', async () => {
    const { origin } = await rawServer((_, res) => {
      res.writeHead(503, { 'Content-Type': 'application/problem+json' }).end(JSON.stringify({ detail: 'y'.repeat(5000) }));
    });
    const error = await apiError(createPassClient({ baseUrl: origin, apiKey, maxResponseBytes: 1000 }).getTemplate(1));
    expect([error.status, error.code]).toEqual([503, 'response-too-large']);
  });

  test('a body of exactly the cap is read; multi-byte characters split across chunks survive', async () => {
    const pass = { ...makePass(passType, 'caf\u00e9 \u{1F39F}'), logoText: '\u4f1a\u54e1'.repeat(2000) };
    const body = Buffer.from(JSON.stringify(pass));
    const { origin } = await rawServer((_, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      // One byte at a time for the first 64 bytes, then the rest.
      for (let index = 0; index < 64; index++) res.write(body.subarray(index, index + 1));
      res.end(body.subarray(64));
    });
    const client = createPassClient({ baseUrl: origin, apiKey, maxResponseBytes: body.byteLength });
    expect(await client.getPassJson(passType, 'caf\u00e9 \u{1F39F}')).toEqual(pass);
  });
});

describe('timeoutMs: a time limit of the client’s own', () => {
  test('a server that never answers: ApiError, status 0, code timeout', async () => {
    const { origin } = await rawServer(() => undefined);
    const error = await apiError(createPassClient({ baseUrl: origin, apiKey, timeoutMs: 50 }).getTemplate(1));
    expect([error.status, error.code, error.problem.detail]).toEqual([0, 'timeout', 'No response within 50 ms.']);
  });

  test('a server that sends headers and stalls the body: timeout (the limit covers reading)', async () => {
    const { origin } = await rawServer((_, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"id":');
    });
    const error = await apiError(createPassClient({ baseUrl: origin, apiKey }).getTemplate(1, { timeoutMs: 80 }));
    expect([error.status, error.code]).toEqual([0, 'timeout']);
  });

  test("the caller's signal still wins with its own reason", async () => {
    const { origin } = await rawServer(() => undefined);
    const client = createPassClient({ baseUrl: origin, apiKey, timeoutMs: 60_000 });
    const error = await client.getTemplate(1, { signal: AbortSignal.timeout(30) }).catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('TimeoutError');
  });

  test('a fetch that ignores its signal still ends at the time limit', async () => {
    const client = fakeClient(() => new Promise<Response>(() => undefined), { timeoutMs: 30 });
    expect((await apiError(client.getTemplate(1))).code).toBe('timeout');
  });

  test('a body stream that never ends and ignores the signal still ends at the time limit', async () => {
    const client = fakeClient(() => new Response(new ReadableStream({ pull: () => new Promise(() => undefined) }), { status: 200 }), {
      timeoutMs: 30,
    });
    expect((await apiError(client.getTemplate(1))).code).toBe('timeout');
  });
});

describe('no response at all: ApiError with status 0', () => {
  test('nobody listening: network-error, the cause kept', async () => {
    const { origin } = await rawServer(() => undefined);
    await Promise.all(open.splice(0).map((server) => server.close()));
    const error = await apiError(createPassClient({ baseUrl: origin, apiKey }).getTemplate(1));
    expect([error.status, error.code, error.problem.status]).toEqual([0, 'network-error', 0]);
    expect(error.cause).toBeInstanceOf(Error);
  });

  test.each<[string, () => unknown]>([
    [
      'a fetch that throws',
      () => {
        throw new TypeError('fetch failed');
      },
    ],
    ['a fetch that resolves to undefined', () => undefined],
    ['a fetch that resolves to a plain object', () => ({ ok: true })],
    ['Response.error()', () => Response.error()],
  ])('%s: network-error', async (_, respond) => {
    const error = await apiError(fakeClient(respond as () => Response).getTemplate(1));
    expect([error.status, error.code]).toEqual([0, 'network-error']);
  });
});

describe('problem bodies are checked member by member', () => {
  const problem = (body: string, status = 500): Response => new Response(body, { status, headers: { 'content-type': 'application/problem+json' } });

  test('{"issues":"boom"} is an ApiError whose issues are the client’s own (none)', async () => {
    const error = await apiError(fakeClient(() => problem('{"issues":"boom"}')).getTemplate(1));
    expect([error.status, error.code, error.issues]).toEqual([500, 'http-error', []]);
    expect(error.problem).not.toHaveProperty('issues');
  });

  test.each([
    '{"issues":[null,1,"x"]}',
    '{"issues":[{"severity":"error"}]}',
    '{"status":"500","title":5,"detail":{},"code":[]}',
    '{"status":1e400,"type":null}',
    '{"status":200.5}',
    '{"code":""}',
    '{"title":{"toString":"x"}}',
    'null',
    '[]',
    '"text"',
    '12',
    '{',
    '',
    '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[',
  ])('%s → an ApiError with a well-formed problem', async (body) => {
    const error = await apiError(fakeClient(() => problem(body, 502)).getTemplate(1));
    expect(error.status).toBe(502);
    expect(error.problem).toMatchObject({
      type: expect.any(String),
      title: expect.any(String),
      status: expect.any(Number),
      detail: expect.any(String),
      code: expect.stringMatching(/.+/),
    });
    expect(Number.isInteger(error.problem.status)).toBe(true);
    expect(error.issues).toEqual([]);
    expect(typeof error.message).toBe('string');
  });

  test('a deeply nested body (200 000 levels) is an ApiError, not a stack overflow', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const error = await apiError(fakeClient(() => problem(deep)).getTemplate(1));
    expect(error.code).toBe('http-error');
  });

  test('"__proto__" in a problem stays a plain member; nothing is polluted', async () => {
    const error = await apiError(fakeClient(() => problem('{"__proto__":{"polluted":true},"code":"quota","status":429}', 429)).getTemplate(1));
    expect(error.code).toBe('quota');
    expect(Object.getPrototypeOf(error.problem)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(Object.hasOwn(error.problem, '__proto__')).toBe(true);
  });

  test('valid members and extensions are kept', async () => {
    const body = { type: 'https://example.com/quota', title: 'Quota', status: 429, detail: 'Slow down.', code: 'quota', retryIn: 30 };
    const error = await apiError(fakeClient(() => problem(JSON.stringify(body), 429)).getTemplate(1));
    expect(error.problem).toEqual(body);
  });
});

describe('options are checked when the client is made', () => {
  test.each([Number.NaN, 0, -1, 1.5, 2 ** 31, Number.POSITIVE_INFINITY])('timeoutMs %d is a RangeError', (timeoutMs) => {
    expect(() => createPassClient({ baseUrl: 'https://example.com', apiKey, timeoutMs })).toThrow(RangeError);
  });

  test.each([Number.NaN, 0, -1, 1.5, Number.POSITIVE_INFINITY])('maxResponseBytes %d is a RangeError', (maxResponseBytes) => {
    expect(() => createPassClient({ baseUrl: 'https://example.com', apiKey, maxResponseBytes })).toThrow(RangeError);
  });

  test('a number as a string is a TypeError', () => {
    expect(() => createPassClient({ baseUrl: 'https://example.com', apiKey, timeoutMs: '100' as unknown as number })).toThrow(TypeError);
    expect(() => createPassClient({ baseUrl: 'https://example.com', apiKey, maxResponseBytes: '1' as unknown as number })).toThrow(TypeError);
  });

  test('a per-call timeoutMs out of range rejects with a RangeError before any request', async () => {
    let calls = 0;
    const client = createPassClient({
      baseUrl: 'https://example.com',
      apiKey,
      fetch: async () => {
        calls++;
        return new Response('{}');
      },
    });
    expect(await client.getTemplate(1, { timeoutMs: Number.NaN }).catch((error: unknown) => error)).toBeInstanceOf(RangeError);
    expect(await client.getTemplate(1, { timeoutMs: 2 ** 31 }).catch((error: unknown) => error)).toBeInstanceOf(RangeError);
    expect(calls).toBe(0);
  });
});
